"""Source (combats-5, combats-6): d100 <= skill + the modifier tables; gaps G1-G3."""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction

from ..rules_helpers import codes, combatant, params, step
from .fixtures import NO_STRESS, ana, attack_entry, bob, declare, duel, refused

GUN = {
    "id": "smg",
    "kind": "ranged",
    "skill": "Armes de poing",
    "damage": 6,
    "burst": True,
    "interface": True,
    "laser_sight": True,
    "goggles": True,
}


def ana_attacks(options=None, ana_sheet=None, bob_sheet=None, weapon=None):
    """Bob (40) does something else; Ana (60) is waiting to attack him."""
    state, _ = duel(options=options, ana=ana_sheet or ana(), bob=bob_sheet or bob())
    state, _ = declare(state, "bob", {"kind": "other"})
    state, _ = declare(state, "ana", attack_entry("bob", weapon=weapon))
    return state


def attack(state, dice, **fields):
    return step(state, {"type": "attack", "actor": "ana", "target": "bob", "dice": dice, **fields})


@pytest.mark.parametrize(
    ("fields", "modifiers"),
    [
        ({"situation": ["target_immobile"]}, {"target_immobile": 10}),
        ({"situation": ["target_prone"]}, {"target_prone": 10}),
        ({"situation": ["target_fast"]}, {"target_fast": -10}),
        ({"situation": ["longer_weapon"]}, {"longer_weapon": 5}),
        ({"situation": ["dominant_position"]}, {"dominant_position": 5}),
        ({"situation": ["unarmed_vs_blade"]}, {"unarmed_vs_blade": -10}),
        ({"restricted_space": -15}, {"restricted_space": -15}),
        ({"visibility": "dim"}, {"visibility": -30}),
        ({"visibility": "dense_fog", "modifier": 7}, {"visibility": -30, "gm": 7}),
    ],
)
def test_melee_modifiers(fields, modifiers):
    state = ana_attacks(weapon="lame")
    _, entry = attack(state, [99], weapon="lame", **fields)
    assert params(entry, "attack")["modifiers"] == modifiers
    assert params(entry, "attack")["chance"] == 50 + sum(modifiers.values())


@pytest.mark.parametrize(
    ("vision", "visibility", "modifier"),
    [
        ("normal", "total_darkness", -50),
        ("night", "total_darkness", -50),
        ("thermal", "total_darkness", -20),
        ("night", "dim", 0),
        ("thermal", "dim", -10),
        ("thermal", "partial", -5),
        ("night", "blinding", -10),
        ("normal", "haze", -10),
        ("night", "light_fog", -10),
        ("night", "dense_fog", -20),
        ("thermal", "light_fog", 0),
    ],
)
def test_visibility_by_vision(vision, visibility, modifier):
    state = ana_attacks(ana_sheet=ana(vision=vision))
    _, entry = attack(state, [99], visibility=visibility)
    assert params(entry, "attack")["modifiers"].get("visibility", 0) == modifier


@pytest.mark.parametrize(
    ("fields", "modifiers"),
    [
        ({"range": "point_blank"}, {"range": 30}),
        ({"range": "short"}, {"range": 10}),
        ({"range": "long"}, {"range": -20}),
        ({"target_pace": "immobile"}, {"target_pace": 10}),
        ({"target_pace": "careful"}, {"target_pace": 5}),
        ({"target_pace": "fast"}, {"target_pace": -5}),
        ({"target_pace": "fast_vehicle"}, {"target_pace": -10}),
        ({"shooter_pace": "immobile"}, {"shooter_pace": 5}),
        ({"shooter_pace": "medium"}, {"shooter_pace": -10}),
        ({"shooter_pace": "fast"}, {"shooter_pace": -20}),
        ({"in_vehicle": True, "shooter_pace": "medium"}, {"shooter_pace": -5}),
        (
            {"in_vehicle": True, "shooter_pace": "fast", "situation": ["driving_not_interfaced"]},
            {"shooter_pace": -10, "driving_not_interfaced": -10},
        ),
        ({"in_vehicle": True, "relative_speed": "slower_101_plus"}, {"relative_speed": -20}),
        ({"in_vehicle": True, "relative_speed": "slower_51_100"}, {"relative_speed": -10}),
        ({"in_vehicle": True, "relative_speed": "faster_51_100"}, {"relative_speed": 10}),
        ({"in_vehicle": True, "relative_speed": "faster_101_200"}, {}),
        ({"in_vehicle": True, "relative_speed": "faster_201_plus"}, {"relative_speed": -10}),
        ({"cover": 30}, {"cover": -30}),
        ({"secondary_targets": 2}, {"secondary_targets": -20}),
        ({"situation": ["shooter_in_melee"]}, {"shooter_in_melee": -10}),
        ({"situation": ["blind_fire"]}, {"blind_fire": -50}),
    ],
)
def test_ranged_modifiers(fields, modifiers):
    state = ana_attacks()
    _, entry = attack(state, [99], **fields)
    assert params(entry, "attack")["modifiers"] == modifiers
    assert params(entry, "attack")["chance"] == 60 + sum(modifiers.values())


