"""Weapons in hand, distance bands and the to-hit modifiers of a blow or a shot."""

from __future__ import annotations

import math
from typing import Any, cast

from ..errors import ActionNotAllowed, InvalidAction, refusal
from .checks import maneuver_base, situation, skill_base, skill_level, specialization
from .state import DuelCombatant
from .tables import (
    ALWAYS_CARRIED,
    BAND_LIMITS,
    BAND_NAMES,
    BANDS,
    COUNTER_MALUS,
    DISTANCE_MALUS,
    DOUBLE_MANEUVER_MALUS,
    HOLD_PARTS,
    MELEE_ATTACKS,
    RANGED_KINDS,
    RANGED_SHOTS,
    WEAPONS,
)


def weapon_of(combatant: DuelCombatant, weapon_id: str, field: str = "weapon") -> dict[str, Any]:
    weapon: dict[str, Any] | None = None
    for carried in combatant["sheet"]["weapons"]:  # a plain loop: several lookups per blow
        if carried["id"] == weapon_id:
            weapon = carried
            break
    if weapon is None and weapon_id in ALWAYS_CARRIED:
        weapon = {"id": weapon_id, **WEAPONS[weapon_id]}
    if weapon is None:
        have = ", ".join([w["id"] for w in combatant["sheet"]["weapons"]] + list(ALWAYS_CARRIED))
        raise InvalidAction(
            refusal(
                "{combatant} has no weapon '{weapon_id}' (has: {have})",
                combatant=combatant["name"],
                weapon_id=weapon_id,
                have=have,
            ),
            field=field,
        )
    why = lost_refusal(combatant, weapon)
    if why is not None:
        raise ActionNotAllowed(why, field=field)
    return weapon


def lost_refusal(combatant: DuelCombatant, weapon: dict[str, Any]) -> str | None:
    """Why ``combatant`` cannot use ``weapon``, dropped or taken (Clé, Désarmer), or None.

    The one statement of the rule: weapon_of refuses with it, legal.py and duels.awaiting list with it.
    """
    if weapon["id"] in combatant["dropped"]:
        return refusal("{combatant} has lost {weapon} (disarmed)", combatant=combatant["name"], weapon=weapon["name"])
    return None


def is_ranged(weapon: dict[str, Any]) -> bool:
    return weapon["kind"] in RANGED_KINDS


def ammo_refusal(shooter: DuelCombatant, weapon: dict[str, Any], shots: int) -> str | None:
    """Why ``weapon`` cannot fire ``shots`` rounds now (jammed, too few left), or None.

    The one statement of the rule: ranged.spend_ammo refuses with it, legal.py and duels.awaiting list with it.
    """
    if weapon["id"] in shooter["jammed"]:
        return refusal("{weapon} is jammed: reload it first", weapon=weapon["name"])
    if weapon.get("ammo"):
        left = shooter["ammo"].get(weapon["id"], weapon["ammo"])
        if left < shots:
            return refusal(
                "{weapon} has {left:# round|# rounds} left, {shots} needed: reload it",
                weapon=weapon["name"],
                left=left,
                shots=shots,
            )
    return None


def automatic_refusal(weapon: dict[str, Any], shot: str) -> str | None:
    """Why ``weapon`` cannot make ``shot`` (a long burst needs an automatic weapon), or None: the shot and legal.py."""
    if RANGED_SHOTS[shot].get("automatic") and not weapon.get("automatic"):
        return refusal("{weapon} cannot fire the long burst a suppression needs", weapon=weapon["name"])
    return None


def shots_of(shot: str) -> int:
    """The rounds a kind of shot fires (Double tir: 2)."""
    found: int = RANGED_SHOTS[shot].get("shots", 1)
    return found


def band_of(distance: int) -> str:
    if distance < BAND_LIMITS["contact"]:
        return "contact"
    return next((band for band in BANDS[1:-1] if distance <= BAND_LIMITS[band]), BANDS[-1])


