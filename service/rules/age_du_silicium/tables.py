"""L'Âge du Silicium tables, as data (seed 003 and its source, rules-notes 4).

API values are English snake_case keys; every entry of the catalog carries
the source's French label so a client can show the table as printed.
"""

from typing import Any

# -- d100 tests (rules-notes 4.3, house reading) ------------------------------------
CRITICAL_MAX = 5  # 01-05 always succeeds (option ``criticals``)
FUMBLE_MIN = 96  # 96-00 always fails (option ``fumbles``); a d100 showing 100 is "00"

# -- seed, "Stress": Calme test in the first round, at least 10 % -------------------
STRESS_FLOOR = 10
EXPERIENCE: dict[str, Any] = {
    "baptism_of_fire": {"fr": "Baptême du feu", "modifier": -20},
    "experienced": {"fr": "Expérimenté", "modifier": 0},
    "hardened": {"fr": "Endurci", "modifier": 20},
    "veteran": {"fr": "Vétéran", "modifier": 40},
}
STRESS_SITUATION: dict[str, Any] = {
    "surprised": {"fr": "Surpris", "modifier": -10},
    "successful_ambush": {"fr": "Embuscade réussie", "modifier": 30},
    "outnumbering": {"fr": "Plus nombreux (2 vs. 1 ou +)", "modifier": 10},
    "outnumbered": {"fr": "Moins nombreux (1 vs. 2 ou -)", "modifier": -10},
}
OUTNUMBER_RATIO = 2  # "2 vs. 1 ou +": twice as many or more
FRENZY_BEHAVIOURS: dict[str, Any] = {
    "berserker": {"fr": "Berserker : attaque sans se défendre, cherche l'ennemi suivant"},
    "flight": {"fr": "Fuite : évite tout combat sauf pour sauver sa vie"},
}

# -- seed, "Initiative": extra actions at I-10, I-20... ------------------------------
ACTION_STEP = 10
MAX_ACTIONS = 5

# -- declared kinds of action ------------------------------------------------------
# Interactive kinds wait for the actor at their rank; the others resolve alone.
INTERACTIVE_KINDS = ("attack", "reason", "break_free")
DEFENSIVE_KINDS = ("defend", "flee")
DECLARED_KINDS = ("attack", "aim", "hold", "defend", "flee", "reason", "break_free", "other")

# -- source, combats-5 (melee) and combats-6 (ranged) --------------------------------
VISION = ("normal", "night", "thermal")
VISIBILITY: dict[str, Any] = {
    "total_darkness": {"fr": "Obscurité totale ou aveuglé", "normal": -50, "night": -50, "thermal": -20},
    "dim": {"fr": "Pénombre", "normal": -30, "night": 0, "thermal": -10},
    "partial": {"fr": "Lumière partielle", "normal": -10, "night": 0, "thermal": -5},
    "normal": {"fr": "Lumière normale", "normal": 0, "night": 0, "thermal": 0},
    "blinding": {"fr": "Lumière aveuglante", "normal": -10, "night": -10, "thermal": -10},
    "haze": {"fr": "Brume", "normal": -10, "night": 0, "thermal": 0},
    "light_fog": {"fr": "Brouillard, fumée ou pluie légers", "normal": -20, "night": -10, "thermal": 0},
    "dense_fog": {"fr": "Brouillard, fumée ou pluie denses", "normal": -30, "night": -20, "thermal": -10},
}

# Yes/no circumstances the attacker names in ``situation``; ``mode`` says
# which kind of attack each belongs to.
SITUATION: dict[str, Any] = {
    "target_immobile": {"fr": "Cible immobile", "modifier": 10, "mode": "melee"},
    "target_prone": {"fr": "Cible à terre", "modifier": 10, "mode": "melee"},
    "target_fast": {"fr": "Cible rapide", "modifier": -10, "mode": "melee"},
    "longer_weapon": {"fr": "Arme plus longue", "modifier": 5, "mode": "melee"},
    "dominant_position": {"fr": "Position dominante", "modifier": 5, "mode": "melee"},
    "unarmed_vs_blade": {"fr": "Mains nues contre une lame", "modifier": -10, "mode": "melee"},
    "after_projection": {"fr": "Immobilisation après une Projection réussie", "modifier": 10, "mode": "melee"},
    "shooter_in_melee": {"fr": "Tireur au contact", "modifier": -10, "mode": "ranged"},
    "blind_fire": {"fr": "Tir en aveugle", "modifier": -50, "mode": "ranged"},
    "driving_not_interfaced": {"fr": "Tireur non interfacé qui conduit", "modifier": -10, "mode": "ranged"},
}
RESTRICTED_SPACE = (-30, -5)  # "Espace restreint -5 à -30", the GM's value

