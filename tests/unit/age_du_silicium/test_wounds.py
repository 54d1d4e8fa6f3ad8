"""Source (combats-9): Blessures = D - (Endurance + armour) + 1d6, chained 6s; gaps G4-G5."""

import pytest

from ..rules_helpers import codes, combatant, params, step
from .fixtures import ana, attack_entry, bob, declare, duel

ARMOUR = {"*": {"energy": 1, "ballistic": 2, "impact": 3}, "head": {"energy": 0, "ballistic": 5, "impact": 0}}
LASER = {"id": "laser", "kind": "ranged", "skill": "Armes de poing", "damage": 10, "damage_type": "energy"}


def shoot(dice, options=None, bob_sheet=None, ana_sheet=None, **fields):
    state, _ = duel(
        options=options, ana=ana_sheet or ana(weapons=[LASER, *ana()["weapons"]]), bob=bob_sheet or bob(armor=ARMOUR)
    )
    state, _ = declare(state, "bob", {"kind": "other"})
    state, _ = declare(state, "ana", attack_entry("bob"))
    return step(state, {"type": "attack", "actor": "ana", "target": "bob", "dice": dice, **fields})


@pytest.mark.parametrize(
    ("roll", "location"),
    [
        (1, "head"),
        (2, "torso"),
        (5, "torso"),
        (6, "right_arm"),
        (7, "left_arm"),
        (8, "right_leg"),
        (9, "left_leg"),
        (10, "torso"),
    ],
)
def test_hit_location_d10(roll, location):
    _, entry = shoot([10, roll, 1])
    assert params(entry, "hit_location") == {"target": "bob", "location": location, "roll": roll, "aimed": False}


@pytest.mark.parametrize(
    ("weapon", "location_roll", "armour", "wounds"),
    [
        ("laser", 2, 1, 10 - (3 + 1) + 4),  # energy against the torso's 1
        ("pistolet", 2, 2, 8 - (3 + 2) + 4),  # ballistic against 2
        ("pistolet", 1, 5, 8 - (3 + 5) + 4),  # ballistic against the head's 5
        ("lame", 3, 3, 6 - (3 + 3) + 4),  # impact against 3
        ("lame", 1, 0, 6 - (3 + 0) + 4),  # the head has no impact protection
    ],
)
def test_the_wound_formula_by_damage_type_and_location(weapon, location_roll, armour, wounds):
    _, entry = shoot([10, location_roll, 4], weapon=weapon)
    wound = params(entry, "wound_rolled")
    assert (wound["armour"], wound["endurance"], wound["dice"], wound["wounds"]) == (armour, 3, [4], wounds)


def test_wounds_never_go_below_zero():
    _, entry = shoot([10, 1, 1], weapon="lame", bob_sheet=bob(endurance=12))
    assert params(entry, "wound_rolled")["wounds"] == 0
    assert "wounded" not in codes(entry)


def test_chained_sixes_reroll_the_to_hit_at_the_same_chance():
    # To hit 30 <= 60; torso; d6 6 -> re-roll 60 <= 60 succeeds -> d6 6 -> re-roll 55 succeeds -> d6 3
    # -> stop. 10 - (3 + 1) + 6 + 6 + 3 = 21 > 20 Blessures: a critical wound.
    state, entry = shoot([30, 2, 6, 60, 6, 55, 3])
    assert [p["roll"] for p in (params(entry, "wound_reroll", 0), params(entry, "wound_reroll", 1))] == [60, 55]
    assert params(entry, "wound_reroll", 0)["chance"] == 60
    wound = params(entry, "wound_rolled")
    assert (wound["dice"], wound["wounds"]) == ([6, 6, 3], 21)
    assert params(entry, "critical_wound") == {"target": "bob", "amount": 21, "excess": 1, "endurance": 3}
    assert params(entry, "out_of_action") == {"target": "bob"}
    assert combatant(state, "bob")["blessures"] == 0
    assert [c["code"] for c in combatant(state, "bob")["conditions"]] == ["out_of_action"]


def test_the_chain_stops_when_the_rerolled_to_hit_fails():
    _, entry = shoot([30, 2, 6, 61])
    wound = params(entry, "wound_rolled")
    assert (wound["dice"], wound["wounds"]) == ([6], 10 - 4 + 6)
    assert params(entry, "wound_reroll")["success"] is False
    assert params(entry, "wounded") == {"target": "bob", "amount": 12, "left": 8}


def test_aimed_damage_doubles_only_the_first_die():
    state, _ = duel(ana=ana(actions=2, weapons=[LASER]), bob=bob(armor=ARMOUR, blessures=60))
    state, _ = declare(state, "bob", {"kind": "other"})
    state, _ = declare(state, "ana", {"kind": "aim"}, attack_entry("bob"))
    state, entry = step(
        state, {"type": "attack", "actor": "ana", "target": "bob", "aim": ["damage"], "dice": [30, 2, 6, 10, 5]}
    )
    # 10 - 4 + 6 x 2 + 5 = 23.
    assert params(entry, "wound_rolled")["wounds"] == 23


def test_death_when_the_excess_exceeds_endurance():
    # 10 - 4 + 6 + 6 = 18, 14 more than Bob's 4 Blessures: 14 > Endurance 3.
    state, entry = shoot([30, 2, 6, 40, 6, 99], bob_sheet=bob(armor=ARMOUR, blessures=4))
    assert params(entry, "critical_wound")["excess"] == 14
    assert params(entry, "died") == {"target": "bob"}
    assert [c["code"] for c in combatant(state, "bob")["conditions"]] == ["out_of_action", "dead"]


def test_excess_equal_to_endurance_is_not_death():
    # 10 - 4 + 1 = 7 against 4 Blessures: excess 3 = Endurance 3.
    state, entry = shoot([30, 2, 1], bob_sheet=bob(armor=ARMOUR, blessures=4))
    assert params(entry, "critical_wound")["excess"] == 3
    assert "died" not in codes(entry)


def test_losing_exactly_what_remains_is_not_critical():
    state, entry = shoot([30, 2, 1], bob_sheet=bob(armor=ARMOUR, blessures=7))
    assert params(entry, "wounded") == {"target": "bob", "amount": 7, "left": 0}
    assert combatant(state, "bob")["conditions"] == []


def test_critical_wound_option_out_of_action_only():
    options = {"stress_test": False, "critical_wound": "out_of_action"}
    state, entry = shoot([30, 2, 6, 40, 6, 99], options=options, bob_sheet=bob(armor=ARMOUR, blessures=4))
    assert "died" not in codes(entry)
    assert [c["code"] for c in combatant(state, "bob")["conditions"]] == ["out_of_action"]
    # The GM applies what the table decides.
    state, entry = step(
        state, {"type": "adjust", "actor": "gm", "combatant": "bob", "add": ["dead"], "reason": "head wound"}
    )
    assert params(entry, "adjusted") == {
        "combatant": "bob",
        "added": ["dead"],
        "removed": [],
        "blessures": 0,
        "author": "gm",
        "reason": "head wound",
    }
