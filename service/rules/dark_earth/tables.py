"""Dark Earth / dK-Gone tables, as data (seed 001 and rules-notes section 2)."""

from typing import Any

# Dark Earth dice (rules-notes 2.2): each d6 gives 0, 1 or 2 successes.
SUCCESSES_BY_FACE = {1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}

# Seuil de Réussite: a difficulty is a number of successes (rules-notes 2.2).
DIFFICULTY_SCALE = {
    "facile": 1,
    "aise": 2,
    "normal": 3,
    "malaise": 4,
    "difficile": 5,
    "tres_difficile": 6,
    "chimerique": 7,
}

# Seed: "Le tireur lance son POTentiel de tir contre une difficulté de 3".
SHOT_BASE_DIFFICULTY = 3

# Seed: a mechanical ranged weapon used in contact: "+2 en INITiative, malus de 2 en DEFense".
CONTACT_SHOT_INIT_BONUS = 2
CONTACT_SHOT_DEF_MALUS = 2

# The source's shooting modifiers to the DIFF (rules-notes 2.4). The TAI row
# is the source's; the others are the notes' reconstruction of the flattened
# table ([HOUSE] where marked there).
RANGE_MODIFIERS = {"bout_portant": -2, "courte": -1, "moyenne": 0, "longue": 1}
COVER_MODIFIERS = {"none": 0, "quarter": 1, "half": 2, "three_quarters": 3}
TARGET_MOVEMENT_MODIFIERS = {"normal": 0, "immobile": -1, "running": 1}
SHOOTER_PACE_MODIFIERS = {"still": 0, "walking": 1, "running": 2}
SIZE_MODIFIER_LIMIT = 3  # TAI +3 -> -3 ... TAI -3 -> +3; beyond, the row's end


def size_modifier(tai: int) -> int:
    """The target's TAI row: bigger targets are easier (TAI +1 -> DIFF -1)."""
    return max(-SIZE_MODIFIER_LIMIT, min(-tai, SIZE_MODIFIER_LIMIT))


# Health (rules-notes 2.5, dk-gone:sante): pain maluses in dice; they do not
# add up with CHOC (the larger applies).
PAIN_DICE = {"grave": 2, "critique": 5}
WOUND_LEVELS = ("grave", "critique")  # from least to most severe

# Armour (rules-notes 2.5): the source's examples. "complete" subtracts PROT,
# "partial" rolls PROT as dice and subtracts the successes; the AGI malus
# lowers AGI-based rolls (the evasion roll) by that many dice.
ARMOURS: dict[str, Any] = {
    "cuir_complete": {"name": "Cuir (complète)", "prot": 2, "coverage": "complete", "agi_malus": 1},
    "vetements_lourds": {"name": "Vêtements lourds", "prot": 1, "coverage": "complete", "agi_malus": 0},
}

# The seed and its source give no weapon table; the catalog holds only the
# bare hands (DOM 0), every other weapon is described on the sheet.
WEAPONS: dict[str, Any] = {
    "mains_nues": {"name": "Mains nues", "kind": "melee", "skill": "Bagarre", "damage": 0, "mechanical": False},
}

CATALOG: dict[str, Any] = {
    "successes_by_face": {str(face): n for face, n in SUCCESSES_BY_FACE.items()},
    "difficulty_scale": DIFFICULTY_SCALE,
    "shot_base_difficulty": SHOT_BASE_DIFFICULTY,
    "shooting_modifiers": {
        "range": RANGE_MODIFIERS,
        "cover": COVER_MODIFIERS,
        "target_movement": TARGET_MOVEMENT_MODIFIERS,
        "shooter_pace": SHOOTER_PACE_MODIFIERS,
        "target_size": {f"{tai:+d}": size_modifier(tai) for tai in range(-3, 4) if tai},
    },
    "contact_shot": {"init_bonus": CONTACT_SHOT_INIT_BONUS, "def_malus": CONTACT_SHOT_DEF_MALUS},
    "pain_dice": PAIN_DICE,
    "armour": ARMOURS,
    "weapons": WEAPONS,
}