MANEUVERS: dict[str, Any] = {
    "immobilisation": {
        "fr": "Immobilisation",
        "modifier": 0,
        "effect": "no wound; the victim may only break free (opposed Bagarre)",
    },
    "projection": {"fr": "Projection", "modifier": 0, "effect": "wounds halved after the soak"},
    "disarm": {"fr": "Désarmement", "modifier": -10, "effect": "no wound; the victim drops its weapon"},
}
MANEUVER_SKILL_LEVEL = 1
BREAK_FREE_SKILL = "Bagarre"

TARGET_PACE: dict[str, Any] = {
    "normal": {"fr": "Allure normale", "modifier": 0},
    "immobile": {"fr": "Cible immobile", "modifier": 10},
    "careful": {"fr": "Allure prudente", "modifier": 5},
    "fast": {"fr": "Allure rapide", "modifier": -5},
    "fast_vehicle": {"fr": "Véhicule rapide", "modifier": -10},
}
COVER = (10, 50)  # "Cible protégée -10 à -50", the GM's value
SECONDARY_TARGET = -10
RANGE_BANDS: dict[str, Any] = {
    "point_blank": {"fr": "Bout portant", "modifier": 30},
    "short": {"fr": "Courte", "modifier": 10},
    "medium": {"fr": "Moyenne", "modifier": 0},
    "long": {"fr": "Longue", "modifier": -20},
}
WEAPON_AIDS: dict[str, Any] = {
    "interface": {"fr": "Interface arme", "modifier": 10},
    "laser_sight": {"fr": "Visée laser", "modifier": 5},
    "goggles": {"fr": "Lunettes couplées", "modifier": 5},
}
RECOIL_PER_EXTRA_SHOT = -5
MAX_EXTRA_SHOTS = 5
SHOOTER_PACE: dict[str, Any] = {
    "immobile": {"fr": "Immobile", "on_foot": 5, "vehicle": 5},
    "careful": {"fr": "Allure prudente", "on_foot": 0, "vehicle": 0},
    "medium": {"fr": "Allure moyenne", "on_foot": -10, "vehicle": -5},
    "fast": {"fr": "Allure rapide", "on_foot": -20, "vehicle": -10},
}
RELATIVE_SPEED: dict[str, Any] = {
    "slower_101_plus": {"fr": "Plus lent de 101 % ou plus", "modifier": -20},
    "slower_51_100": {"fr": "Plus lent de 51 à 100 %", "modifier": -10},
    "within_50": {"fr": "Vitesse comparable (±50 %)", "modifier": 0},
    "faster_51_100": {"fr": "Plus rapide de 51 à 100 %", "modifier": 10},
    "faster_101_200": {"fr": "Plus rapide de 101 à 200 %", "modifier": 0},
    "faster_201_plus": {"fr": "Plus rapide de plus de 201 %", "modifier": -10},
}
AIM_CHOICES: dict[str, Any] = {
    "accuracy": {"fr": "+10 pour toucher", "modifier": 10},
    "location": {"fr": "Choisir la localisation"},
    "damage": {"fr": "Doubler le dé de dommages"},
}
MAX_AIM = 3
BURST = {"fr": "Tir en rafale (TR)", "to_hit": -10, "damage": 2, "rounds": 3}
# House reading (the source's TA text is cut off; docs, gap G12): full automatic
# fire is several bursts in one action, each a TR with the recoil of an extra shot.
FULL_AUTO: dict[str, Any] = {
    "fr": "Tir automatique (TA)",
    "bursts": {"min": 2, "max": 5},
    "reading": "each burst: to hit as a TR (-10) with the recoil of the extra shots (-5 per burst after the "
    "first), +2 damage on a hit; 3 rounds per burst",
}

