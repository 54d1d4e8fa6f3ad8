"""Sheets used by the Dark Earth rules tests.

Kael: melee POT = MEL 4 + Épée 3 = 7; POT de Tir = TIR 3 + Arc 2 = 5 (arc)
or TIR 3 + Arbalète 2 = 5 (arbalète). Goule: melee POT = MEL 3 + Griffes 3 = 6.
"""

import copy

from service.rules.engine import apply_action

RULESET = "dark-earth"


def kael(**overrides):
    sheet = {
        "id": "kael",
        "name": "Kael",
        "side": "stallites",
        "attributes": {"MEL": 4, "TIR": 3, "AGI": 3, "FOR": 2, "RES": 3},
        "skills": {"Épée": 3, "Esquive": 2, "Arc": 2, "Arbalète": 2},
        "pv": 12,
        "weapons": [
            {"id": "epee", "name": "Épée", "kind": "melee", "skill": "Épée", "damage": 3},
            {"id": "arc", "name": "Arc", "kind": "ranged", "skill": "Arc", "damage": 1},
            {
                "id": "arbalete",
                "name": "Arbalète",
                "kind": "ranged",
                "skill": "Arbalète",
                "damage": 2,
                "mechanical": True,
            },
        ],
    }
    sheet.update(overrides)
    return sheet


def goule(**overrides):
    sheet = {
        "id": "goule",
        "name": "Goule",
        "side": "ombres",
        "attributes": {"MEL": 3, "TIR": 1, "AGI": 4, "FOR": 3, "RES": 3},
        "skills": {"Griffes": 3, "Esquive": 1},
        "pv": 10,
        "weapons": [{"id": "griffes", "name": "Griffes", "kind": "melee", "skill": "Griffes", "damage": 1}],
    }
    sheet.update(overrides)
    return sheet


def allocate(actor, target=None, split=None, dice=(), **extra):
    action = {"type": "allocate", "actor": actor, "dice": list(dice), **extra}
    if target is not None:
        action["target"] = target
    if split is not None:
        action["split"] = dict(zip(("init", "att", "def"), split, strict=True))
    return action


def refused(state, action, error):
    """Assert the engine refuses ``action`` with ``error`` and leaves ``state`` as it was."""
    import pytest

    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        apply_action(state, action)
    assert state == before
    return caught.value
