"""Seed B, D-3..D-5, E-2 and E-4: distance bands, shots, shot defenses, jams, ammunition."""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction, NotYourTurn

from ..rules_helpers import codes, combatant, params, step
from .fixtures import ana, attack, bob, duel, fight, legal, refused, sheet, shoot

GUNS = [
    {"id": "pistolet", "catalog": "pistolet_9mm"},
    {"id": "revolver", "catalog": "revolver_357"},
    {"id": "pompe", "catalog": "fusil_a_pompe"},
    {"id": "fusil", "catalog": "fusil_assaut"},
    {"id": "arbalete", "catalog": "arbalete"},
    {"id": "shuriken", "catalog": "shuriken"},
]
SHOOTER = {"weapons": GUNS, "skills": {"Bagarre": 1, "Armes à feu": 2, "Arcs": 0, "Armes de jet": 0}}


def gunfight(**options):
    return fight(ana(**SHOOTER), bob(weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]), options=options)


@pytest.mark.parametrize(
    ("weapon", "distance", "malus"),
    [
        ("pistolet", 2, 0),
        ("pistolet", 10, 0),
        ("pistolet", 11, -1),
        ("pistolet", 100, -5),
        ("pistolet", 300, -10),
        ("arbalete", 50, 0),
        ("arbalete", 100, -3),
        ("arbalete", 300, -5),
        ("arbalete", 600, -10),
        ("fusil", 100, -1),
        ("fusil", 300, -3),
        ("fusil", 600, -5),
        ("shuriken", 30, -1),
    ],
)
def test_distance_malus_by_band_and_handling(weapon, distance, malus):
    _, entry = step(gunfight(), shoot(weapon, distance, dice=[6, 5]))
    assert params(entry, "shot_rolled")["modifiers"].get("distance", 0) == malus
    assert "attack_missed" in codes(entry)


def test_contact_is_an_automatic_hit_without_attack_dice():
    _, entry = step(gunfight(), shoot("pistolet", 1, dice=[3]))
    assert "automatic_hit" in codes(entry) and "shot_rolled" not in codes(entry)
    assert params(entry, "damage_rolled")["total"] == 5  # 1D6+2, no FOR bonus for a firearm


def test_one_handed_weapon_beyond_500_m_and_thrown_weapon_beyond_moyen_are_refused():
    state = gunfight()
    assert refused(state, shoot("pistolet", 501), ActionNotAllowed) == "distance"
    assert refused(state, shoot("shuriken", 51), ActionNotAllowed) == "distance"


def test_tir_stabilise_uses_the_next_shorter_band_and_loses_the_initiative_unless_critical():
    state, entry = step(gunfight(), shoot("pistolet", 100, shot="tir_stabilise", dice=[1, 2, 1]))
    assert params(entry, "shot_rolled")["modifiers"]["distance"] == -1 and params(entry, "shot_rolled")["target"] == 8
    assert params(entry, "initiative_passes")["reason"] == "steady_or_aimed_shot"
    state, entry = step(gunfight(), shoot("pistolet", 100, shot="tir_stabilise", dice=[1, 1, 1]))
    assert duel(state)["attacker"] == "ana"


def test_tir_vise_is_plus_one_and_loses_the_initiative_unless_critical():
    state, entry = step(gunfight(), shoot("pistolet", 20, shot="tir_vise", dice=[4, 5, 1]))
    assert params(entry, "shot_rolled")["target"] == 9 and duel(state)["attacker"] == "bob"


def test_double_tir_rolls_twice_at_minus_two_and_spends_two_rounds():
    state, entry = step(gunfight(), shoot("pistolet", 5, shot="double_tir", dice=[1, 2, 3, 6, 5]))
    assert params(entry, "shot_rolled", 0)["target"] == 7 and params(entry, "shot_rolled", 1)["target"] == 7
    assert params(entry, "wounded")["effective"] == 5
    assert combatant(state, "ana")["ammo"]["pistolet"] == 13


