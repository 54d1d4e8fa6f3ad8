"""Seed 8, "Les coups Critiques": d100 under the skill, doubles, 01 and 96-00."""

import pytest

from service.rules.space_opera_d100.checks import classify

from ..rules_helpers import combatant, params
from .fixtures import attack, exchange, fight


@pytest.mark.parametrize(
    ("roll", "skill", "level"),
    [
        (1, 50, "critical"),  # 01 under the skill
        (11, 50, "critical"),  # a double under the skill
        (44, 44, "critical"),  # a double equal to the skill still succeeds
        (12, 50, "success"),
        (50, 50, "success"),
        (51, 50, "failure"),
        (55, 50, "fumble"),  # a double above the skill
        (95, 50, "failure"),
        (96, 50, "fumble"),
        (99, 50, "fumble"),
        (100, 50, "fumble"),  # 00 = 100
        (96, 97, "success"),  # 96-00 is a fumble only when it fails
        (97, 96, "fumble"),
        (100, 100, "success"),  # no roll fails automatically, and 00 is no double: the seed's run 11 ... 99
        (100, 120, "success"),
        (99, 120, "critical"),  # 99 is the last double
        (1, 0, "failure"),  # 01 still needs the skill
    ],
)
def test_classification_at_the_edges(roll, skill, level):
    assert classify(roll, skill).level == level


@pytest.mark.parametrize(
    ("roll", "skill", "level"), [(96, 120, "fumble"), (100, 120, "fumble"), (95, 120, "success"), (88, 120, "critical")]
)
def test_high_rolls_always_fumble_option(roll, skill, level):
    assert classify(roll, skill, high_rolls_always_fumble=True).level == level


def test_the_attack_roll_is_classified_in_play():
    # Vibro-knife 60: 66 is a double above the skill -> fumble; the melee fumble table follows.
    state = fight(options={"melee_fumble_table": "none"})
    _, entry = exchange(state, dice=[66])
    assert params(entry, "attack_rolled")["level"] == "fumble"
    assert params(entry, "attack_missed") == {"attacker": "kira", "target": "garde", "fumble": True}


def test_00_under_a_skill_of_120_hits_but_is_no_critical_hit():
    # Vibro-knife skill 60 + sneak x 2 = 120: 00 (100) <= 120 hits; not critical, so armour 4 counts:
    # 1d4 4 + vibro 1d4 3 = 7 - 4 = 3 PV -> 14 - 3 = 11.
    state, entry = attack(fight(), dice=[100, 4, 3], sneak=True)  # a sneak attack awaits no reaction
    assert params(entry, "attack_rolled") | {"modifiers": None} == {
        "attacker": "kira",
        "target": "garde",
        "weapon": "vibro",
        "skill": 120,
        "modifiers": None,
        "roll": 100,
        "needed": 120,
        "level": "success",
    }
    assert params(entry, "attack_hit")["critical"] is False
    assert combatant(state, "garde")["pv"] == 11
