"""Seed 004 read closely: who may defend, who may stabilise whom, the GM's word on death tests,
what a non-lethal blow takes, the source's +5 ceiling and its CON table, and refusals that say why."""

import copy

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction, NotYourTurn
from service.rules.registry import RULESETS

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import ANA_FIRST, RULESET, ana, bruno

GM = "gm"


def refused(state, action, error):
    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        step(state, action)
    assert state == before  # nothing kept, version unchanged
    return caught.value


def legal(state, actor):
    return RULESETS[RULESET].legal_actions(state, actor)


def dying_bruno_in_round_2():
    """Bruno (4 PV) shot to -1 by Ana (5 damage), holds on with 3+3; Ana acts in round 2."""
    state, _ = start(RULESET, [ana(), bruno(pv=4)], dice=ANA_FIRST)
    state, _ = step(
        state,
        {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "difficulty": 2, "dice": [3, 3, 2]},
    )
    state, _ = step(state, {"type": "death_test", "actor": "bruno", "dice": [3, 3]})
    assert state["round"] == 2 and state["awaiting"][0]["actor"] == "ana"
    return state


# -- "Se o alvo não puder se esquivar, o Mestre determina a dificuldade" ---------------------------


def test_an_unconscious_target_gets_no_active_defense_whatever_the_body_says():
    state = dying_bruno_in_round_2()
    attack = {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola"}
    error = refused(
        state, {**attack, "defense": {"skill": "Esquiva", "modifier": 20}, "dice": [3, 3, 6, 6]}, ActionNotAllowed
    )
    assert error.field == "defense" and "unconscious" in str(error)
    # Offered: the difficulty, never a defense.
    offered = [e["params"] for e in legal(state, "ana") if e["type"] == "attack"]
    assert offered and all("defense" not in p and p["difficulty"]["required"] for p in offered)
    # Ana DES 3 + Armas de Fogo 2 + precision 1 + (3+3) = 12 >= CD 10: hit.
    _, entry = step(state, {**attack, "difficulty": 10, "dice": [3, 3, 1]})
    assert params(entry, "attack_rolled")["total"] == 12 and "attack_hit" in codes(entry)


def test_a_defender_knocked_out_while_the_attack_waits_cannot_roll_his_defense():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST)
    state, _ = step(
        state, {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "dice": [4, 3]}
    )  # 13
    state, _ = step(state, {"type": "condition", "actor": GM, "target": "bruno", "code": "unconscious"})
    error = refused(state, {"type": "defend", "actor": "bruno", "skill": "Esquiva", "dice": [6, 6]}, ActionNotAllowed)
    assert error.field == "difficulty"
    assert [e["params"]["difficulty"]["required"] for e in legal(state, "bruno") if e["type"] == "defend"] == [True]
    _, entry = step(state, {"type": "defend", "actor": "bruno", "difficulty": 14})  # 13 < 14: a miss
    assert params(entry, "passive_defense") == {"target": "bruno", "difficulty": 14} and "attack_missed" in codes(entry)


# -- "Caso outro personagem seja bem sucedido em um teste de cura" ------------------------------