def test_suppression_fire_pins_the_zone_and_acting_in_it_needs_a_roll_of_the_same_level():
    three = [ana(**SHOOTER), bob(), sheet("cid", "villains")]
    state = fight(*three)
    state, entry = step(
        state, shoot("fusil", 20, shot="tir_de_suppression", zone_width=10, zone=["cid"], defense=None, dice=[1, 2])
    )
    assert params(entry, "suppression_fire")["target"] == 7  # 7 + 2 - 2 (10 m)
    assert [c["code"] for c in combatant(state, "cid")["conditions"]] == ["suppressed"]
    # Cid joins the fight in the zone: dodge 7 + 1 - 1 burst; 4+4 fails, so the burst hits (2D6 = 6).
    state, entry = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": [4, 4, 3, 3, 1, 2, 6, 5]})
    assert params(entry, "zone_test")["target"] == 7 and params(entry, "zone_test")["safe"] is False
    assert params(entry, "wounded") == {**params(entry, "wounded"), "target": "cid", "effective": 6}
    assert "interruption_rolled" in codes(entry)


def test_critical_suppression_fire_hits_the_whole_zone_by_ricochet():
    state = fight(ana(**SHOOTER), bob(), sheet("cid", "villains"))
    state, entry = step(
        state,
        shoot(
            "fusil", 20, shot="tir_de_suppression", zone_width=5, zone=["cid"], defense=None, dice=[1, 1, 1, 1, 2, 2]
        ),
    )
    assert [p["target"] for p in (params(entry, "ricochet", 0), params(entry, "ricochet", 1))] == ["bob", "cid"]
    assert params(entry, "wounded", 1)["effective"] == 4


def test_suppression_needs_an_automatic_weapon():
    assert (
        refused(
            gunfight(), shoot("pistolet", 20, shot="tir_de_suppression", zone_width=5, defense=None), ActionNotAllowed
        )
        == "weapon"
    )


def test_tir_a_couvert_gives_the_same_malus_to_the_opponent():
    state, entry = step(gunfight(), shoot("pistolet", 5, shot="tir_a_couvert", cover=3, dice=[6, 5]))
    assert params(entry, "shot_rolled")["modifiers"]["shot"] == -3 and duel(state)["attacker"] == "bob"
    _, entry = step(state, shoot("pistolet", 5, actor="bob", target="ana", dice=[6, 5]))
    assert params(entry, "shot_rolled")["modifiers"]["target_in_cover"] == -3
    assert refused(gunfight(), shoot("pistolet", 5, cover=3), InvalidAction) == "cover"


def test_couvert_stops_the_shot_or_becomes_armour_with_a_blind_malus():
    state, entry = step(gunfight(), shoot("pistolet", 20, defense="couvert"))
    assert codes(entry)[-3:] == ["shot_blocked_by_cover", "round_started", "condition_expired"]
    assert entry["rolls"] == [] and params(entry, "condition_expired") == {"combatant": "bob", "condition": "in_cover"}
    _, entry = step(gunfight(), shoot("pistolet", 20, defense={"defense": "couvert", "cover_ip": 2}, dice=[1, 2, 4]))
    assert params(entry, "shot_rolled")["modifiers"]["blind"] == -4
    assert params(entry, "wounded")["ip"] == 2 and params(entry, "wounded")["effective"] == 4


PISTOL = [{"id": "pistolet", "catalog": "pistolet_9mm"}]


def _ana_between_bob_and_cid(cid_first: bool):
    """Bob (surprise) holds the initiative against Ana; Cid joins Ana. Interruption 2+DEX 2 = 4 each:
    1 + 2 = 3 succeeds, 6 + 5 = 11 fails; Cid rolls first."""
    state = fight(ana(), bob(weapons=PISTOL), sheet("cid", "villains"), first="bob")
    dice = [1, 2, 6, 5] if cid_first else [6, 5, 1, 2]
    state, _ = step(state, {"type": "join", "actor": "cid", "target": "ana", "dice": dice})
    # Bob shoots from 20 m; Ana takes cover (no cover_ip: the shot is stopped, no die).
    state, entry = step(state, shoot("pistolet", 20, actor="bob", target="ana", defense="couvert"))
    assert params(entry, "takes_cover") == {"combatant": "ana"} and "shot_blocked_by_cover" in codes(entry)
    return state