def within_reach_of_a_blow(distance: int | None) -> bool:
    """A melee blow reaches an opponent without a distance (melee) or at contact range."""
    return distance is None or band_of(distance) == "contact"


def shift_band(band: str, steps: int) -> str:
    """ "-1 cran" / "+1 cran"; a steadied shot never becomes a contact shot (gap G7)."""
    index = min(max(BANDS.index(band) + steps, 1 if band != "contact" else 0), len(BANDS) - 1)
    return BANDS[index]


def distance_malus(weapon: dict[str, Any], band: str) -> int | str | None:
    """0..-10, "auto" at contact, or None when the weapon cannot reach."""
    max_band = weapon.get("max_band")
    if max_band and BANDS.index(band) > BANDS.index(max_band):
        return None
    found: int | str = DISTANCE_MALUS[weapon["handling"]][band]
    return found


def reach_refusal(weapon: dict[str, Any], band: str) -> str | None:
    """Why ``weapon`` cannot shoot into ``band`` (the table's "Non", a thrown weapon beyond Moyen), or None.

    The one statement of the rule: check_reach refuses with it, legal.py bounds the distances it lists with it.
    """
    if distance_malus(weapon, band) is None:
        reach = BAND_NAMES[weapon.get("max_band") or "extreme"]
        return refusal(
            "{weapon} cannot shoot that far ({band}); its range ends at {reach}",
            weapon=weapon["name"],
            band=BAND_NAMES[band],
            reach=reach,
        )
    return None


def check_reach(weapon: dict[str, Any], band: str, field: str = "distance") -> None:
    why = reach_refusal(weapon, band)
    if why is not None:
        raise ActionNotAllowed(why, field=field)


def hit_value(spec: dict[str, Any], part: str | None, defender: DuelCombatant) -> int:
    hit: int | str = spec["hit"]  # a number, "-FOR" or "part" (tables.MELEE_ATTACKS)
    if hit == "-FOR":
        found: int = -defender["sheet"]["attributes"]["FOR"]
        return found
    if hit == "part":
        return HOLD_PARTS[cast(str, part)]  # a hold names its part
    return cast(int, hit)


def maneuver_refusal(maneuver: str, weapon: dict[str, Any]) -> str | None:
    """Why ``maneuver`` cannot be made with ``weapon`` (a gun, another weapon, no grapple), or None.

    The one statement of the rule: check_maneuver refuses with it, legal.py lists with it.
    """
    spec = MELEE_ATTACKS[maneuver]
    if is_ranged(weapon):
        return refusal("{weapon} is a ranged weapon: use a shoot action", weapon=weapon["name"])
    if "weapons" in spec and weapon["id"] not in spec["weapons"]:  # the fist or the foot (tables.MELEE_ATTACKS)
        return refusal(
            "{maneuver} is made with the fist or the foot, not with {weapon}",
            maneuver=spec["name"],
            weapon=weapon["name"],
        )
    if spec.get("grapple") and weapon["kind"] != "natural" and not weapon.get("grapple"):
        return refusal("{maneuver} cannot be made with {weapon}", maneuver=spec["name"], weapon=weapon["name"])
    return None


# The parts a Prise holds, as the seed writes them ("Prise (tête / corps / membre)").
HOLD_PART_NAMES = {"tete": "tête", "corps": "corps", "membre": "membre"}


