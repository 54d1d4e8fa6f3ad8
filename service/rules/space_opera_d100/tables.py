"""Space opera d100 tables, as data (seed 002 and rules-notes section 3).

Every band is ``(low, high, result)`` on a d100 (00 = 100). The weapons and
armour of the catalog are examples for clients building menus: the seed
names kinds of weapons but gives no statistics (docs, gap G14).
"""

from collections.abc import Sequence
from typing import Any, TypeVar

# -- d100 tests (seed 8, "Les coups Critiques") -----------------------------------
CRITICAL_SINGLE = 1  # "ou un 01"
FUMBLE_FROM = 96  # "de 96 à 00"

# -- turn structure (seed 1 and 4) --------------------------------------------------
INITIATIVE_DIE = 12
MULTI_ATTACK_PENALTY_PER_ATTACK = -5  # times N, on every attack when N > 1
INITIATIVE_LOSS_PER_ATTACK = 3

# -- modifiers (seed 2, 5, 6, 8) ------------------------------------------------------
CALLED_SHOT_PENALTY = -20  # also the -20 of a stun aimed at the head
OFF_HAND_PENALTY = -20
SNEAK_SKILL_FACTOR = 2
EXTRA_DODGE_PENALTY = -20  # per dodge already made in the round
AFTER_DODGE_PENALTY = -20  # on the actions that follow a dodge
PARRY_CRITICAL_HIT_PENALTY = -20
CRITICAL_PARRY_EXTRA_POINTS = 2
REACTION_FUMBLE_ATTACKER_BONUS = 10
CONTRACTED_DEX_LOSS = 2
CONTRACTED_TEST_PENALTY = -10
OFF_BALANCE_PENALTY = -10

# Seed 5: a successful dodge gives the attacker -40, a critical one or a
# margin above 40 gives -60. The site's ranged page uses -30 / -50 (notes 3.1).
DODGE_EFFECTS: dict[str, Any] = {
    "seed": {"success": -40, "great": -60, "great_margin": 40},
    "ranged_page": {"success": -30, "great": -50, "great_margin": 40},
}

# -- damage (seed 1, 2, 3, 8) ---------------------------------------------------------
STUN_FACTOR = 5
STUN_DURATION = "3d10"  # minutes
STUN_PV_DIVISOR = 4
PARALYSIS_CON_FACTOR = "1d4"
PARALYSIS_DURATION = "5d6"  # minutes
CRITICAL_NO_ARMOUR_BONUS = "1d3"
HEAD_FACTOR = 2
DISARM_DEX_FACTOR = 2
MARTIAL_ARTS: dict[str, Any] = {
    "unarmed": {"success": ("times", 2), "failure": ("divide", 2)},
    "armed": {"success": ("plus", 2), "failure": ("plus", -2)},
}

# -- item damage (seed 7) ---------------------------------------------------------------
ITEM_STEP_DAMAGE = -1
ITEM_STEP_SKILL = -5
DESTROYED_AT_STEP = {"light": 1, "simple": 2, "heavy": 3, "shield": 5}
ITEM_CLASSES = ("natural", "light", "simple", "heavy", "shield")

# -- wounds (notes 3.2, "Perte de PV et table des morts violentes") -----------------------
CONSCIOUSNESS_LOW_PV = 3  # "moins de 3 PV"
CONSCIOUSNESS_CON_FACTOR = 5
CONSCIOUSNESS_DURATION: dict[str, Any] = {"dice": "1d10", "unit": "hours"}
DEATH_TABLE_COLUMNS = (0, -1, -2, -3)  # PV 0 / -1 / -2 / -3 and below
DEATH_TABLE = (
    (1, 10, ("very_light", "light", "serious", "very_serious")),
    (11, 33, ("light", "serious", "very_serious", "dead")),
    (34, 66, ("serious", "very_serious", "dead", "dead")),
    (67, 90, ("very_serious", "dead", "dead", "dead")),
    (91, 100, ("dead", "dead", "dead", "dead")),
)
# "Grave" and "très grave" are cut off in the source: notes 3.2 [HOUSE].
WOUND_EFFECTS: dict[str, Any] = {
    "very_light": {"san": -2, "skill": -1, "unconscious": None, "limb_lost": False},
    "light": {"san": -5, "skill": -2, "unconscious": {"dice": "3d4", "unit": "minutes"}, "limb_lost": False},
    "serious": {"san": -10, "skill": -5, "unconscious": {"dice": "1d6", "unit": "hours"}, "limb_lost": False},
    "very_serious": {"san": -15, "skill": 0, "unconscious": {"dice": "1d10", "unit": "hours"}, "limb_lost": True},
    "dead": {"san": 0, "skill": 0, "unconscious": None, "limb_lost": False},
}
SECONDS_PER = {"minutes": 60, "hours": 3600}

