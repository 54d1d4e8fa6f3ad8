"""Seed 003, "Stress": the first-round Calme test, frenzy and the ally's help."""

import pytest

from service.rules.errors import ActionNotAllowed, NotYourTurn

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, ana, attack_entry, bob, cy, declare, refused, sheet


@pytest.mark.parametrize(
    ("experience", "modifier"),
    [("baptism_of_fire", -20), ("experienced", 0), ("hardened", 20), ("veteran", 40)],
)
def test_experience_modifies_calme(experience, modifier):
    _, entry = start(RULESET, [ana(experience=experience), bob()], dice=[1 + 50 + modifier, 1])
    test = params(entry, "stress_test")
    assert test["modifiers"] == ({experience: modifier} if modifier else {experience: 0})
    assert test["chance"] == 50 + modifier
    assert test["success"] is False  # one above the chance


def test_surprised_minus_10_and_successful_ambush_plus_30():
    sheets = [ana(ambusher=True), bob()]
    # Surprise: Bob 90 > 50 fails. Calme: Ana 50 + 30 = 80; Bob 50 - 10 = 40.
    _, entry = start(RULESET, sheets, dice=[90, 80, 40], options={"surprise_difficulty": 0})
    assert params(entry, "stress_test", 0)["modifiers"] == {"experienced": 0, "successful_ambush": 30}
    assert params(entry, "stress_test", 0)["chance"] == 80
    assert params(entry, "stress_test", 1)["modifiers"] == {"experienced": 0, "surprised": -10}
    assert params(entry, "stress_test", 1)["chance"] == 40
    assert "frenzy" not in codes(entry)


def test_an_ambush_that_surprised_nobody_gives_nothing():
    _, entry = start(RULESET, [ana(ambusher=True), bob()], dice=[10, 10, 10], options={"surprise_difficulty": 0})
    assert "successful_ambush" not in params(entry, "stress_test", 0)["modifiers"]


def test_outnumbering_plus_10_and_outnumbered_minus_10():
    # Bob and Cy (corpo) against Ana: 2 vs 1.
    _, entry = start(RULESET, [ana(), bob(), cy()], dice=[1, 1, 1])
    assert params(entry, "stress_test", 0)["modifiers"] == {"experienced": 0, "outnumbered": -10}
    assert params(entry, "stress_test", 0)["chance"] == 40
    assert params(entry, "stress_test", 1)["modifiers"] == {"experienced": 0, "outnumbering": 10}
    assert params(entry, "stress_test", 1)["chance"] == 60


def test_the_gm_modifier_of_the_sheet():
    _, entry = start(RULESET, [ana(calme_modifier=-15), bob()], dice=[1, 1])
    assert params(entry, "stress_test")["chance"] == 35


def test_the_chance_is_never_below_10_percent():
    # Calme 5 - 20 (baptism of fire) = -15 -> 10 %: 10 succeeds, 11 fails.
    sheets = [ana(calme=5, experience="baptism_of_fire"), bob(calme=5, experience="baptism_of_fire")]
    _, entry = start(RULESET, sheets, dice=[10, 11])
    assert params(entry, "stress_test", 0)["chance"] == 10
    assert params(entry, "stress_test", 0)["success"] is True
    assert params(entry, "stress_test", 1)["success"] is False
    assert params(entry, "frenzy") == {"combatant": "bob"}


def _frenzied_bob():
    # Ana keeps her Calme (1), Bob fails (99).
    return start(RULESET, [ana(), bob(), cy(calme=80)], dice=[1, 99, 1])


def test_a_failed_test_asks_the_player_to_choose_a_frenzy():
    state, _ = _frenzied_bob()
    assert state["phase"] == "frenzy"
    assert state["awaiting"] == [{"actor": "bob", "actions": ["choose_frenzy"], "reason": "frenzy"}]
    refused(state, {"type": "declare", "actor": "bob", "actions": [{"kind": "hold"}]}, ActionNotAllowed)
    refused(state, {"type": "choose_frenzy", "actor": "ana", "behaviour": "flight"}, ActionNotAllowed)
    state, entry = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "berserker"})
    assert params(entry, "frenzy_chosen") == {"combatant": "bob", "behaviour": "berserker"}
    assert combatant(state, "bob")["conditions"] == [
        {
            "code": "frenzy",
            "source": "rules",
            "start": {"round": 1},
            "ends": None,
            "modifiers": {},
            "behaviour": "berserker",
        }
    ]
    assert state["awaiting"] == [{"actor": "bob", "actions": ["declare"], "reason": "declaration"}]