def test_after_couvert_no_action_nor_movement_for_the_rest_of_the_round():
    # "Couvert | Protection automatique mais aucune action ni déplacement"
    state = _ana_between_bob_and_cid(cid_first=False)  # Ana leads her exchange against Cid
    assert {"actor": "ana", "actions": ["face", "pass"], "reason": "initiative"} in state["awaiting"]
    assert {c["type"] for c in legal(state, "ana")} == {"face", "pass"}
    for action in (
        {"type": "attack", "actor": "ana", "target": "cid", "maneuver": "coup_simple", "weapon": "poing"},
        {"type": "threaten", "actor": "ana", "target": "cid", "weapon": "poing"},
        {"type": "join", "actor": "ana", "target": "bob"},
    ):
        assert refused(state, action, ActionNotAllowed) == "type"
    # Her pass ends round 1; cover ends as round 2 begins, and she attacks Cid: 7 + 1 - 2 (two opponents) = 6.
    state, entry = step(state, {"type": "pass", "actor": "ana"})
    assert params(entry, "condition_expired") == {"combatant": "ana", "condition": "in_cover"}
    _, entry = step(state, attack(target="cid", dice=[6, 6]))
    assert params(entry, "attack_rolled")["target"] == 6


def test_behind_cover_the_only_defenses_left_are_staying_there_or_none():
    state = _ana_between_bob_and_cid(cid_first=True)  # Cid holds the initiative against Ana
    state, _ = step(state, attack(actor="cid", target="ana", defense=None))
    assert [c["params"]["defense"]["choices"] for c in legal(state, "ana") if c["type"] == "defend"] == [["aucune"]]
    declared = {"type": "defend", "actor": "ana", "defense": "esquiver"}
    assert refused(state, declared, ActionNotAllowed) == "defense"
    # Cid's punch: 7 + Bagarre 1 = 8; 1 + 2 = 3 hits, fist 1d3 = 2 against Ana's 6 PV: a light wound (2 <= 6 // 2).
    _, entry = step(state, {"type": "defend", "actor": "ana", "defense": "aucune", "dice": [1, 2, 2]})
    assert params(entry, "wounded")["effective"] == 2


def test_mouvement_a_couvert_minus_one_avoids_at_the_same_level():
    _, entry = step(gunfight(), shoot("pistolet", 20, defense="mouvement_a_couvert", dice=[1, 2, 2, 3]))
    assert params(entry, "defense_rolled")["target"] == 7 and "blow_avoided" in codes(entry)


def test_plongeon_minus_three_and_not_on_consecutive_rounds():
    state, entry = step(gunfight(), shoot("pistolet", 20, defense="plongeon", dice=[1, 2, 1, 2]))
    assert params(entry, "defense_rolled")["target"] == 5 and combatant(state, "bob")["last_dive_round"] == 1
    assert refused(state, shoot("pistolet", 20, defense="plongeon"), ActionNotAllowed) == "defense.defense"
    state, _ = step(state, {"type": "pass", "actor": "ana"})
    state, entry = step(state, shoot("pistolet", 20, defense="plongeon", dice=[1, 2, 1, 2]))
    assert "blow_avoided" in codes(entry)


def test_zigzag_rolls_first_and_moves_the_shooter_one_band_further():
    _, entry = step(gunfight(), shoot("pistolet", 20, defense="zigzag", dice=[1, 2, 1, 2, 1]))
    assert codes(entry).index("defense_rolled") < codes(entry).index("shot_rolled")
    assert params(entry, "defense_rolled")["target"] == 6
    assert (
        params(entry, "shot_rolled")["band"] == "long" and params(entry, "shot_rolled")["modifiers"]["distance"] == -5
    )