# -- source, combats-9 (wounds) -------------------------------------------------------
DAMAGE_TYPES: dict[str, Any] = {
    "energy": {"fr": "Énergie", "covers": "armes à rayon, grenades au phosphore"},
    "ballistic": {"fr": "Balistique", "covers": "armes à feu, projectiles, grenades offensives et défensives"},
    "impact": {"fr": "Impact", "covers": "armes de contact et de jet"},
}
DEFAULT_DAMAGE_TYPE: dict[str, Any] = {"melee": "impact", "thrown": "impact", "ranged": "ballistic"}
WEAPON_KINDS = {"melee": "melee", "thrown": "ranged", "ranged": "ranged"}  # kind -> modifier table
WOUND_DIE = 6
LOCATIONS = {
    "head": "Tête",
    "torso": "Torse",
    "right_arm": "Bras droit",
    "left_arm": "Bras gauche",
    "right_leg": "Jambe droite",
    "left_leg": "Jambe gauche",
}
# House (rules-notes 4.3): the source's location table was not recovered.
HIT_LOCATION_D10 = {
    1: "head",
    2: "torso",
    3: "torso",
    4: "torso",
    5: "torso",
    6: "right_arm",
    7: "left_arm",
    8: "right_leg",
    9: "left_leg",
    10: "torso",
}

# House: bare hands, always at hand. The source's unarmed damage was not
# recovered; 0 leaves the wound to the d6 against Endurance.
UNARMED: dict[str, Any] = {
    "id": "unarmed",
    "name": "Mains nues",
    "kind": "melee",
    "skill": "Bagarre",
    "damage": 0,
    "damage_type": "impact",
    "burst": False,
    "full_auto": False,
    "interface": False,
    "laser_sight": False,
    "goggles": False,
    "unarmed": True,
}

CONDITIONS = ("surprised", "frenzy", "cornered", "prone", "immobilised", "disarmed", "out_of_action", "dead")
GM_CONDITIONS = ("cornered", "prone", "immobilised", "disarmed", "out_of_action", "dead", "frenzy", "surprised")

CATALOG: dict[str, Any] = {
    "weapons": {"unarmed": UNARMED},
    "d100": {"critical": f"01-{CRITICAL_MAX:02d}", "fumble": f"{FUMBLE_MIN}-00"},
    "experience": EXPERIENCE,
    "stress_situation": STRESS_SITUATION,
    "stress_floor": STRESS_FLOOR,
    "frenzy_behaviours": FRENZY_BEHAVIOURS,
    "action_step": ACTION_STEP,
    "declared_kinds": list(DECLARED_KINDS),
    "defensive_kinds": list(DEFENSIVE_KINDS),
    "visibility": VISIBILITY,
    "situation": SITUATION,
    "restricted_space": {"min": RESTRICTED_SPACE[0], "max": RESTRICTED_SPACE[1]},
    "maneuvers": MANEUVERS,
    "maneuver_skill_level": MANEUVER_SKILL_LEVEL,
    "target_pace": TARGET_PACE,
    "cover": {"min": -COVER[1], "max": -COVER[0]},
    "secondary_target": SECONDARY_TARGET,
    "range_bands": RANGE_BANDS,
    "weapon_aids": WEAPON_AIDS,
    "recoil_per_extra_shot": RECOIL_PER_EXTRA_SHOT,
    "shooter_pace": SHOOTER_PACE,
    "relative_speed": RELATIVE_SPEED,
    "aim_choices": AIM_CHOICES,
    "max_aim": MAX_AIM,
    "burst": BURST,
    "full_auto": FULL_AUTO,
    "damage_types": DAMAGE_TYPES,
    "locations": LOCATIONS,
    "hit_location_d10": {str(k): v for k, v in HIT_LOCATION_D10.items()},
    "wound_formula": "weapon damage - (Endurance + armour at the location for the damage type) + 1d6; "
    "on a 6, re-roll the to-hit at the same chance and, on a success, add another d6 (and so on)",
    "conditions": list(CONDITIONS),
}
