"""Sheets and shortcuts for the L'Âge du Silicium rules tests."""

import copy

from ..rules_helpers import start, step

RULESET = "age-du-silicium"
NO_STRESS = {"stress_test": False}


def sheet(combatant_id, side, initiative, **overrides):
    base = {
        "id": combatant_id,
        "name": combatant_id.capitalize(),
        "side": side,
        "initiative": initiative,
        "vigilance": 50,
        "calme": 50,
        "endurance": 3,
        "blessures": 20,
        "skills": {"Armes de poing": 60, "Armes tranchantes": 50, "Esquive": 40, "Bagarre": 45},
        "weapons": [
            {"id": "pistolet", "kind": "ranged", "skill": "Armes de poing", "damage": 8},
            {"id": "lame", "kind": "melee", "skill": "Armes tranchantes", "damage": 6},
        ],
    }
    base.update(overrides)
    return base


def ana(**overrides):
    return sheet("ana", "runners", 60, **overrides)


def bob(**overrides):
    return sheet("bob", "corpo", 40, **overrides)


def cy(**overrides):
    return sheet("cy", "corpo", 50, **overrides)


def duel(options=None, dice=(), **sheets):
    """Ana (60) against Bob (40), no Calme test unless options say so."""
    return start(RULESET, [sheets.get("ana", ana()), sheets.get("bob", bob())], dice=dice, options=options or NO_STRESS)


def declare(state, actor, *entries):
    return step(state, {"type": "declare", "actor": actor, "actions": list(entries)})


def attack_entry(target, **extra):
    return {"kind": "attack", "target": target, **extra}


def to_resolution(state, bob_entries=None, ana_entries=None):
    """Both declare (Bob first, lower Initiative): by default they attack each other."""
    state, _ = declare(state, "bob", *(bob_entries or [attack_entry("ana")]))
    state, entry = declare(state, "ana", *(ana_entries or [attack_entry("bob")]))
    return state, entry


def refused(state, action, error):
    """Assert the engine refuses ``action`` with ``error`` and leaves ``state`` untouched; return the error."""
    import pytest

    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        step(state, action)
    assert state == before
    return caught.value