# -- fumbles (notes 3.3) --------------------------------------------------------------------
CHANCE_PIVOT = 40  # every fumble d100 is modified by -(Chance - 40) / 2
CHANCE_DIVISOR = 2
# [HOUSE] the melee entries of the source are lost; notes 3.3 propose these.
MELEE_FUMBLES_HOUSE = (
    (1, 20, "off_balance"),
    (21, 40, "loses_next_action"),
    (41, 60, "drops_weapon"),
    (61, 75, "weapon_damaged"),
    (76, 90, "hits_ally"),
    (91, 100, "hits_self"),
)
# [SRC] bands of the source's "Panne" table; [HOUSE] their effects (docs, gap G9).
JAM_TABLE = (
    (1, 5, "no_jam"),
    (6, 20, "jam_1"),
    (21, 66, "jam_2"),
    (67, 90, "jam_fight"),
    (91, 95, "weapon_damaged_jam"),
    (96, 100, "weapon_explodes"),
)
JAM_ACTIONS_TO_CLEAR: dict[str, Any] = {"jam_1": 1, "jam_2": 2, "weapon_damaged_jam": 1, "jam_fight": None}
FUMBLE_TABLES = {"melee_house": MELEE_FUMBLES_HOUSE, "jam": JAM_TABLE}

UNARMED = "unarmed"
SKILL_DODGE = "Esquive"
SKILL_BLOCK = "Bloquer"
SKILL_MARTIAL_ARTS = "Arts martiaux"
LOCATIONS = ("head", "chest", "abdomen", "left_arm", "right_arm", "left_leg", "right_leg")

WEAPONS: dict[str, dict[str, Any]] = {
    UNARMED: {"name": "Mains nues", "skill": "Corps à corps", "damage": "1d3", "class": "natural"},
    "couteau": {"name": "Couteau", "skill": "Armes blanches", "damage": "1d4", "class": "light", "edged": True},
    "vibro_couteau": {
        "name": "Vibro-couteau",
        "skill": "Armes blanches",
        "damage": "1d4",
        "class": "light",
        "edged": True,
        "vibro": "1d4",
    },
    "epee": {"name": "Épée", "skill": "Armes blanches", "damage": "1d8", "class": "simple", "edged": True},
    "hache": {"name": "Hache", "skill": "Armes blanches", "damage": "1d8+1", "class": "simple", "edged": True},
    "vibro_hache": {
        "name": "Vibro-hache",
        "skill": "Armes blanches",
        "damage": "1d8+1",
        "class": "simple",
        "edged": True,
        "vibro": "1d6",
    },
    "epee_2_mains": {
        "name": "Épée à deux mains",
        "skill": "Armes blanches",
        "damage": "2d6",
        "class": "heavy",
        "edged": True,
    },
    "matraque": {
        "name": "Matraque",
        "skill": "Armes contondantes",
        "damage": "1d6",
        "class": "simple",
        "stun_bonus": 10,
    },
    "matraque_paralysante": {
        "name": "Matraque paralysante",
        "skill": "Armes contondantes",
        "damage": "1d6",
        "class": "simple",
        "paralysing": True,
    },
    "baton_force": {
        "name": "Bâton de force",
        "skill": "Armes contondantes",
        "damage": "1d8",
        "class": "heavy",
        "stun_bonus": 5,
    },
    "bouclier": {"name": "Bouclier", "skill": "Bloquer", "damage": "1d4", "class": "shield"},
    "blaster_poing": {
        "name": "Blaster de poing",
        "skill": "Blasters",
        "damage": "3d6",
        "class": "light",
        "ranged": True,
    },
    "fusil_blaster": {"name": "Fusil blaster", "skill": "Blasters", "damage": "3d8", "class": "simple", "ranged": True},
    "fusil_perforant": {
        "name": "Fusil perforant",
        "skill": "Blasters",
        "damage": "3d6",
        "class": "simple",
        "ranged": True,
        "armour_piercing": 3,
    },
}