def test_shooting_back_as_a_counter_attack():
    counter = {"defense": "contre_attaque", "counter": {"weapon": "pistolet"}}
    state, entry = step(gunfight(), shoot("pistolet", 20, defense=counter, dice=[1, 1, 2]))
    assert params(entry, "counter_rolled")["target"] == 7 + 0 - 1 - 3
    assert params(entry, "damage_rolled")["total"] == 2 + 2 + 1
    assert duel(state)["attacker"] == "bob"


@pytest.mark.parametrize(("distance", "expression"), [(5, "3d6"), (20, "2d6"), (100, "1d6")])
def test_shotgun_damage_by_distance(distance, expression):
    dice = [1, 2] + [1] * int(expression[0])
    _, entry = step(gunfight(), shoot("pompe", distance, dice=dice))
    assert params(entry, "damage_rolled")["expression"] == expression


def test_jam_on_a_maladresse_with_dd_above_the_skill_and_reload_clears_it():
    state, entry = step(gunfight(), shoot("pistolet", 5, dice=[6, 6]))
    assert params(entry, "weapon_jammed") == {"attacker": "ana", "weapon": "pistolet", "dd": 6}
    state, _ = step(state, {"type": "adjust", "actor": "gm", "target": "ana", "initiative_against": "bob"})
    assert refused(state, shoot("pistolet", 5), ActionNotAllowed) == "weapon"
    state, entry = step(state, {"type": "reload", "actor": "ana", "weapon": "pistolet"})
    assert combatant(state, "ana")["jammed"] == [] and combatant(state, "ana")["ammo"]["pistolet"] == 15


def test_a_jam_on_the_first_shot_of_a_double_tir_stops_the_second():
    # Double tir with the 9 mm at 5 m: 7 + Armes à feu 2 - 2 = 7; 5 + 5 = 10 is a Maladresse (a double that
    # fails) and Dd 5 > skill 2: "s'enraye". No second shot: the two dice are all the rules take.
    state, entry = step(gunfight(), shoot("pistolet", 5, shot="double_tir", dice=[5, 5]))
    assert params(entry, "weapon_jammed") == {"attacker": "ana", "weapon": "pistolet", "dd": 5}
    assert params(entry, "shot_not_fired") == {"attacker": "ana", "weapon": "pistolet"}
    assert codes(entry).count("shot_rolled") == 1 and "wounded" not in codes(entry)
    assert combatant(state, "ana")["jammed"] == ["pistolet"]


def test_no_jam_when_dd_is_not_above_the_skill_or_the_weapon_never_jams():
    _, entry = step(gunfight(), shoot("pistolet", 5, dice=[2, 2, 1]))
    assert "weapon_jammed" not in codes(entry)
    _, entry = step(gunfight(), shoot("pistolet", 5, dice=[1, 1, 1]) | {"dice": [6, 6]} | {"weapon": "revolver"})
    assert params(entry, "shot_rolled")["level"] == "maladresse" and "weapon_jammed" not in codes(entry)


def test_ammunition_runs_out():
    state = gunfight()
    state["combatants"][0]["ammo"]["revolver"] = 0
    assert refused(state, shoot("revolver", 5), ActionNotAllowed) == "weapon"
    _, entry = step(gunfight(), shoot("revolver", 5, dice=[4, 5, 1]))
    assert params(entry, "shot_rolled")["modifiers"]["weapon"] == 1  # .357: +1 to hit


def test_menacer_with_a_gun_only_a_critical_failure_misses():
    state, entry = step(
        gunfight(),
        {"type": "threaten", "actor": "ana", "target": "bob", "weapon": "pistolet", "distance": 5, "dice": [1, 2]},
    )
    assert duel(state)["threat"] == {"weapon": "pistolet", "ranged": True, "distance": 5}
    _, entry = step(state, shoot("pistolet", 5, defense=None, dice=[6, 4, 1]))
    assert params(entry, "shot_rolled")["level"] == "echec_simple" and "threat_shot" in codes(entry)
    assert params(entry, "wounded")["effective"] == 3
    _, entry = step(state, shoot("pistolet", 5, defense=None, dice=[5, 5]))
    assert "attack_missed" in codes(entry)


