"""Duel 2D6 tables, as data (seed 000, sections B, C, D and E; rules-notes 1.7).

Ids are stable ASCII slugs; ``name`` keeps the seed's French wording.
"""

from typing import Any

# -- result levels (rules-notes 1.1) ----------------------------------------------
FUMBLE, FAILURE, SUCCESS, CRITICAL = 0, 1, 2, 3
LEVELS = ("maladresse", "echec_simple", "reussite_simple", "reussite_critique")
LEVEL_NAMES = {
    "maladresse": "Échec critique (Maladresse)",
    "echec_simple": "Échec simple",
    "reussite_simple": "Réussite simple",
    "reussite_critique": "Réussite critique",
}
SKILL_BASE = 7  # "7 + compétence"
ATTRIBUTE_BASE = 2  # "2+DEX", "2+FOR" (rules-notes 1.1, HOUSE)
UNTRAINED_MA_BASE = 2  # "A défaut, le jet est 2+Bagarre"
BRAWL = "Bagarre"
SPECIALIZATION_BONUS = 1
PRONE_MALUS = -3
ENCUMBRANCE_MALUS = -1
COUNTER_MALUS = -3
DOUBLE_MANEUVER_MALUS = -2
ATTRIBUTES = ("FOR", "DEX", "CON", "SEN")

# -- B: distance bands; None = impossible, "auto" = automatic hit ------------------
BANDS = ("contact", "court", "moyen", "long", "extreme", "au_dela")
BAND_LIMITS = {"contact": 2, "court": 10, "moyen": 50, "long": 200, "extreme": 500}  # upper bounds, m
BAND_NAMES = {
    "contact": "Contact (<2m)",
    "court": "Court (2-10m)",
    "moyen": "Moyen (10-50m)",
    "long": "Long (50-200m)",
    "extreme": "Extrème (200-500m)",
    "au_dela": "Au delà (>500m)",
}
HANDLINGS = ("une_main", "deux_mains", "epaule")
DISTANCE_MALUS: dict[str, Any] = {
    "une_main": {"contact": "auto", "court": 0, "moyen": -1, "long": -5, "extreme": -10, "au_dela": None},
    "deux_mains": {"contact": "auto", "court": 0, "moyen": 0, "long": -3, "extreme": -5, "au_dela": -10},
    "epaule": {"contact": "auto", "court": 0, "moyen": 0, "long": -1, "extreme": -3, "au_dela": -5},
}

# -- C-5: hit location (optional rule) ---------------------------------------------
LOCATIONS = {
    2: "tete",
    3: "poitrine",
    4: "bras_g",
    5: "jambe_g",
    6: "abdomen",
    7: "poitrine",
    8: "abdomen",
    9: "jambe_d",
    10: "bras_d",
    11: "poitrine",
    12: "tete",
}
LOCATION_NAMES = {
    "tete": "tête",
    "poitrine": "poitrine",
    "bras_g": "bras G",
    "jambe_g": "jambe G",
    "abdomen": "abdomen",
    "jambe_d": "jambe D",
    "bras_d": "bras D",
}
LIMBS = frozenset({"bras_g", "bras_d", "jambe_g", "jambe_d"})

# -- C-2: wound levels (body missing; rules-notes 1.5, HOUSE fixed by example F) ----
WOUNDS: dict[str, dict[str, Any]] = {
    "aucune": {"name": "aucune", "malus": 0},
    "egratignure": {"name": "égratignure", "malus": 0},
    "legere": {"name": "blessure légère", "malus": -1},
    "grave": {"name": "blessure grave", "malus": -3},
}
WOUND_ORDER = ("aucune", "egratignure", "legere", "grave")


def _w(name: str, damage: str, kind: str, hit: int = 0, **extra: Any) -> dict[str, Any]:
    return {"name": name, "damage": damage, "kind": kind, "hit": hit, **extra}


