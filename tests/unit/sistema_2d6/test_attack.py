"""Seed 004, "Ações": action tests, active and passive defense, criticals."""

import copy

import pytest

from service.rules.engine import apply_action
from service.rules.errors import ActionNotAllowed, InvalidAction, NotYourDecision, NotYourTurn
from service.rules.registry import RULESETS, get_ruleset
from service.rules.viewer import GM_VIEWER, Viewer

from ..rules_helpers import codes, params, start, step
from .fixtures import ANA_FIRST, RULESET, ana, bruno


@pytest.fixture
def fight():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST)
    return state


def attack(**fields):
    return {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", **fields}


def test_attack_is_attribute_plus_skill_plus_precision_plus_2d6(fight):
    state, entry = step(fight, attack(dice=[4, 3]))
    rolled = params(entry, "attack_rolled")
    assert rolled["dice"] == [4, 3]
    assert rolled["modifiers"] == {"DES": 3, "Armas de Fogo": 2, "precision": 1}
    assert rolled["total"] == 13
    # No inline defense: the defender is prompted.
    assert state["awaiting"] == [{"actor": "bruno", "actions": ["defend"], "reason": "defense"}]


def test_active_defense_higher_total_hits(fight):
    state, _ = step(fight, attack(dice=[4, 3]))
    # Bruno: DES 2 + Esquiva 0 + (5+5) = 12 < 13: hit; damage 1d6+3 with 2 -> 5.
    state, entry = step(state, {"type": "defend", "actor": "bruno", "dice": [5, 5, 2]})
    assert params(entry, "defense_rolled")["total"] == 12
    assert params(entry, "attack_hit") == {"attacker": "ana", "target": "bruno", "critical": False}
    assert params(entry, "damage_rolled")["dealt"] == 5
    assert next(c for c in state["combatants"] if c["id"] == "bruno")["pv"] == 15 - 5
    assert state["awaiting"][0]["actor"] == "bruno" and state["awaiting"][0]["reason"] == "turn"


def test_opposed_tie_goes_to_the_defender_by_default(fight):
    state, _ = step(fight, attack(dice=[4, 3]))  # 13
    state, entry = step(state, {"type": "defend", "actor": "bruno", "dice": [5, 6]})  # 2 + 0 + 11 = 13
    assert "attack_missed" in codes(entry)
    assert "damage_rolled" not in codes(entry)


def test_opposed_tie_option_attacker():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST, options={"opposed_tie": "attacker"})
    state, _ = step(state, attack(dice=[4, 3]))
    state, entry = step(state, {"type": "defend", "actor": "bruno", "dice": [5, 6, 1]})
    assert "attack_hit" in codes(entry)


def test_inline_defense_resolves_in_one_action(fight):
    state, entry = step(fight, attack(dice=[1, 2, 6, 5], defense={"skill": "Esquiva"}))
    # Ana 3+2+1+3 = 9, Bruno 2+0+11 = 13.
    assert codes(entry)[:3] == ["attack_rolled", "defense_rolled", "attack_missed"]
    assert state["awaiting"][0]["actor"] == "bruno"


def test_passive_defense_against_the_gm_difficulty(fight):
    _, hit = step(fight, attack(difficulty=10, dice=[2, 2, 6]))  # 6 + 2+2 = 10 >= 10
    assert params(hit, "passive_defense")["difficulty"] == 10
    assert params(hit, "damage_rolled")["rolled"] == 9
    _, miss = step(fight, attack(difficulty=11, dice=[2, 2]))
    assert "attack_missed" in codes(miss)


def test_double_six_hits_and_doubles_the_rolled_damage_before_rd():
    target = bruno(armor={"catalog": "colete_balas"})
    state, _ = start(RULESET, [ana(), target], dice=ANA_FIRST)
    # 6+6 beats a higher defense total; damage 1d6+3 = 4+3 = 7, doubled 14, RD 3 -> 11.
    _, entry = step(state, attack(dice=[6, 6, 6, 5, 4], defense={"skill": "Esquiva", "modifier": 10}))
    assert params(entry, "attack_hit")["critical"] is True
    assert params(entry, "damage_rolled") == {
        "target": "bruno",
        "expression": "1d6+3",
        "rolled": 14,
        "doubled": True,
        "rd": 3,
        "damage_type": "balistico",
        "dealt": 11,
    }


def test_double_one_always_misses(fight):
    _, entry = step(fight, attack(dice=[1, 1], difficulty=2))
    assert params(entry, "attack_missed")["fumble"] is True


