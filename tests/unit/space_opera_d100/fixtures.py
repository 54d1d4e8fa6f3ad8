"""Sheets and shortcuts for the space opera d100 rules tests.

Initiative at creation consumes one D12 per combatant, in listing order.
KIRA_FIRST: Kira D12 9 + DEX 14 = 23, Garde D12 2 + DEX 11 = 13.
"""

import copy

from ..rules_helpers import start, step

RULESET = "space-opera-d100"
KIRA_FIRST = [9, 2]


def kira(**overrides):
    sheet = {
        "id": "kira",
        "name": "Kira",
        "side": "rebels",
        "attributes": {"DEX": 14, "CON": 12},
        "skills": {
            "Armes blanches": 60,
            "Armes contondantes": 55,
            "Blasters": 50,
            "Corps à corps": 50,
            "Esquive": 45,
            "Bloquer": 40,
            "Arts martiaux": 30,
        },
        "pv": 13,
        "max_attacks": 3,
        "weapons": [
            {"id": "vibro", "catalog": "vibro_couteau"},
            {"id": "matraque", "catalog": "matraque"},
            {"id": "para", "catalog": "matraque_paralysante"},
            {"id": "blaster", "catalog": "blaster_poing"},
            {"id": "epee", "catalog": "epee"},
            {"id": "perforant", "catalog": "fusil_perforant"},
            {"id": "bouclier", "catalog": "bouclier"},
        ],
    }
    sheet.update(overrides)
    return sheet


def garde(**overrides):
    sheet = {
        "id": "garde",
        "name": "Garde",
        "side": "empire",
        "attributes": {"DEX": 11, "CON": 13},
        "skills": {"Armes blanches": 50, "Esquive": 30, "Bloquer": 50},
        "pv": 14,
        "armour": 4,
        "weapons": [
            {"id": "epee", "catalog": "epee"},
            {"id": "bouclier", "catalog": "bouclier"},
            {"id": "couteau", "catalog": "couteau"},
            {"id": "grande", "catalog": "epee_2_mains"},
            {"id": "vibro", "catalog": "vibro_couteau"},
        ],
    }
    sheet.update(overrides)
    return sheet


def droid(**overrides):
    sheet = garde(id="r2", name="R2", kind="droid", armour=5)
    sheet.update(overrides)
    return sheet


def fight(*, kira_sheet=None, garde_sheet=None, options=None, dice=KIRA_FIRST, others=()):
    state, _ = start(RULESET, [kira_sheet or kira(), garde_sheet or garde(), *others], dice=dice, options=options)
    return state


def attack(state, dice=(), **fields):
    body = {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", **fields}
    if dice:
        body["dice"] = list(dice)
    return step(state, body)


def react(state, kind="none", dice=(), actor="garde", **fields):
    return step(state, {"type": "react", "actor": actor, "kind": kind, "dice": list(dice), **fields})


def exchange(state, attack_fields=None, reaction=None, dice=()):
    """Kira attacks Garde; Garde declares ``reaction``; the dice resolve it."""
    state, _ = attack(state, **(attack_fields or {}))
    return react(state, dice=dice, **(reaction or {"kind": "none"}))


def unchanged(state):
    return copy.deepcopy(state)