def test_weapon_aids_burst_and_recoil():
    state = ana_attacks(ana_sheet=ana(weapons=[GUN]))
    # Two bursts: -10 burst, -5 recoil; interface +10, laser +5, goggles +5: 60 + 5 = 65.
    state, entry = attack(state, [66, 65, 2, 3], burst=True, extra_shots=1)
    assert params(entry, "attack")["modifiers"] == {
        "burst": -10,
        "recoil": -5,
        "interface": 10,
        "laser_sight": 5,
        "goggles": 5,
    }
    assert params(entry, "attack")["shots"] == 2
    assert params(entry, "attack_missed") == {"attacker": "ana", "target": "bob", "fumble": False}
    # The second burst hits: torso; 6 + 2 (burst) - 3 + 3 = 8.
    wound = params(entry, "wound_rolled")
    assert (wound["burst"], wound["wounds"]) == (2, 8)
    assert combatant(state, "bob")["blessures"] == 12


def test_criticals_and_fumbles():
    state = ana_attacks()
    _, entry = attack(state, [5, 1, 1], situation=["blind_fire"], cover=50)  # chance -40, but 05 hits
    assert params(entry, "attack_roll")["chance"] == -40
    assert params(entry, "attack_hit") == {"attacker": "ana", "target": "bob", "critical": True}
    _, entry = attack(state, [96], range="point_blank")  # chance 90, but 96 fumbles
    assert params(entry, "attack_missed")["fumble"] is True
    off = ana_attacks(options={"stress_test": False, "criticals": False, "fumbles": False})
    _, entry = attack(off, [5], situation=["blind_fire"], cover=50)
    assert "attack_hit" not in codes(entry)
    _, entry = attack(off, [96, 1, 1], range="point_blank", target_pace="immobile")
    assert params(entry, "attack_hit")["critical"] is False


def test_a_critical_hit_cannot_be_dodged_with_the_option():
    for option, paused in (("none", True), ("no_reaction", False)):
        state, _ = duel(options={"stress_test": False, "critical_hit": option})
        state, _ = declare(state, "bob", {"kind": "defend"})
        state, _ = declare(state, "ana", attack_entry("bob"))
        dice = [3] if paused else [3, 1, 1]
        _, entry = attack(state, dice)
        assert ("awaiting_reaction" in codes(entry)) is paused


def test_aiming_buys_accuracy_location_and_a_doubled_die():
    state, _ = duel(ana=ana(actions=3, weapons=[GUN]))
    state, _ = declare(state, "bob", {"kind": "other"})
    state, entry = declare(state, "ana", {"kind": "aim"}, {"kind": "aim"}, attack_entry("bob"))
    assert combatant(state, "ana")["aim"] == 2
    refused(state, {"type": "attack", "actor": "ana", "target": "bob", "aim": ["accuracy"] * 3}, ActionNotAllowed)
    refused(state, {"type": "attack", "actor": "ana", "target": "bob", "aim": ["location"]}, InvalidAction)
    # +10 accuracy; location head (no d10); d6 4 doubled: 6 - 3 + 8 = 11.
    state, entry = attack(state, [75, 4], aim=["damage", "location"], location="head")
    assert params(entry, "attack")["modifiers"].get("aim") is None
    assert params(entry, "hit_location") == {"target": "bob", "location": "head", "roll": None, "aimed": True}
    assert params(entry, "wound_rolled")["wounds"] == 11
    assert combatant(state, "ana")["aim"] == 0


def test_aim_accuracy_adds_ten_per_action():
    state, _ = duel(ana=ana(actions=2))
    state, _ = declare(state, "bob", {"kind": "other"})
    state, _ = declare(state, "ana", {"kind": "aim"}, attack_entry("bob"))
    _, entry = attack(state, [99], aim=["accuracy"])
    assert params(entry, "attack")["modifiers"] == {"aim": 10}
    assert params(entry, "attack")["chance"] == 70