# -- D: weapons. kind: natural / melee (FOR bonus), firearm, bow, thrown ------------
NATURAL = {
    "poing": _w("Poing", "1d3", "natural"),
    "pied": _w("Pied", "1d3+1", "natural", -1),
    "griffes": _w("Griffes", "1d3+1", "natural"),
    "dents": _w("Dents", "1d6", "natural"),
    "cornes": _w("Cornes", "1d6+1", "natural"),
}
MELEE = {
    "baton": _w("Bâton / Matraque", "1d3+1", "melee"),
    "barre_a_mine": _w("Barre à mine / Pied de biche", "1d6", "melee"),
    "masse": _w("Masse / Batte de baseball", "2d3", "melee"),
    "fouet": _w("Fouet", "1d3", "melee"),
    "nunchaku": _w("Nunchaku", "1d6", "melee", -1, grapple=True),
    "chaine": _w("Chaîne", "1d3+1", "melee", -1, grapple=True),
    "cran_d_arret": _w("Cran d'arrêt", "1d3+1", "melee"),
    "dague": _w("Dague / Couteau de chasse", "1d6", "melee"),
    "epee_courte": _w("Epée courte / Glaive / Machette", "1d6+1", "melee"),
    "epee_large": _w("Epée large", "1d6+2", "melee"),
    "epee_2m": _w("Epée 2M", "2d6", "melee"),
    "hache_2m": _w("Hache 2M", "2d6-1", "melee"),
    "masse_en_fer": _w("Masse en fer", "1d6+1", "melee"),
    "fleau_en_fer": _w("Fléau en fer", "1d6+2", "melee", -1),
    "lance": _w("Lance", "1d6+2", "melee"),
    # D-6: "Attaque comme Dague avec -1 au jet de touche".
    "main_gauche": _w("Main Gauche", "1d6", "melee", -1, defense=2),
}
FIREARMS: dict[str, Any] = {
    "pistolet_9mm": _w("Pistolet automatique 9mm", "1d6+2", "firearm", handling="une_main", ammo=15, jams=True),
    "revolver_357": _w("Revolver 357M", "1d6+2", "firearm", 1, handling="une_main", ammo=6, jams=False),
    "revolver_38": _w("Revolver 38Special", "1d6+1", "firearm", handling="une_main"),
    "mini_revolver_22": _w("Mini revolver 22LR", "2d3", "firearm", handling="une_main"),
    "pistolet_44m": _w("Pistolet 44M", "2d6-1", "firearm", -1, handling="une_main"),
    "fusil_assaut": _w(
        "Fusil d'assaut type M16 ou AK47", "2d6", "firearm", handling="epaule", jams=True, automatic=True
    ),
    "fusil_sniper": _w("Fusil de sniper", "2d6+1", "firearm", handling="epaule"),
    # "3D6/2D6/1D6, dommages affectés par la distance" (rules-notes 1.6, HOUSE bands).
    "fusil_a_pompe": _w(
        "Fusil à pompe",
        "3d6",
        "firearm",
        handling="epaule",
        damage_by_band={
            "contact": "3d6",
            "court": "3d6",
            "moyen": "2d6",
            "long": "1d6",
            "extreme": "1d6",
            "au_dela": "1d6",
        },
    ),
    "pistolet_mitrailleur": _w(
        "Pistolet mitrailleur type Ingram M10", "1d6", "firearm", handling="deux_mains", jams=True, automatic=True
    ),
    "mitraillette_mp5": _w(
        "Mitraillette légère type H&K MP5", "1d6+1", "firearm", handling="epaule", jams=True, automatic=True
    ),
    "mitrailleuse_m60": _w(
        "Mitrailleuse lourde type M60", "1d6+2", "firearm", handling="epaule", jams=True, automatic=True
    ),
    "mitrailleuse_cal50": _w(
        "Mitrailleuse lourde type cal.50 sur pied", "2d6", "firearm", handling="epaule", jams=True, automatic=True
    ),
}
BOWS = {  # D-4: "considérés comme Armes à 2 Mains, sauf l'arbalète à 1 main"
    "arc": _w("Arc", "1d6", "bow", -1, handling="deux_mains"),
    "arc_a_poulies": _w("Arc à poulies", "1d6+1", "bow", handling="deux_mains"),
    "arbalete": _w("Arbalète", "1d6+2", "bow", handling="deux_mains"),
    "arbalete_a_poulies": _w("Arbalète à poulies", "2d6-1", "bow", handling="deux_mains"),
    "arbalete_1_main": _w("Arbalète à 1 main", "1d3+1", "bow", handling="une_main"),
    "fronde": _w("Fronde", "1d3", "bow", -1, handling="deux_mains"),
}
THROWN = {  # D-5: "Armes à 1 Main avec une distance maximum de Moyenne"
    "shuriken": _w("Shuriken", "1d3", "thrown", handling="une_main", max_band="moyen"),
    "couteau_de_lancer": _w("Couteau", "1d3+1", "thrown", -1, handling="une_main", max_band="moyen"),
    "javelot": _w("Javelot", "1d6", "thrown", handling="une_main", max_band="moyen"),
}
DEFAULT_SKILLS: dict[str, Any] = {
    "natural": BRAWL,
    "melee": "Armes blanches",
    "firearm": "Armes à feu",
    "bow": "Arcs",
    "thrown": "Armes de jet",
}
FOR_BONUS_KINDS = frozenset({"natural", "melee"})
RANGED_KINDS = frozenset({"firearm", "bow", "thrown"})
ALWAYS_CARRIED = ("poing", "pied")