ARMOUR: dict[str, Any] = {
    "none": {"name": "Aucune", "points": 0},
    "combinaison": {"name": "Combinaison renforcée", "points": 2},
    "armure_legere": {"name": "Armure légère", "points": 4},
    "armure_lourde": {"name": "Armure lourde", "points": 6},
    "blindage_droide": {"name": "Blindage de droïde", "points": 5},
}

WEAPON_TRAITS = {
    "edged": "Tranchante: cannot be used to stun (seed 2); martial arts with weapons (seed 8).",
    "vibro": (
        "Vibro: extra damage dice while vibro mode works; never counted "
        "in a parry; lost at the first damage step (seed 6, 7)."
    ),
    "paralysing": "Paralysante: may attack to paralyse (seed 3).",
    "armour_piercing": "Ignores that many armour points, parry points first (seed 6).",
    "stun_bonus": "Added to the stun percentage (seed 2).",
    "class": "natural / light / simple / heavy / shield: destroyed at the 1st / 2nd / 3rd / 5th damage step (seed 7).",
    "ranged": "A shooting weapon: its fumbles use the jam table (notes 3.3).",
    "bonus": "Weapon bonus to attack and parry skill (seed 6).",
}


T = TypeVar("T")


def band(table: Sequence[tuple[int, int, T]], value: int) -> T:
    for low, high, result in table:
        if low <= value <= high:
            return result
    raise ValueError(f"{value} is outside the table")


def _bands(table: Sequence[tuple[int, int, Any]]) -> list[dict[str, Any]]:
    return [{"from": low, "to": high, "result": result} for low, high, result in table]


CATALOG = {
    "weapons": WEAPONS,
    "armour": ARMOUR,
    "weapon_traits": WEAPON_TRAITS,
    "weapon_classes": list(ITEM_CLASSES),
    "destroyed_at_step": DESTROYED_AT_STEP,
    "item_step": {"damage": ITEM_STEP_DAMAGE, "skill": ITEM_STEP_SKILL},
    "locations": list(LOCATIONS),
    "skills": {"dodge": SKILL_DODGE, "block": SKILL_BLOCK, "martial_arts": SKILL_MARTIAL_ARTS},
    "modifiers": {
        "called_shot": CALLED_SHOT_PENALTY,
        "off_hand": OFF_HAND_PENALTY,
        "sneak_skill_factor": SNEAK_SKILL_FACTOR,
        "multi_attack_per_attack": MULTI_ATTACK_PENALTY_PER_ATTACK,
        "initiative_loss_per_attack": INITIATIVE_LOSS_PER_ATTACK,
        "extra_dodge": EXTRA_DODGE_PENALTY,
        "after_dodge": AFTER_DODGE_PENALTY,
        "parry_critical_hit": PARRY_CRITICAL_HIT_PENALTY,
        "critical_parry_extra_points": CRITICAL_PARRY_EXTRA_POINTS,
        "reaction_fumble_attacker_bonus": REACTION_FUMBLE_ATTACKER_BONUS,
        "contracted_dex": -CONTRACTED_DEX_LOSS,
        "contracted_tests": CONTRACTED_TEST_PENALTY,
        "off_balance": OFF_BALANCE_PENALTY,
    },
    "dodge_effects": DODGE_EFFECTS,
    "martial_arts": {kind: {k: list(v) for k, v in effects.items()} for kind, effects in MARTIAL_ARTS.items()},
    "stun": {"factor": STUN_FACTOR, "duration_minutes": STUN_DURATION, "pv_divisor": STUN_PV_DIVISOR},
    "paralysis": {"con_factor": PARALYSIS_CON_FACTOR, "duration_minutes": PARALYSIS_DURATION},
    "critical_hit_without_armour": CRITICAL_NO_ARMOUR_BONUS,
    "consciousness": {
        "low_pv": CONSCIOUSNESS_LOW_PV,
        "con_factor": CONSCIOUSNESS_CON_FACTOR,
        "duration": CONSCIOUSNESS_DURATION,
    },
    "death_table": {"columns": list(DEATH_TABLE_COLUMNS), "rows": _bands(DEATH_TABLE)},
    "wound_effects": WOUND_EFFECTS,
    "fumble_tables": {name: _bands(table) for name, table in FUMBLE_TABLES.items()},
    "jam_actions_to_clear": JAM_ACTIONS_TO_CLEAR,
    "fumble_chance": {"pivot": CHANCE_PIVOT, "divisor": CHANCE_DIVISOR},
}