def test_at_most_three_aims():
    state, _ = duel(ana=ana(actions=4))
    state, _ = declare(state, "bob", {"kind": "other"})
    error = refused(state, {"type": "declare", "actor": "ana", "actions": [{"kind": "aim"}] * 4}, ActionNotAllowed)
    assert error.field == "actions.3.kind"


@pytest.mark.parametrize(
    ("weapon", "fields", "field"),
    [
        ("pistolet", {"situation": ["target_prone"]}, "situation"),
        ("pistolet", {"maneuver": "disarm"}, "maneuver"),
        ("pistolet", {"restricted_space": -5}, "restricted_space"),
        ("pistolet", {"burst": True}, "burst"),
        ("pistolet", {"relative_speed": "faster_51_100"}, "relative_speed"),
        ("lame", {"situation": ["blind_fire"]}, "situation"),
        ("lame", {"aim": ["accuracy"]}, "aim"),
        ("lame", {"extra_shots": 1}, "extra_shots"),
        ("lame", {"situation": ["after_projection"]}, "situation"),
        ("fusil", {}, "weapon"),
    ],
)
def test_fields_that_do_not_fit_the_weapon_are_invalid(weapon, fields, field):
    state = ana_attacks()
    error = refused(
        state, {"type": "attack", "actor": "ana", "target": "bob", "weapon": weapon, **fields}, InvalidAction
    )
    assert error.field == field


def test_maneuvers_need_skill_level_1():
    state = ana_attacks()
    error = refused(
        state,
        {"type": "attack", "actor": "ana", "target": "bob", "weapon": "unarmed", "maneuver": "projection"},
        ActionNotAllowed,
    )
    assert error.field == "maneuver"


def _wrestler():
    return ana(skill_levels={"Bagarre": 1, "Armes tranchantes": 1})


def test_disarm_minus_10_and_the_victim_fights_bare_handed():
    state = ana_attacks(ana_sheet=_wrestler())
    state, entry = attack(state, [40], weapon="lame", maneuver="disarm")
    assert params(entry, "attack")["modifiers"] == {"maneuver": -10}
    assert params(entry, "disarmed") == {"target": "bob", "attacker": "ana"}
    assert "wound_rolled" not in codes(entry)
    assert combatant(state, "bob")["blessures"] == 20
    state, _ = declare(state, "bob", attack_entry("ana"))
    state, _ = declare(state, "ana", {"kind": "other"})
    error = refused(state, {"type": "attack", "actor": "bob", "target": "ana", "weapon": "pistolet"}, ActionNotAllowed)
    assert error.field == "weapon"
    _, entry = step(state, {"type": "attack", "actor": "bob", "target": "ana", "dice": [99]})
    assert (params(entry, "attack")["weapon"], params(entry, "attack")["chance"]) == ("unarmed", 45)


def test_projection_halves_the_wounds_after_the_soak():
    state = ana_attacks(ana_sheet=_wrestler())
    # Bare hands (Bagarre 45): torso; 0 - 3 + 6 = 3, then the 6 re-rolls: 50 fails -> 3 // 2 = 1.
    state, entry = attack(state, [45, 2, 6, 50], weapon="unarmed", maneuver="projection")
    wound = params(entry, "wound_rolled")
    assert (wound["dice"], wound["halved"], wound["wounds"]) == ([6], True, 1)


def test_immobilisation_then_the_victim_can_only_break_free():
    state = ana_attacks(ana_sheet=_wrestler())
    state, entry = attack(state, [30], weapon="unarmed", maneuver="immobilisation", situation=["after_projection"])
    assert params(entry, "attack")["modifiers"] == {"after_projection": 10}
    assert combatant(state, "bob")["conditions"] == [
        {
            "code": "immobilised",
            "source": "ana",
            "start": {"round": 1},
            "ends": {"event": "broken_free"},
            "modifiers": {},
            "by": "ana",
        }
    ]
    # Bob's declared action (40) is still to come: he may only try to break free, or give it up.
    assert state["awaiting"] == [{"actor": "bob", "actions": ["break_free", "forgo"], "reason": "resolution"}]
    error = refused(state, {"type": "hold", "actor": "bob"}, ActionNotAllowed)
    assert error.field == "type"
    state, _ = step(state, {"type": "forgo", "actor": "bob"})
    # Round 2: Bob may only declare break_free.
    assert state["round"] == 2
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [attack_entry("ana")]}, ActionNotAllowed)
    assert error.field == "actions.0.kind"
    state, _ = declare(state, "bob", {"kind": "break_free"})
    state, _ = declare(state, "ana", {"kind": "other"})
    # Both succeed: Bob 20 under 45 (margin 25) against Ana 40 under 45 (margin 5): Bob is free.
    state, entry = step(state, {"type": "break_free", "actor": "bob", "dice": [20, 40]})
    assert params(entry, "break_free") == {
        "actor": "bob",
        "target": "ana",
        "roll": 20,
        "chance": 45,
        "holder_roll": 40,
        "holder_chance": 45,
        "success": True,
    }
    assert combatant(state, "bob")["conditions"] == []


