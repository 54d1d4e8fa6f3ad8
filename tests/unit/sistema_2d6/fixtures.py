"""Sheets used by the Sistema +2d6 rules tests."""

RULESET = "sistema-2d6"


def ana(**overrides):
    sheet = {
        "id": "ana",
        "name": "Ana",
        "side": "heroes",
        "attributes": {"FOR": 2, "DES": 3, "CON": 2, "INT": 2},
        "skills": {"Armas de Fogo": 2, "Esquiva": 1, "Medicina": 2, "Briga": 1},
        "defense_skill": "Esquiva",
        "weapons": [
            {"id": "pistola", "catalog": "tiro", "precision": 1},
            {
                "id": "smg",
                "name": "Submetralhadora",
                "damage": "1d6+2",
                "damage_type": "balistico",
                "skill": "Armas de Fogo",
                "automatic": True,
            },
        ],
    }
    sheet.update(overrides)
    return sheet


def bruno(**overrides):
    sheet = {
        "id": "bruno",
        "name": "Bruno",
        "side": "villains",
        "attributes": {"FOR": 3, "DES": 2, "CON": 2},
        "skills": {"Briga": 2, "Esquiva": 0},
        "defense_skill": "Esquiva",
        "weapons": [{"id": "faca", "name": "Faca", "damage": "FOR+1", "damage_type": "corte", "skill": "Briga"}],
    }
    sheet.update(overrides)
    return sheet


# Initiative dice: Ana DES 3 + 1 + (6+5) = 15, Bruno DES 2 + 0 + (1+2) = 5.
ANA_FIRST = [6, 5, 1, 2]