def _berserker_bob():
    state, _ = _frenzied_bob()
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "berserker"})
    return state


@pytest.mark.parametrize("kind", ["defend", "flee"])
def test_a_berserker_takes_no_defensive_action(kind):
    state = _berserker_bob()
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [{"kind": kind}]}, ActionNotAllowed)
    assert error.field == "actions.0.kind"


def test_a_berserker_attacks_only_enemies():
    state = _berserker_bob()
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [attack_entry("cy")]}, ActionNotAllowed)
    assert error.field == "actions.0.target"


def _late_ana_round(state, bob_entry, ana_last):
    """Ana has 4 actions (60, 50, 40, 30): her last one comes after Bob's (40)."""
    state, _ = declare(state, "bob", bob_entry)
    state, _ = declare(state, "cy", {"kind": "other"})
    return declare(state, "ana", {"kind": "other"}, {"kind": "other"}, {"kind": "other"}, ana_last)


def _four_actions_start():
    return start(RULESET, [ana(actions=4), bob(), cy(calme=80)], dice=[1, 99, 1])[0]


def test_a_berserker_never_dodges_a_hit():
    state, _ = step(_four_actions_start(), {"type": "choose_frenzy", "actor": "bob", "behaviour": "berserker"})
    state, _ = _late_ana_round(state, {"kind": "hold"}, attack_entry("bob"))
    assert {"actor": "bob", "actions": ["attack", "forgo"], "reason": "held_action"} in state["awaiting"]
    # Hit (10), d10 2 = torso, wound d6 1: no pause for a reaction.
    state, entry = step(state, {"type": "attack", "actor": "ana", "target": "bob", "dice": [10, 2, 1]})
    assert "awaiting_reaction" not in codes(entry)
    # Pistol 8 - (Endurance 3 + no armour) + 1 = 6.
    assert params(entry, "wound_rolled")["wounds"] == 6


def _fleeing_bob():
    state, _ = _frenzied_bob()
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    return state


def test_a_fleeing_combatant_attacks_only_when_cornered():
    state = _fleeing_bob()
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [attack_entry("ana")]}, ActionNotAllowed)
    assert error.field == "actions.0.kind"
    refused(state, {"type": "adjust", "actor": "bob", "combatant": "bob", "add": ["cornered"]}, ActionNotAllowed)
    state, entry = step(state, {"type": "adjust", "actor": "gm", "combatant": "bob", "add": ["cornered"]})
    assert params(entry, "adjusted")["added"] == ["cornered"]
    state, entry = declare(state, "bob", attack_entry("ana"))
    assert params(entry, "declared")["kinds"] == ["attack"]