def hold_refusal(
    maneuver: str, held_part: str | None, opponent: str, set_up_by: dict[str, Any] | None = None
) -> str | None:
    """Why ``maneuver`` cannot be made on ``opponent`` (a name), or None: the holds Étrangler,
    Projection, Clé, Briser need.

    ``held_part``: the part the striker holds on the opponent; ``set_up_by``: the
    first blow of a Double Manoeuvre, whose Prise sets the hold up for the second.
    The declaration, the counter and legal.py all use it.
    """
    needs = MELEE_ATTACKS[maneuver].get("needs_hold")
    if not needs or held_part in needs:
        return None
    if set_up_by is not None and set_up_by["maneuver"] == "prise" and set_up_by["part"] in needs:
        return None
    return refusal(
        "{maneuver} needs a Prise ({parts}) on {opponent} first",
        maneuver=MELEE_ATTACKS[maneuver]["name"],
        parts="/".join(HOLD_PART_NAMES[part] for part in needs),
        opponent=opponent,
    )


def check_maneuver(
    combatant: DuelCombatant, maneuver: str, weapon: dict[str, Any], part: str | None, field: str
) -> None:
    why = maneuver_refusal(maneuver, weapon)
    if why is not None:
        raise InvalidAction(why, field=field)
    if maneuver == "prise" and part is None:
        raise InvalidAction(refusal("a Prise needs a part: tete, corps or membre"), field="part")


def _blow_level(attacker: DuelCombatant, blow: dict[str, Any]) -> dict[str, Any]:
    """A maneuver's own level: 7 + the weapon's skill, or the martial art (2 + Bagarre) for a * maneuver."""
    skill = weapon_of(attacker, blow["weapon"])["skill"]
    return {
        **maneuver_base(attacker, MELEE_ATTACKS[blow["maneuver"]]["ma"], skill),
        "specialization": specialization(attacker, blow["maneuver"]),
    }


def blow_modifiers(
    attacker: DuelCombatant,
    defender: DuelCombatant,
    blows: list[dict[str, Any]],
    index: int,
    *,
    gm: int,
    steps: int,
    counter: bool,
) -> dict[str, Any]:
    """Target of one melee blow: base, maneuver, weapon, specialisation and situation."""
    blow = blows[index]
    spec = MELEE_ATTACKS[blow["maneuver"]]
    weapon = weapon_of(attacker, blow["weapon"])
    double = len(blows) > 1
    if double:
        # "Niveau = plus petit niveau entre les deux manoeuvres": each blow at the lower of the two blows' own
        # levels, and never above the Double Manoeuvre's own (a martial-arts maneuver: the art, or 2 + Bagarre).
        candidates = [_blow_level(attacker, b) for b in blows] + [maneuver_base(attacker, True, None)]
        level = min(candidates, key=lambda lv: sum(lv.values()))
    else:
        level = _blow_level(attacker, blow)
    return {
        **level,
        "maneuver": hit_value(spec, blow.get("part"), defender),
        "weapon": weapon["hit"],
        **situation(attacker),
        "coup_mortel": -2 * steps,
        "double": DOUBLE_MANEUVER_MALUS if double else 0,
        "counter": COUNTER_MALUS if counter else 0,
        "gm": gm,
    }


def shot_modifiers(
    shooter: DuelCombatant, weapon: dict[str, Any], plan: dict[str, Any], band: str, *, counter: bool = False
) -> dict[str, Any]:
    spec = RANGED_SHOTS[plan.get("shot", "tir_simple")]
    malus = distance_malus(weapon, band)
    mods = {**skill_base(shooter, weapon["skill"]), "distance": 0 if malus == "auto" else malus}
    hit = spec["hit"]
    if hit == "-1/5m":
        hit = -math.ceil(plan["zone_width"] / 5)
    elif hit == "-cover":
        hit = -plan["cover"]
    return {
        **mods,
        "shot": hit,
        "weapon": weapon["hit"],
        "specialization": specialization(shooter, plan.get("shot", "tir_simple")),
        **situation(shooter),
        "coup_mortel": -2 * plan.get("steps", 0),
        "counter": COUNTER_MALUS if counter else 0,
        "gm": plan.get("modifier", 0),
    }


def aim_limit(combatant: DuelCombatant, weapon: dict[str, Any]) -> int:
    return max(0, skill_level(combatant, weapon["skill"]))