def test_both_double_six_compare_totals(fight):
    _, entry = step(fight, attack(dice=[6, 6, 6, 6], defense={"skill": "Esquiva"}))
    # Ana 18 vs Bruno 14: totals decide, Ana hits (critical).
    assert params(entry, "attack_hit")["critical"] is True


def test_critical_rolls_option_off(fight):
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST, options={"critical_rolls": False})
    _, entry = step(state, attack(dice=[1, 1, 6], difficulty=8))  # 6 + 2 = 8 >= 8
    assert params(entry, "attack_hit")["critical"] is False


def test_localized_attack_penalty_and_condition_tag(fight):
    state, entry = step(fight, attack(location="leg", condition="limping", difficulty=8, dice=[2, 2, 1]))
    assert params(entry, "attack_rolled")["modifiers"]["location"] == -2
    assert params(entry, "attack_rolled")["total"] == 3 + 2 + 1 - 2 + 4
    bruno_now = next(c for c in state["combatants"] if c["id"] == "bruno")
    assert {
        "code": "localized",
        "source": "ana",
        "start": {"round": 1},
        "ends": None,
        "modifiers": {},
        "location": "leg",
        "tag": "limping",
    } in bruno_now["conditions"]


def test_burst_minus_four_and_1d6_minus_3_hits_minimum_one(fight):
    # Hit roll 3+2+0(precision)-4 + (6+6) = 13 vs 10; hits d6=2 -> -1 -> 1 hit; damage 1d6+2 = 3+2.
    _, entry = step(fight, attack(weapon="smg", burst=True, difficulty=10, dice=[6, 6, 2, 3]))
    assert params(entry, "attack_rolled")["modifiers"]["burst"] == -4
    assert params(entry, "burst_hits")["hits"] == 1
    _, entry = step(fight, attack(weapon="smg", burst=True, difficulty=10, dice=[5, 5, 6, 1, 1, 1]))
    assert params(entry, "burst_hits")["hits"] == 3
    assert [e["params"]["rolled"] for e in entry["events"] if e["code"] == "damage_rolled"] == [3, 3, 3]


def test_for_damage_table_for_melee(fight):
    state, _ = step(fight, {"type": "pass", "actor": "ana"})
    # Bruno FOR 3, faca FOR+1, the seed's reading: the source's FOR 3 row (1d6) + 4, + 1 = 1d6+5; 5 + 5 = 10.
    _, entry = step(
        state,
        {"type": "attack", "actor": "bruno", "target": "ana", "weapon": "faca", "difficulty": 5, "dice": [3, 3, 5]},
    )
    assert params(entry, "damage_rolled")["expression"] == "1d6+5"
    assert params(entry, "damage_rolled")["dealt"] == 10
    source, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST, options={"for_damage": "source"})
    source, _ = step(source, {"type": "pass", "actor": "ana"})
    # The source's table: FOR 3 = 1d6, + 1 = 1d6+1; 5 + 1 = 6.
    _, entry = step(
        source,
        {"type": "attack", "actor": "bruno", "target": "ana", "weapon": "faca", "difficulty": 5, "dice": [3, 3, 5]},
    )
    assert params(entry, "damage_rolled")["expression"] == "1d6+1"
    assert params(entry, "damage_rolled")["dealt"] == 6


@pytest.mark.parametrize(
    ("reading", "weapon", "expression", "rolled"),
    [
        # Seed: "Soco 1d6 (dano de FOR 1), Chute 1d6+1 (Dano de FOR 1 mais 1 pelo chute)"; die 4.
        ("seed", "soco", "1d6", 4),  # 4
        ("seed", "chute", "1d6+1", 5),  # 4 + 1
        # The source's FOR table: FOR 1 = 1d6-4.
        ("source", "soco", "1d6-4", 0),  # 4 - 4
        ("source", "chute", "1d6-3", 1),  # 4 - 4 + 1
    ],
)
def test_punch_and_kick_at_for_1(reading, weapon, expression, rolled):
    weak = ana(attributes={"FOR": 1, "DES": 3, "CON": 2, "INT": 2})
    state, _ = start(RULESET, [weak, bruno()], dice=ANA_FIRST, options={"for_damage": reading})
    _, entry = step(state, attack(weapon=weapon, difficulty=2, dice=[3, 3, 4]))
    assert params(entry, "damage_rolled")["expression"] == expression
    assert params(entry, "damage_rolled")["rolled"] == rolled