def test_a_fleeing_combatant_with_a_held_action_cannot_shoot_uncornered():
    state, _ = step(_four_actions_start(), {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state, _ = _late_ana_round(state, {"kind": "hold"}, attack_entry("bob"))
    assert all(waiting["actor"] != "bob" for waiting in state["awaiting"]), "a fleeing holder is not prompted to attack"
    error = refused(state, {"type": "attack", "actor": "bob", "target": "ana", "reaction": True}, ActionNotAllowed)
    assert error.field == "type"


def _reasoning_round(state, cy_modifier=0):
    state, _ = declare(state, "bob", {"kind": "flee"})
    state, _ = declare(state, "cy", {"kind": "reason", "target": "bob"})
    state, _ = declare(state, "ana", {"kind": "other"})
    return state


def test_an_ally_helps_the_frenzied_retest_each_round():
    state = _reasoning_round(_fleeing_bob())
    assert state["awaiting"][0] == {"actor": "cy", "actions": ["reason", "hold", "forgo"], "reason": "resolution"}
    # Bob's Calme 50, experienced 0; 2 vs 1 would be +10 but a retest takes maluses only; GM -15: 35. 36 fails.
    state, entry = step(state, {"type": "reason", "actor": "cy", "target": "bob", "modifier": -15, "dice": [36]})
    assert params(entry, "calme_retest") == {
        "actor": "cy",
        "target": "bob",
        "modifiers": {"gm": -15},
        "roll": 36,
        "chance": 35,
        "success": False,
        "critical": False,
        "fumble": False,
    }
    assert combatant(state, "bob")["conditions"] == [
        {
            "code": "frenzy",
            "source": "rules",
            "start": {"round": 1},
            "ends": None,
            "modifiers": {},
            "behaviour": "flight",
        }
    ]
    # Next round, Cy tries again and Bob calms down.
    state = _reasoning_round(state)
    state, entry = step(state, {"type": "reason", "actor": "cy", "target": "bob", "dice": [50]})
    assert params(entry, "calme_retest")["chance"] == 50  # Calme 50, no malus
    assert params(entry, "frenzy_ended") == {"combatant": "bob", "reason": "calmed"}
    assert combatant(state, "bob")["conditions"] == []


def test_the_retest_has_a_10_percent_floor_and_gm_only_option():
    state, _ = start(RULESET, [ana(), bob(calme=5), cy()], dice=[1, 99, 1], options={"retest_modifiers": "gm_only"})
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state = _reasoning_round(state)
    state, entry = step(state, {"type": "reason", "actor": "cy", "target": "bob", "modifier": -30, "dice": [10]})
    assert params(entry, "calme_retest")["modifiers"] == {"gm": -30}
    assert params(entry, "calme_retest")["chance"] == 10
    assert params(entry, "calme_retest")["success"] is True


def test_only_an_ally_may_reason_with_a_frenzied_combatant():
    state = _fleeing_bob()
    state, _ = declare(state, "bob", {"kind": "flee"})
    # Cy tries to reason with Ana, who is an enemy and not in a frenzy.
    error = refused(
        state, {"type": "declare", "actor": "cy", "actions": [{"kind": "reason", "target": "ana"}]}, ActionNotAllowed
    )
    assert error.field == "actions.0.target"


def test_two_allies_cannot_both_retest_him_in_one_round():
    # Seed: "un jet sous son Calme tous les rounds où on l'aide": one retest a round, refused at declaration.
    state, _ = start(RULESET, [ana(), bob(), cy(calme=80, actions=2)], dice=[1, 99, 1])
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state, _ = declare(state, "bob", {"kind": "flee"})
    twice = {
        "type": "declare",
        "actor": "cy",
        "actions": [{"kind": "reason", "target": "bob"}, {"kind": "reason", "target": "bob"}],
    }
    error = refused(state, twice, ActionNotAllowed)
    assert error.field == "actions.1.target"


def test_a_second_ally_cannot_declare_reasoning_with_the_same_friend():
    dan = sheet("dan", "corpo", 55)
    state, _ = start(RULESET, [ana(), bob(), cy(calme=80), dan], dice=[1, 99, 1, 1])
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state, _ = declare(state, "bob", {"kind": "flee"})
    state, _ = declare(state, "cy", {"kind": "reason", "target": "bob"})
    declaration = next(c for c in state["awaiting"])
    assert declaration["actor"] == "dan"
    listed = [e for item in _declare_items(state, "dan") for e in item["choices"]]
    assert {"kind": "reason", "target": "bob"} not in listed
    error = refused(
        state, {"type": "declare", "actor": "dan", "actions": [{"kind": "reason", "target": "bob"}]}, ActionNotAllowed
    )
    assert error.field == "actions.0.target"


def _declare_items(state, actor):
    from service.rules.registry import get_ruleset

    listed = get_ruleset(RULESET).legal_actions(state, actor)
    return next(a for a in listed if a["type"] == "declare")["params"]["actions"]["items"]


def test_the_frenzy_ends_when_no_enemy_is_left():
    state = _berserker_bob()
    state, _ = declare(state, "bob", attack_entry("ana"))
    state, _ = declare(state, "cy", {"kind": "other"})
    state, _ = declare(state, "ana", {"kind": "other"})
    state, entry = step(state, {"type": "adjust", "actor": "gm", "combatant": "ana", "add": ["out_of_action"]})
    assert params(entry, "frenzy_ended") == {"combatant": "bob", "reason": "no_enemies"}


def test_only_the_next_declarer_may_declare():
    state, _ = _frenzied_bob()
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    error = refused(state, {"type": "declare", "actor": "ana", "actions": [{"kind": "other"}]}, NotYourTurn)
    assert error.field == "actor"


def test_a_surprised_berserker_still_owes_its_defensive_action_and_may_dodge_with_it():
    # Surprise: Bob 90 fails. Calme: Ana 1, Bob 99 (frenzy).
    state, _ = start(RULESET, [ana(ambusher=True), bob()], dice=[90, 1, 99], options={"surprise_difficulty": 20})
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "berserker"})
    state, _ = declare(state, "ana", {"kind": "other"})  # round 1: Bob has nothing left to declare
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [attack_entry("ana")]}, ActionNotAllowed)
    assert error.field == "actions.0.kind"
    state, _ = declare(state, "bob", {"kind": "defend"})
    state, _ = declare(state, "ana", attack_entry("bob"))
    state, entry = step(state, {"type": "attack", "actor": "ana", "target": "bob", "dice": [10]})
    assert params(entry, "awaiting_reaction") == {"target": "bob", "attacker": "ana"}
    state, entry = step(state, {"type": "react", "actor": "bob", "reaction": "dodge", "dice": [40]})
    assert params(entry, "hit_avoided")["reaction"] == "dodge"


