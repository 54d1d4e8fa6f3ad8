"""Seed 004, "Morte" and "Testes de Morte"; non-lethal damage; stabilisation."""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction

from ..rules_helpers import codes, combatant, params, sentences, start, step
from .fixtures import ANA_FIRST, RULESET, ana, bruno


def hit_bruno(state, damage_dice, *, weapon="pistola", lethal=None):
    action = {
        "type": "attack",
        "actor": "ana",
        "target": "bruno",
        "weapon": weapon,
        "difficulty": 2,
        "dice": [3, 3, *damage_dice],
    }
    if lethal is not None:
        action["lethal"] = lethal
    return step(state, action)


def fight(pv, **options):
    state, _ = start(RULESET, [ana(), bruno(pv=pv)], dice=ANA_FIRST, options=options or None)
    return state


def test_zero_pv_is_unconscious_and_dying():
    state, entry = hit_bruno(fight(4), [1])  # 1 + 3 = 4 damage -> 0 PV
    target = combatant(state, "bruno")
    assert target["pv"] == 0
    assert {c["code"] for c in target["conditions"]} == {"unconscious", "dying"}
    assert params(entry, "dying") == {"target": "bruno", "pv": 0}
    # One side stands: the GM may end the fight; until then the rules go on.
    assert state["awaiting"] == [
        {"actor": "bruno", "actions": ["death_test"], "reason": "death_test"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]


def test_literal_reading_zero_pv_is_unconscious_not_dying():
    state, entry = hit_bruno(fight(4, death_tests_at_zero=False), [1])
    target = combatant(state, "bruno")
    assert {c["code"] for c in target["conditions"]} == {"unconscious"}
    assert "knocked_out" in codes(entry)


@pytest.mark.parametrize(
    ("threshold", "pv", "damage_die", "dies"),
    [
        # Bruno CON 2 + FOR 3 = 5: realistic death at <= -5, heroic at <= -15.
        ("realistic", 4, 6, True),  # 4 - 9 = -5
        ("realistic", 5, 6, False),  # 5 - 9 = -4
        ("heroic", 1, 6, False),  # 1 - 9 = -8
    ],
)
def test_instant_death_threshold(threshold, pv, damage_die, dies):
    state, entry = hit_bruno(fight(pv, death_threshold=threshold), [damage_die])
    assert ("died" in codes(entry)) is dies
    assert any(c["code"] == "dead" for c in combatant(state, "bruno")["conditions"]) is dies


def test_heroic_death_beyond_minus_con_for_ten():
    state, entry = hit_bruno(fight(1, death_threshold="heroic"), [6])  # -8
    state, _ = step(state, {"type": "death_test", "actor": "bruno", "dice": [3, 3]})
    # Bruno is dying at -8; next round Ana's critical doubles (6+3)*2 = 18 -> -26 <= -15.
    state, entry = step(
        state,
        {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "difficulty": 2, "dice": [6, 6, 6]},
    )
    assert params(entry, "died") == {"target": "bruno", "cause": "damage"}


def dying_bruno():
    state, _ = hit_bruno(fight(4), [2])  # -1
    return state


def test_death_test_six_or_more_holds_on():
    state, entry = step(dying_bruno(), {"type": "death_test", "actor": "bruno", "dice": [2, 4]})
    assert params(entry, "death_test") == {
        "actor": "bruno",
        "dice": [2, 4],
        "total": 6,
        "modifiers": {},
        "outcome": "success",
        "failures": 0,
    }
    assert state["round"] == 2


def test_three_failed_death_tests_kill():
    state = dying_bruno()
    for expected_failures, expected_round in ((1, 2), (2, 3)):
        state, entry = step(state, {"type": "death_test", "actor": "bruno", "dice": [1, 2]})
        assert params(entry, "death_test")["failures"] == expected_failures
        state, _ = step(state, {"type": "pass", "actor": "ana"})
        assert state["round"] == expected_round
    state, entry = step(state, {"type": "death_test", "actor": "bruno", "dice": [2, 3]})
    assert params(entry, "died") == {"target": "bruno", "cause": "death_tests"}
    # The dead take no more turns: only Ana is awaited from now on (and the GM, to end the fight).
    assert [w["actor"] for w in state["awaiting"]] == ["ana", "gm"]


def test_twelve_stabilises():
    state, entry = step(dying_bruno(), {"type": "death_test", "actor": "bruno", "dice": [6, 6]})
    assert params(entry, "death_test")["outcome"] == "stabilised"
    assert {c["code"] for c in combatant(state, "bruno")["conditions"]} == {"unconscious", "stable"}
    # Stable and unconscious: no more death tests, no turn.
    assert [w["actor"] for w in state["awaiting"]] == ["ana", "gm"]


def test_a_twelve_says_stabilised_once_in_every_language():
    # Issue 38: the death test's sentence and the stabilised event both said "se estabiliza".
    state, entry = step(dying_bruno(), {"type": "death_test", "actor": "bruno", "dice": [6, 6]})
    assert [*sentences(state, entry, "death_test"), *sentences(state, entry, "stabilised")] == [
        "Death test for Bruno: 6, 6 → 12, a 12 on the dice.",
        "Test de mort pour Bruno : 6, 6 → 12, un 12 aux dés.",
        "Teste de morte de Bruno: 6, 6 → 12, um 12 nos dados.",
        "Bruno is stabilised.",
        "Bruno se stabilise.",
        "Bruno se estabiliza.",
    ]


def test_a_successful_healing_test_stabilises():
    state = dying_bruno()
    state, _ = step(state, {"type": "death_test", "actor": "bruno", "dice": [3, 3]})
    # Ana: INT 2 + Medicina 2 + (4+3) = 11 >= 10.
    state, entry = step(
        state,
        {"type": "stabilize", "actor": "ana", "target": "bruno", "skill": "Medicina", "difficulty": 10, "dice": [4, 3]},
    )
    assert params(entry, "healing_test")["success"] is True
    assert params(entry, "stabilised") == {"target": "bruno", "healer": "ana"}
    assert not any(c["code"] == "dying" for c in combatant(state, "bruno")["conditions"])


def test_a_failed_healing_test_leaves_the_patient_dying():
    state = dying_bruno()
    state, _ = step(state, {"type": "death_test", "actor": "bruno", "dice": [3, 3]})
    state, entry = step(
        state,
        {"type": "stabilize", "actor": "ana", "target": "bruno", "skill": "Medicina", "difficulty": 14, "dice": [4, 3]},
    )
    assert params(entry, "healing_test")["success"] is False
    assert any(c["code"] == "dying" for c in combatant(state, "bruno")["conditions"])


def test_a_dying_character_can_only_make_death_tests():
    with pytest.raises(ActionNotAllowed):
        step(dying_bruno(), {"type": "pass", "actor": "bruno"})


def test_an_unconscious_target_needs_a_difficulty():
    state = dying_bruno()
    state, _ = step(state, {"type": "death_test", "actor": "bruno", "dice": [3, 3]})
    with pytest.raises(InvalidAction) as refused:
        step(state, {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola"})
    assert refused.value.field == "difficulty"


def test_non_lethal_damage_knocks_out_but_never_kills():
    state, entry = hit_bruno(fight(4), [6], lethal=False)  # 9 non-lethal damage
    target = combatant(state, "bruno")
    assert target["pv"] == 0
    assert {c["code"] for c in target["conditions"]} == {"unconscious"}
    assert params(entry, "damage_taken")["lethal"] is False
    assert [w["actor"] for w in state["awaiting"]] == ["ana", "gm"]


def test_rd_per_damage_type_and_star():
    vest = bruno(armor={"catalog": "colete_balas"})
    state, _ = start(RULESET, [ana(), vest], dice=ANA_FIRST)
    state, entry = step(state, {"type": "pass", "actor": "ana"})
    state, entry = step(
        state,
        {"type": "attack", "actor": "bruno", "target": "ana", "weapon": "faca", "difficulty": 2, "dice": [3, 3, 2]},
    )
    assert params(entry, "damage_rolled")["rd"] == 0  # the vest is Bruno's
    field = bruno(armor={"name": "Campo", "rd": {"*": 4}})
    state, _ = start(RULESET, [ana(), field], dice=ANA_FIRST)
    _, entry = hit_bruno(state, [2])
    assert params(entry, "damage_rolled")["rd"] == 4
    assert params(entry, "damage_rolled")["dealt"] == 1


def test_default_pv_formulas():
    state, _ = start(RULESET, [ana(), bruno(attributes={"FOR": 3, "DES": 2, "CON": 4})], dice=ANA_FIRST)
    assert combatant(state, "ana")["pv_max"] == 10 + 2 + 2
    assert combatant(state, "bruno")["pv_max"] == 10 + 4 + 3 + 10
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST, options={"pv_formula": "action"})
    assert combatant(state, "ana")["pv_max"] == 20 + 2 + 2


def test_auto_end_when_one_side_stands():
    state, _ = start(RULESET, [ana(), bruno(pv=4)], dice=ANA_FIRST, options={"auto_end": True})
    state, entry = hit_bruno(state, [6])
    assert state["status"] == "over"
    assert params(entry, "combat_over") == {"reason": "one_side_standing"}


def test_dead_combatant_cannot_act_or_be_attacked():
    state, _ = hit_bruno(fight(4), [6])  # -5: dead (realistic)
    with pytest.raises(ActionNotAllowed, match="Bruno is dead"):
        step(state, {"type": "pass", "actor": "bruno"})
    with pytest.raises(ActionNotAllowed, match="already dead"):
        step(state, {"type": "attack", "actor": "ana", "target": "bruno", "difficulty": 5})


def test_a_stabilised_character_hit_again_is_dying_again():
    state, _ = hit_bruno(fight(4, death_threshold="heroic"), [2])  # -1
    state, _ = step(state, {"type": "death_test", "actor": "bruno", "dice": [6, 6]})
    state, entry = step(
        state,
        {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "difficulty": 2, "dice": [3, 3, 1]},
    )
    assert params(entry, "dying") == {"target": "bruno", "pv": -5}
    assert {c["code"] for c in combatant(state, "bruno")["conditions"]} == {"unconscious", "dying"}
