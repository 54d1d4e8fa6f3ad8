"""Seed 000 core: 2D6 under 7 + skill, four levels, Dd; example F (rules-notes 1.1, 1.8)."""

import pytest

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import RULESET, ana, attack, bob, fight


@pytest.mark.parametrize(
    ("dice", "skill", "level", "dd"),
    [
        ([2, 1], 1, "reussite_simple", 0),  # 3 <= 8
        ([3, 3], 0, "reussite_critique", 3),  # 6 <= 7, double
        ([4, 6], 2, "echec_simple", 0),  # 10 > 9
        ([5, 5], 2, "maladresse", 5),  # 10 > 9, double (Dd also decides jams)
        ([6, 6], 5, "reussite_critique", 6),  # 12 <= 12
        ([6, 6], 4, "maladresse", 6),
    ],
)
def test_four_levels_and_the_doubled_die(dice, skill, level, dd):
    state = fight(ana(skills={"Bagarre": skill}), bob())
    damage = [2] if sum(dice) <= 7 + skill else []  # a hit rolls the Poing 1D3
    _, entry = step(state, attack(dice=dice + damage))
    rolled = params(entry, "attack_rolled")
    assert rolled["target"] == 7 + skill
    assert (rolled["level"], rolled["dd"]) == (level, dd)


def test_base_level_is_7_and_a_missing_skill_is_the_base():
    state = fight(ana(skills={}), bob())
    _, entry = step(state, attack(dice=[4, 3, 1]))
    assert params(entry, "attack_rolled")["target"] == 7
    assert params(entry, "attack_rolled")["modifiers"] == {"base": 7}


def test_untrained_martial_arts_maneuver_rolls_2_plus_bagarre():
    state = fight(ana(skills={"Bagarre": 2}), bob())
    _, entry = step(state, attack(maneuver="attaque_ma", dice=[1, 2, 1]))
    assert params(entry, "attack_rolled")["target"] == 4
    assert params(entry, "attack_rolled")["modifiers"] == {"base": 2, "skill": 2}


def test_trained_martial_arts_maneuver_rolls_7_plus_the_art():
    state = fight(ana(skills={"Bagarre": 0, "Karaté": 2}, martial_art="Karaté"), bob())
    _, entry = step(state, attack(maneuver="attaque_ma", dice=[4, 5, 1]))
    assert params(entry, "attack_rolled")["target"] == 9
    # Attaque MA: +1 damage. Poing 1D3 = 1, +1 => 1 (égratignure on PV 6).
    assert params(entry, "damage_rolled")["total"] == 2


def test_specialisation_adds_one():
    state = fight(ana(specializations=["coup_simple"]), bob())
    _, entry = step(state, attack(dice=[5, 4, 1]))
    assert params(entry, "attack_rolled")["target"] == 9
    assert params(entry, "attack_rolled")["modifiers"]["specialization"] == 1


def test_worked_example_f_through_the_engine():
    """Section F: the thug (Bagarre 1, PV 4) and Philip (base), two rounds."""
    thug = {
        "id": "truand",
        "name": "Le truand",
        "side": "truands",
        "pv": 4,
        "attributes": {"FOR": 0, "DEX": 1, "CON": 0, "SEN": 0},
        "skills": {"Bagarre": 1},
        "specializations": ["bloquer"],
    }
    philip = {
        "id": "philip",
        "name": "Philip",
        "side": "heros",
        "pv": 5,
        "attributes": {"FOR": 0, "DEX": 1, "CON": 0, "SEN": 0},
    }
    state, entry = start(RULESET, [thug, philip], dice=[1, 2, 5, 6], lang="fr")
    assert state["duels"][0]["attacker"] == "truand"
    state, _ = step(
        state, {"type": "attack", "actor": "truand", "target": "philip", "maneuver": "coup_simple", "weapon": "poing"}
    )
    assert state["awaiting"] == [{"actor": "philip", "actions": ["defend"], "reason": "defense"}]
    state, entry = step(state, {"type": "defend", "actor": "philip", "defense": "esquiver", "dice": [2, 1, 3, 3]})
    assert (
        params(entry, "attack_rolled")["target"] == 8 and params(entry, "attack_rolled")["level"] == "reussite_simple"
    )
    assert (
        params(entry, "defense_rolled")["target"] == 7
        and params(entry, "defense_rolled")["level"] == "reussite_critique"
    )
    assert "damage_rolled" not in codes(entry) and len(entry["rolls"]) == 4
    assert params(entry, "initiative_passes") == {
        "attacker": "philip",
        "defender": "truand",
        "reason": "better_defense",
    }
    assert state["round"] == 2
    state, entry = step(
        state,
        {
            "type": "attack",
            "actor": "philip",
            "target": "truand",
            "weapon": "pied",
            "defense": {"defense": "bloquer"},
            "dice": [2, 2, 4, 6, 2],
        },
    )
    assert (
        params(entry, "attack_rolled")["target"] == 6 and params(entry, "attack_rolled")["level"] == "reussite_critique"
    )
    assert params(entry, "attack_rolled")["dd"] == 2
    assert params(entry, "defense_rolled")["target"] == 9 and params(entry, "defense_rolled")["level"] == "echec_simple"
    assert params(entry, "damage_rolled")["total"] == 5
    wounded = params(entry, "wounded")
    assert (wounded["effective"], wounded["level"], wounded["malus"], wounded["loss"], wounded["pv"]) == (
        5,
        "grave",
        -3,
        1,
        3,
    )
    thug_after = combatant(state, "truand")
    assert (thug_after["pv"], thug_after["malus"], thug_after["wound"]) == (3, -3, "grave")
    assert state["duels"][0]["attacker"] == "philip"
    assert "initiative_passes" not in codes(entry)