def test_no_melee_counter_against_a_shot_beyond_contact():
    # Bob shoots from 30 m: "Permet attaque normale en défense", and at 30 m a punch is no normal attack.
    state = fight(ana(**SHOOTER), bob(weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]), first="bob")
    punch = {"defense": "contre_attaque", "counter": {"maneuver": "coup_simple", "weapon": "poing"}}
    assert (
        refused(state, shoot("pistolet", 30, actor="bob", target="ana", defense=punch), ActionNotAllowed)
        == "defense.counter.weapon"
    )
    pending, _ = step(state, shoot("pistolet", 30, actor="bob", target="ana", defense=None))
    assert refused(pending, {"type": "defend", "actor": "ana", **punch}, ActionNotAllowed) == "counter.weapon"
    # Shooting back is offered and accepted; a blow is not even listed.
    counters = [
        c
        for entry in legal(pending, "ana")
        if entry["type"] == "defend"
        for c in entry["params"].get("counter", {}).get("choices", [])
    ]
    assert counters and all("maneuver" not in c for c in counters)
    _, entry = step(
        pending,
        {
            "type": "defend",
            "actor": "ana",
            "defense": "contre_attaque",
            "counter": {"weapon": "pistolet"},
            "dice": [1, 2, 1],
        },
    )
    assert params(entry, "counter_rolled")["target"] == 7 + 2 - 1 - 3  # Armes à feu 2, moyen -1 (one hand), counter -3


def test_at_contact_range_a_blow_still_counters_a_shot():
    state = fight(ana(**SHOOTER), bob(weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]), first="bob")
    pending, _ = step(state, shoot("pistolet", 1, actor="bob", target="ana", defense=None))
    counters = [
        c
        for entry in legal(pending, "ana")
        if entry["type"] == "defend"
        for c in entry["params"].get("counter", {}).get("choices", [])
    ]
    assert {"maneuver": "coup_simple", "weapon": "poing"} in counters
    _, entry = step(
        pending,
        {
            "type": "defend",
            "actor": "ana",
            "defense": "contre_attaque",
            "counter": {"maneuver": "coup_simple", "weapon": "poing"},
            "dice": [1, 2, 1],
        },
    )
    assert params(entry, "counter_rolled")["target"] == 7 + 1 - 3  # Bagarre 1, counter -3


def test_a_gun_threat_from_afar_is_countered_by_shooting_back_only():
    state = fight(ana(**SHOOTER), bob(weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]), first="bob")
    state, _ = step(
        state,
        {"type": "threaten", "actor": "bob", "target": "ana", "weapon": "pistolet", "distance": 8, "dice": [1, 2]},
    )
    counters = [entry["params"] for entry in legal(state, "ana") if entry["type"] == "counter"]
    assert counters and all("maneuver" not in c and c["distance"]["required"] for c in counters)
    assert (
        refused(
            state, {"type": "counter", "actor": "ana", "maneuver": "coup_simple", "weapon": "poing"}, ActionNotAllowed
        )
        == "weapon"
    )
    # Drawing and shooting back, at the threat's 8 m unless told otherwise: court band, no distance malus.
    _, entry = step(state, {"type": "counter", "actor": "ana", "weapon": "pistolet", "dice": [1, 2, 1]})
    assert params(entry, "counter_rolled")["target"] == 7 + 2 - 3  # Armes à feu 2, counter -3


def test_a_fighter_without_a_ranged_weapon_threatened_from_afar_is_not_awaited():
    state = fight(ana(), bob(weapons=[{"id": "pistolet", "catalog": "pistolet_9mm"}]), first="bob")
    state, _ = step(
        state,
        {"type": "threaten", "actor": "bob", "target": "ana", "weapon": "pistolet", "distance": 8, "dice": [1, 2]},
    )
    assert duel(state)["threat"] == {"weapon": "pistolet", "ranged": True, "distance": 8}
    assert [entry["actor"] for entry in state["awaiting"]] == ["bob"]  # Ana has nothing that reaches 8 m
    assert refused(state, {"type": "counter", "actor": "ana"}, NotYourTurn) == "actor"