def test_the_hold_stands_on_equal_margins():
    state = ana_attacks(ana_sheet=_wrestler())
    state, _ = attack(state, [30], weapon="unarmed", maneuver="immobilisation")
    state, entry = step(state, {"type": "break_free", "actor": "bob", "dice": [30, 30]})
    assert params(entry, "break_free")["success"] is False


def test_a_victim_grabbed_before_his_rank_breaks_free_at_it():
    # Source: "the victim may only try to break free"; seed: actions resolve at their rank.
    # Ana (60) immobilises Bob, who had declared something else at 40: at 40 he tries to break free.
    state = ana_attacks(ana_sheet=_wrestler())
    state, _ = attack(state, [30], weapon="unarmed", maneuver="immobilisation")
    assert state["round"] == 1
    # Bob 20 under Bagarre 45 (margin 25), Ana 40 under 45 (margin 5): Bob is free, still in round 1.
    state, entry = step(state, {"type": "break_free", "actor": "bob", "dice": [20, 40]})
    assert params(entry, "break_free")["success"] is True
    assert combatant(state, "bob")["conditions"] == []
    assert state["round"] == 2


def test_a_surprised_victim_of_a_hold_may_still_break_free():
    # Bob is surprised (90) and, with two actions, owes a defensive one; the GM puts him in a hold.
    from ..rules_helpers import start

    state, _ = start(
        "age-du-silicium",
        [ana(ambusher=True), bob(actions=2)],
        dice=[90],
        options={"stress_test": False, "surprise_difficulty": 20},
    )
    state, _ = step(state, {"type": "adjust", "actor": "gm", "combatant": "bob", "add": ["immobilised"]})
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [{"kind": "defend"}]}, ActionNotAllowed)
    assert error.field == "actions.0.kind"
    state, entry = declare(state, "bob", {"kind": "break_free"})
    assert params(entry, "declared") == {"actor": "bob", "kinds": ["break_free"], "ranks": [30]}


def _gunner():
    return ana(
        weapons=[
            {"id": "fusil", "kind": "ranged", "skill": "Armes de poing", "damage": 8, "burst": True, "full_auto": True}
        ]
    )


def test_full_automatic_fire_is_bursts_with_the_recoil_of_extra_shots():
    # House reading of the lost TA text (docs, gap G12), option full_auto: "bursts".
    # Three bursts: Armes de poing 60, burst -10, recoil -5 x 2 = 40, each burst rolls to hit.
    state = ana_attacks(options={**NO_STRESS, "full_auto": "bursts"}, ana_sheet=_gunner())
    # Burst 1: 30 hits; d10 2 torso; 8 + 2 (burst) - (Endurance 3 + 0) + d6 1 = 8.
    # Burst 2: 50 misses. Burst 3: 99 misses.
    state, entry = attack(state, [30, 2, 1, 50, 99], weapon="fusil", full_auto=3)
    assert params(entry, "attack")["modifiers"] == {"burst": -10, "recoil": -10}
    assert params(entry, "attack")["chance"] == 40 and params(entry, "attack")["shots"] == 3
    assert params(entry, "wounded") == {"target": "bob", "amount": 8, "left": 12}
    assert codes(entry).count("attack_missed") == 2


@pytest.mark.parametrize(
    ("options", "sheet", "fields", "error_type"),
    [
        ({}, _gunner(), {"full_auto": 2}, ActionNotAllowed),  # the option is off by default
        ({"full_auto": "bursts"}, ana(), {"full_auto": 2, "weapon": "pistolet"}, InvalidAction),  # no TA on this weapon
        ({"full_auto": "bursts"}, _gunner(), {"full_auto": 2, "burst": True}, InvalidAction),
        ({"full_auto": "bursts"}, _gunner(), {"full_auto": 2, "extra_shots": 1}, InvalidAction),
    ],
)
def test_full_automatic_fire_refusals(options, sheet, fields, error_type):
    state = ana_attacks(options={**NO_STRESS, **options}, ana_sheet=sheet)
    error = refused(state, {"type": "attack", "actor": "ana", "target": "bob", "weapon": "fusil", **fields}, error_type)
    assert error.field == "full_auto"