def test_gm_adjust_refusals():
    from service.rules.errors import InvalidAction

    state, _ = _frenzied_bob()
    error = refused(state, {"type": "adjust", "actor": "gm", "combatant": "ana", "add": ["frenzy"]}, InvalidAction)
    assert error.field == "add"
    error = refused(state, {"type": "adjust", "actor": "gm", "combatant": "zed", "add": ["prone"]}, InvalidAction)
    assert error.field == "combatant"
    state, entry = step(state, {"type": "adjust", "actor": "gm", "combatant": "bob", "remove": ["frenzy"]})
    assert combatant(state, "bob")["conditions"] == []
    assert state["awaiting"] == [{"actor": "bob", "actions": ["declare"], "reason": "declaration"}]


@pytest.mark.parametrize(
    ("experience", "modifiers", "chance"),
    [("veteran", {}, 50), ("hardened", {}, 50), ("baptism_of_fire", {"baptism_of_fire": -20}, 30)],
)
def test_the_retest_takes_the_situation_s_maluses_only(experience, modifiers, chance):
    # Seed: "un jet sous son Calme ... avec les malus applicables à la situation".
    # Bob: Calme 50. A veteran's +40, a hardened +20 and 2 vs 1 (+10) are bonuses: left out.
    # A baptism of fire (-20) is a malus: 50 - 20 = 30.
    # First test: 99 always fails (96-00), whatever the chance.
    state, _ = start(RULESET, [ana(), bob(experience=experience), cy(calme=80)], dice=[1, 99, 1])
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state = _reasoning_round(state)
    state, entry = step(state, {"type": "reason", "actor": "cy", "target": "bob", "dice": [chance]})
    retest = params(entry, "calme_retest")
    assert (retest["modifiers"], retest["chance"], retest["success"]) == (modifiers, chance, True)


def test_the_retest_refuses_a_bonus_from_the_gm():
    from service.rules.errors import InvalidInput
    from service.rules.registry import get_ruleset

    with pytest.raises(InvalidInput) as error:
        get_ruleset(RULESET).load_action({"type": "reason", "actor": "cy", "target": "bob", "modifier": 10})
    assert "modifier" in error.value.messages