def test_a_dying_character_cannot_stabilise_himself():
    # Ana and Bruno tie at 8 (3+1+3+1, 2+0+3+3); Ana drops Bruno (4 PV) to -1; Bruno still acts this turn.
    state, _ = start(RULESET, [ana(), bruno(pv=4)], dice=[3, 1, 3, 3])
    state, _ = step(
        state,
        {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "difficulty": 2, "dice": [3, 3, 2]},
    )
    # Nobody else is dying: stabilize is not offered.
    assert state["awaiting"] == [
        {"actor": "bruno", "actions": ["attack", "test", "pass"], "reason": "turn"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]
    error = refused(
        state,
        {
            "type": "stabilize",
            "actor": "bruno",
            "target": "bruno",
            "skill": "Medicina",
            "difficulty": 8,
            "dice": [6, 6],
        },
        InvalidAction,
    )
    assert error.field == "target"
    assert [e for e in legal(state, "bruno") if e["type"] == "stabilize"] == []


# -- non-lethal damage reports what was lost ---------------------------------------------------------


def test_a_non_lethal_overkill_reports_the_pv_lost():
    state, _ = start(RULESET, [ana(), bruno(pv=14)], dice=ANA_FIRST)
    # 6+6 critical: (5 + 3) x 2 = 16 non-lethal on 14 PV: 14 lost, 0 left.
    state, entry = step(
        state,
        {
            "type": "attack",
            "actor": "ana",
            "target": "bruno",
            "weapon": "pistola",
            "difficulty": 2,
            "lethal": False,
            "dice": [6, 6, 5],
        },
    )
    assert params(entry, "damage_rolled")["dealt"] == 16
    assert params(entry, "damage_taken") == {"target": "bruno", "amount": 14, "pv": 0, "lethal": False}
    _, entry = step(state, {"type": "end_combat", "actor": GM})
    people = params(entry, "combat_summary")["combatants"]
    assert people["bruno"]["damage_taken"] == 14 and people["ana"]["damage_dealt"] == 14


def test_non_lethal_damage_on_a_character_already_at_0_takes_nothing_and_says_nothing():
    state, _ = start(RULESET, [ana(), bruno(pv=5)], dice=ANA_FIRST, options={"death_tests_at_zero": False})
    state, _ = step(
        state,
        {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "difficulty": 2, "dice": [3, 3, 2]},
    )
    assert combatant(state, "bruno")["pv"] == 0  # 5 - (2 + 3): unconscious, not dying
    state, _ = step(state, {"type": "pass", "actor": "ana"})
    _, entry = step(
        state,
        {
            "type": "attack",
            "actor": "ana",
            "target": "bruno",
            "weapon": "pistola",
            "difficulty": 2,
            "lethal": False,
            "dice": [3, 3, 4],
        },
    )
    assert "damage_taken" not in codes(entry) and params(entry, "damage_rolled")["dealt"] == 7


# -- the GM's word on a death test -------------------------------------------------------------------


def dying_bruno_to_test():
    state, _ = start(RULESET, [ana(), bruno(pv=4)], dice=ANA_FIRST)
    state, _ = step(
        state,
        {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "difficulty": 2, "dice": [3, 3, 2]},
    )
    assert state["awaiting"] == [
        {"actor": "bruno", "actions": ["death_test"], "reason": "death_test"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]
    return state


@pytest.mark.parametrize(
    ("result", "dice", "outcome", "failures"),
    [
        ("success", [1, 2], "success", 0),  # 3 < 6, but the GM said success
        ("failure", [6, 5], "failure", 1),  # 11 >= 6, but the GM said failure
    ],
)
def test_a_gm_override_decides_the_death_test_and_is_used_up(result, dice, outcome, failures):
    state, _ = step(dying_bruno_to_test(), {"type": "override", "actor": GM, "target": "bruno", "result": result})
    state, entry = step(state, {"type": "death_test", "actor": "bruno", "dice": dice})
    assert params(entry, "death_test")["outcome"] == outcome and params(entry, "death_test")["failures"] == failures
    assert params(entry, "condition_expired") == {"combatant": "bruno", "condition": "override"}
    assert "override" not in {c["code"] for c in combatant(state, "bruno")["conditions"]}


def test_a_gm_modifier_adds_to_the_death_test_but_only_the_dice_12_stabilises():
    state, _ = step(dying_bruno_to_test(), {"type": "modify", "actor": GM, "target": "bruno", "value": 3})
    _, entry = step(state, {"type": "death_test", "actor": "bruno", "dice": [5, 4]})
    # 5 + 4 + 3 = 12: a success, not the natural 12 that stabilises.
    assert params(entry, "death_test") == {
        "actor": "bruno",
        "dice": [5, 4],
        "total": 12,
        "modifiers": {"gm": 3},
        "outcome": "success",
        "failures": 0,
    }


# -- the source's +5 ceiling and CON table -------------------------------------------------------------


@pytest.mark.parametrize(
    ("cap", "location", "modifiers", "total"),
    [
        # DES 3 + Armas de Fogo 2 + (4+3) = 12, plus the bonuses:
        ("total", None, {"precision": 5, "modifier": 3, "cap": -3}, 17),  # 5 + 3 = 8, capped at +5
        ("total", "leg", {"precision": 5, "location": -2, "modifier": 3, "cap": -1}, 17),  # 5 - 2 + 3 = 6, capped at +5
        ("total", "head", {"precision": 5, "location": -4, "modifier": 3}, 16),  # 5 - 4 + 3 = 4
        ("precision", None, {"precision": 5, "modifier": 3}, 20),  # 5 + 3 = 8
    ],
)
def test_the_bonuses_of_a_roll_total_at_most_plus_5(cap, location, modifiers, total):
    sharp = ana(weapons=[{"id": "pistola", "catalog": "tiro", "precision": 5}])
    state, _ = start(RULESET, [sharp, bruno()], dice=ANA_FIRST, options={"bonus_cap": cap})
    _, entry = step(
        state,
        {
            "type": "attack",
            "actor": "ana",
            "target": "bruno",
            "weapon": "pistola",
            "modifier": 3,
            "location": location,
            "difficulty": 30,
            "dice": [4, 3],
        },
    )
    assert params(entry, "attack_rolled")["modifiers"] == {"DES": 3, "Armas de Fogo": 2, **modifiers}
    assert params(entry, "attack_rolled")["total"] == total


@pytest.mark.parametrize(
    ("con", "pv"),
    [
        (5, 10 + 5 + 3 + 15),
        (6, 10 + 6 + 3 + 20),
        (7, 10 + 7 + 3 + 30),
        (8, 10 + 8 + 3 + 40),
        (9, 10 + 9 + 3 + 50),
        (10, 10 + 10 + 3 + 60),
    ],
)
def test_extra_pv_for_a_superhuman_con(con, pv):
    state, _ = start(RULESET, [ana(), bruno(attributes={"FOR": 3, "DES": 2, "CON": con})], dice=ANA_FIRST)
    assert combatant(state, "bruno")["pv_max"] == pv


# -- refusals that say why -----------------------------------------------------------------------------


def test_a_death_test_by_someone_not_dying_says_so():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST)
    error = refused(state, {"type": "death_test", "actor": "ana", "dice": [3, 3]}, ActionNotAllowed)
    assert error.field == "type" and str(error) == "Ana is not dying"


def test_an_unconscious_actor_is_told_he_is_unconscious():
    state, _ = start(RULESET, [ana(), bruno(pv=5)], dice=ANA_FIRST)
    state, _ = step(
        state,
        {
            "type": "attack",
            "actor": "ana",
            "target": "bruno",
            "weapon": "pistola",
            "difficulty": 2,
            "lethal": False,
            "dice": [3, 3, 2],
        },
    )  # 5 non-lethal: 0 PV, unconscious
    error = refused(state, {"type": "pass", "actor": "bruno"}, ActionNotAllowed)
    assert error.field == "actor" and str(error) == "Bruno is unconscious and cannot act"
    # A dying character waiting for his turn is simply not in turn.
    refused(dying_bruno_in_round_2(), {"type": "death_test", "actor": "bruno", "dice": [3, 3]}, NotYourTurn)