WEAPONS: dict[str, dict[str, Any]] = {}
for _group in (NATURAL, MELEE, FIREARMS, BOWS, THROWN):
    for _id, _weapon in _group.items():
        WEAPONS[_id] = {"skill": DEFAULT_SKILLS[_weapon["kind"]], **_weapon}

DEFENSIVE_ITEMS: dict[str, Any] = {
    "main_gauche": {"name": "Main Gauche", "defense": 2},
    "bouclier_petit": {"name": "Bouclier (petit)", "defense": 3},
    "bouclier_grand": {"name": "Bouclier (grand)", "defense": 5},
}
ARMOURS: dict[str, Any] = {
    "cuir_epais": {"name": "Cuir épais", "ip": 1, "fragments_only": False},
    "cotte_de_mailles": {"name": "Cote de mailles / Kevlar léger", "ip": 3, "fragments_only": False},
    "gilet_pare_balles": {"name": "Gilet pare-balles", "ip": 4, "fragments_only": False},
    "tenue_de_combat": {"name": "Tenue de combat", "ip": 6, "fragments_only": False},
    "casque": {"name": "Casque", "ip": 1, "fragments_only": True},
}

# -- E-1: melee attacks. ma = needs martial arts (else 2+Bagarre) -------------------
ESQ_BLOQ = ("esquiver", "esquiver_ma", "bloquer", "bloquer_ma", "amortir", "feinte")
ANY_TIME = ("contre_attaque", "aucune")
HOLD_PARTS = {"tete": -3, "corps": -2, "membre": -1}


def _a(
    name: str, hit: int | str, damage: int, defenses: tuple[str, ...], ma: bool = True, **extra: Any
) -> dict[str, Any]:
    return {"name": name, "hit": hit, "damage": damage, "defenses": list(defenses) + list(ANY_TIME), "ma": ma, **extra}


MELEE_ATTACKS = {
    "coup_simple": _a("Coup simple", 0, 0, ESQ_BLOQ, ma=False),
    "attaque_ma": _a("Attaque MA", 0, 1, ESQ_BLOQ, weapons=["poing", "pied"]),
    "coup_mortel": _a("Coup mortel", -3, 0, ESQ_BLOQ, weapons=["poing", "pied"], double_overflow=True),
    "balayage": _a("Balayage", "-FOR", 0, ("chute_controlee", "jet_dex"), effect="fall", grapple=True),
    "prise": _a("Prise", "part", 0, ("esquiver", "esquiver_ma", "feinte"), effect="hold", grapple=True),
    "etrangler": _a(
        "Etrangler", 0, 0, ("degagement", "jet_for"), effect="stun_only", needs_hold=["tete"], grapple=True
    ),
    "projection": _a(
        "Projection", "-FOR", 0, ("chute_controlee", "jet_dex"), effect="fall", needs_hold=["corps"], grapple=True
    ),
    "cle": _a("Clé", 0, 0, ("degagement", "jet_for"), effect="lock", needs_hold=["membre"], grapple=True),
    "massue": _a("Massue", -3, 2, ESQ_BLOQ),
    "coup_bas": _a("Coup bas", -3, -1, ESQ_BLOQ, effect="stun"),
    "briser": _a(
        "Briser", 0, 1, ("degagement", "jet_for"), needs_hold=["membre", "corps"], double_overflow=True, grapple=True
    ),
    "desarmer": _a("Désarmer", -3, 0, ("jet_for",), effect="disarm"),
}
THREATEN = {"name": "Menacer", "hit": 0, "damage": 0}