@pytest.mark.parametrize(
    ("action", "error", "field"),
    [
        (attack(target="nobody"), InvalidAction, "target"),
        (attack(target="ana"), InvalidAction, "target"),
        (attack(weapon="laser"), InvalidAction, "weapon"),
        (attack(weapon="pistola", burst=True), InvalidAction, "burst"),
        (attack(difficulty=10, defense={"skill": "Esquiva"}), InvalidAction, "defense"),
        (attack(condition="blind"), InvalidAction, "condition"),
        ({"type": "attack", "actor": "bruno", "target": "ana"}, NotYourTurn, "actor"),
        ({"type": "defend", "actor": "bruno"}, ActionNotAllowed, "type"),
        ({"type": "death_test", "actor": "ana"}, ActionNotAllowed, "type"),
        ({"type": "stabilize", "actor": "ana", "target": "bruno", "difficulty": 10}, ActionNotAllowed, "target"),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(fight, action, error, field):
    before = copy.deepcopy(fight)
    with pytest.raises(error) as refused:
        step(fight, action)
    assert refused.value.field == field
    assert fight == before


def test_pending_defense_blocks_other_actions(fight):
    state, _ = step(fight, attack(dice=[4, 3]))
    with pytest.raises(NotYourTurn):
        step(state, {"type": "pass", "actor": "ana"})
    with pytest.raises(NotYourTurn):
        step(state, {"type": "defend", "actor": "ana"})


def test_skill_test_and_pass_consume_the_turn(fight):
    state, entry = step(
        fight,
        {"type": "test", "actor": "ana", "attribute": "DES", "skill": "Esquiva", "difficulty": 10, "dice": [3, 3]},
    )
    assert params(entry, "test_rolled")["success"] is True  # 3 + 1 + 6 = 10
    assert state["awaiting"][0]["actor"] == "bruno"


def test_the_attacker_names_any_area_and_the_gm_sets_its_penalty(fight):
    """Issue 27 item 13: « o atacante declara qual área ... e o mestre define a penalidade ... Algumas sugestões »."""
    aim = attack(location="tail", difficulty=8, dice=[2, 2])
    # An area the seed does not suggest needs the GM's penalty, which a player's token may not set.
    with pytest.raises(InvalidAction) as refused:
        step(copy.deepcopy(fight), aim)
    assert refused.value.field == "location_penalty"
    with pytest.raises(NotYourDecision):
        apply_action(copy.deepcopy(fight), {**aim, "location_penalty": -3}, caller=Viewer(combatant="ana"))
    state, entry = apply_action(fight, {**aim, "location_penalty": -3, "condition": "no tail"}, caller=GM_VIEWER)
    # DES 3 + Armas de Fogo 2 + precision 1 - 3 + 2+2 = 7 < CD 8: a miss (no damage die), the GM's -3 shown.
    assert params(entry, "attack_rolled")["modifiers"]["location"] == -3
    assert params(entry, "attack_rolled")["total"] == 3 + 2 + 1 - 3 + 4
    # The GM's penalty also replaces a suggestion's (3 + 2 + 1 - 1 + 4 = 9 >= 8: a hit, damage die 1);
    # the nine stay the listed choices.
    _, entry = step(copy.deepcopy(fight), attack(location="leg", location_penalty=-1, difficulty=8, dice=[2, 2, 1]))
    assert params(entry, "attack_rolled")["modifiers"]["location"] == -1
    listed = [c for c in get_ruleset(RULESET).legal_actions(fight, "ana") if c["type"] == "attack"]
    assert listed and all(c["params"]["location"]["choices"][:3] == ["ankle", "arm", "ear"] for c in listed)
    assert all("location_penalty" not in c["params"] for c in listed)


def test_the_attack_listing_offers_the_carried_weapons_and_bare_hands_only(fight):
    # Ana carries a pistol and an automatic SMG (bursts allowed by default); the
    # bazooka, dynamite... of the catalog are not hers. Punch and kick are everyone's.
    listed = [choice for choice in RULESETS[RULESET].legal_actions(fight, "ana") if choice["type"] == "attack"]
    assert [choice["params"]["weapon"]["choices"] for choice in listed] == [["pistola", "soco", "chute"], ["smg"]]


def test_a_sheet_carrying_a_punch_of_its_own_lists_it_once():
    state, _ = start(RULESET, [ana(weapons=[{"id": "soco", "catalog": "soco"}]), bruno()], dice=ANA_FIRST)
    listed = [choice for choice in RULESETS[RULESET].legal_actions(state, "ana") if choice["type"] == "attack"]
    assert [choice["params"]["weapon"]["choices"] for choice in listed] == [["soco", "chute"]]