def test_a_fleeing_combatant_aims_only_when_cornered():
    # Seed: "il doit éviter tout combat, sauf s'il n'a pas le choix pour sauver sa vie".
    state = _fleeing_bob()
    listed = [e["kind"] for item in _declare_items(state, "bob") for e in item["choices"]]
    assert "aim" not in listed and "attack" not in listed
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [{"kind": "aim"}]}, ActionNotAllowed)
    assert error.field == "actions.0.kind"
    state, _ = step(state, {"type": "adjust", "actor": "gm", "combatant": "bob", "add": ["cornered"]})
    state, entry = declare(state, "bob", {"kind": "aim"})
    assert params(entry, "declared") == {"actor": "bob", "kinds": ["aim"], "ranks": [40]}


def test_a_newcomer_of_the_first_round_tests_calme():
    # Seed: "chaque personnage doit, lors du premier tour d'un combat, réussir un test de Calme".
    state, _ = start(RULESET, [ana(), bob()], dice=[1, 1])
    # Dan joins Bob's side in round 1: Calme 50, experienced 0, 2 vs 1 +10 = 60; 99 fails: frenzy.
    state, entry = step(state, {"type": "join", "actor": "gm", "combatant": sheet("dan", "corpo", 55), "dice": [99]})
    assert params(entry, "stress_test") == {
        "combatant": "dan",
        "calme": 50,
        "modifiers": {"experienced": 0, "outnumbering": 10},
        "roll": 99,
        "chance": 60,
        "success": False,
        "critical": False,
        "fumble": True,
    }
    assert "frenzy" in codes(entry)


def test_a_newcomer_of_a_later_round_does_not_test_calme():
    state, _ = start(RULESET, [ana(), bob()], dice=[1, 1])
    state, _ = declare(state, "bob", {"kind": "other"})
    state, _ = declare(state, "ana", {"kind": "other"})
    assert state["round"] == 2
    state, entry = step(state, {"type": "join", "actor": "gm", "combatant": sheet("dan", "corpo", 55)})
    assert "stress_test" not in codes(entry) and entry["rolls"] == []


def test_a_gm_malus_on_the_retest_keeps_the_10_percent_floor_and_is_listed():
    # Issue 38. Seed: "un jet sous son Calme ... avec les malus applicables à la situation (minimum 10 % de chances)".
    # The GM's `modify` -30 on Bob's next roll is one of those maluses: it shows in the retest's modifiers
    # and the floor holds. Bob: Calme 5, experienced 0; 2 vs 1 is a bonus, left out of a retest.
    state, _ = start(RULESET, [ana(), bob(calme=5), cy(calme=80)], dice=[1, 99, 1])
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state = _reasoning_round(state)
    state, _ = step(state, {"type": "modify", "actor": "gm", "target": "bob", "value": -30})
    # 5 - 30 = -25, below the floor: 10 %. A 10 succeeds (before the fix the chance was -25 and 10 failed).
    state, entry = step(state, {"type": "reason", "actor": "cy", "target": "bob", "dice": [10]})
    retest = params(entry, "calme_retest")
    assert (retest["modifiers"], retest["chance"], retest["success"]) == ({"gm_modifier": -30}, 10, True)
    assert combatant(state, "bob")["conditions"] == []  # calmed; the GM's modifier was used up by this roll


def test_a_gm_malus_on_the_retest_adds_to_the_gm_s_reason_modifier_and_the_situation():
    # Bob: Calme 50, baptism of fire -20 (a malus the retest keeps); the reason's modifier -5; the GM's modify -10.
    # 50 - 20 - 5 - 10 = 15: 15 succeeds, and 16 would fail.
    state, _ = start(RULESET, [ana(), bob(experience="baptism_of_fire"), cy(calme=80)], dice=[1, 99, 1])
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state = _reasoning_round(state)
    state, _ = step(state, {"type": "modify", "actor": "gm", "target": "bob", "value": -10})
    state, entry = step(state, {"type": "reason", "actor": "cy", "target": "bob", "modifier": -5, "dice": [15]})
    retest = params(entry, "calme_retest")
    assert retest["modifiers"] == {"baptism_of_fire": -20, "gm": -5, "gm_modifier": -10}
    assert (retest["chance"], retest["success"]) == (15, True)