# -- E-2: ranged attacks --------------------------------------------------------------
RANGED_SHOTS: dict[str, Any] = {
    "tir_simple": {"name": "Tir simple", "hit": 0, "movement": "libre"},
    "tir_stabilise": {
        "name": "Tir stabilisé",
        "hit": 0,
        "band_shift": -1,
        "loses_initiative": True,
        "movement": "aucun",
    },
    "tir_vise": {"name": "Tir visé", "hit": 1, "loses_initiative": True, "movement": "lent"},
    "double_tir": {"name": "Double tir", "hit": -2, "shots": 2, "movement": "libre"},
    "tir_de_suppression": {"name": "Tir de suppression", "hit": "-1/5m", "automatic": True, "movement": "libre"},
    "tir_a_couvert": {"name": "Tir à couvert", "hit": "-cover", "movement": "libre"},
}
RANGED_DEFENSE_IDS = ("couvert", "mouvement_a_couvert", "plongeon", "zigzag", "contre_attaque", "aucune")

# -- E-3 and E-4: defenses. kind drives the resolution ---------------------------------
DEFENSES: dict[str, Any] = {
    "esquiver": {"name": "Esquiver", "modifier": 0, "kind": "dodge", "ma": False},
    "bloquer": {"name": "Bloquer", "modifier": 0, "kind": "block", "ma": False, "absorb": 0},
    "contre_attaque": {"name": "Contre-attaque", "modifier": -3, "kind": "counter", "ma": False},
    "esquiver_ma": {"name": "Esquiver MA", "modifier": 0, "kind": "dodge", "ma": True, "downgrades_critical": True},
    "bloquer_ma": {"name": "Bloquer MA", "modifier": 0, "kind": "block", "ma": True, "absorb": 1},
    "feinte": {"name": "Feinte", "modifier": -2, "kind": "feint", "ma": True},
    "amortir": {"name": "Amortir", "modifier": -1, "kind": "block", "ma": True, "absorb": 2},
    "degagement": {"name": "Dégagement", "modifier": 0, "kind": "resist", "ma": True, "frees": True},
    "chute_controlee": {"name": "Chute controlée", "modifier": 0, "kind": "resist", "ma": True},
    "jet_dex": {"name": "2+DEX", "modifier": 0, "kind": "resist", "attribute": "DEX"},
    "jet_for": {"name": "2+FOR", "modifier": 0, "kind": "resist", "attribute": "FOR"},
    "couvert": {"name": "Couvert", "modifier": 0, "kind": "cover"},
    "mouvement_a_couvert": {"name": "Mouvement à couvert", "modifier": -1, "kind": "dodge", "ranged": True},
    "plongeon": {"name": "Plongeon", "modifier": -3, "kind": "dodge", "ranged": True, "not_consecutive": True},
    "zigzag": {"name": "Zigzag", "modifier": -2, "kind": "zigzag", "ranged": True},
    "aucune": {"name": "Aucune défense", "modifier": 0, "kind": "none"},
}

CATALOG = {
    "levels": LEVEL_NAMES,
    "weapons": WEAPONS,
    "defensive_items": DEFENSIVE_ITEMS,
    "armours": ARMOURS,
    "distance_bands": {band: {"name": BAND_NAMES[band], "up_to_m": BAND_LIMITS.get(band)} for band in BANDS},
    "distance_malus": DISTANCE_MALUS,
    "hit_locations": {str(k): v for k, v in LOCATIONS.items()},
    "location_names": LOCATION_NAMES,
    "wounds": WOUNDS,
    "melee_attacks": MELEE_ATTACKS,
    "hold_parts": HOLD_PARTS,
    "threaten": THREATEN,
    "ranged_shots": RANGED_SHOTS,
    "defenses": DEFENSES,
    "ranged_defenses": list(RANGED_DEFENSE_IDS),
    "constants": {
        "skill_base": SKILL_BASE,
        "attribute_base": ATTRIBUTE_BASE,
        "untrained_ma_base": UNTRAINED_MA_BASE,
        "specialization": SPECIALIZATION_BONUS,
        "prone": PRONE_MALUS,
        "encumbrance": ENCUMBRANCE_MALUS,
        "counter_attack": COUNTER_MALUS,
        "double_maneuver": DOUBLE_MANEUVER_MALUS,
    },
}
