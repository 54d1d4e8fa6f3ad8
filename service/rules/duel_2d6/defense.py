"""Defenses (tables E-3 and E-4): which are allowed, their target and what a block absorbs."""

from __future__ import annotations

from typing import Any

from ..errors import ActionNotAllowed, InvalidAction, refusal
from .arsenal import band_of, check_maneuver, check_reach, hold_refusal, is_ranged, weapon_of, within_reach_of_a_blow
from .checks import attribute_base, maneuver_base, situation, skill_base, skill_level, specialization
from .duels import cover_refusal, hold_on, is_locked
from .state import DuelCombat, DuelCombatant
from .tables import DEFENSES, DEFENSIVE_ITEMS, MELEE_ATTACKS, RANGED_DEFENSE_IDS

LOCKED_DEFENSES = ("degagement", "jet_for", "aucune")


def allowed(plan: dict[str, Any], index: int = 0) -> list[str]:
    if plan["kind"] == "ranged":
        return list(RANGED_DEFENSE_IDS)
    found: list[str] = MELEE_ATTACKS[plan["blows"][index]["maneuver"]]["defenses"]
    return found


def _refuse_unless_allowed(plan: dict[str, Any], index: int, defense: str, field: str) -> None:
    permitted = allowed(plan, index)
    if defense not in permitted:
        against = plan["blows"][index].get("maneuver") or plan["shot"]
        raise ActionNotAllowed(
            refusal(
                "{defense} is no defense against {against}; allowed: {allowed}",
                defense=DEFENSES[defense]["name"],
                against=against,
                allowed=", ".join(permitted),
            ),
            field=field,
        )


def dive_refusal(state: DuelCombat, defender: DuelCombatant, defense: str) -> str | None:
    """Plongeon "non consécutif": why ``defender`` may not declare ``defense`` for that, or None.

    The one statement of the rule: check_declaration refuses with it, legal.py lists with it.
    """
    last = defender["last_dive_round"]
    if defense == "plongeon" and last is not None and state["round"] - last <= 1:
        return refusal(
            "{defender} dived in round {last}: Plongeon is not allowed on consecutive rounds",
            defender=defender["name"],
            last=last,
        )
    return None


def locked_refusal(state: DuelCombat, defender: DuelCombatant, defense: str) -> str | None:
    """Caught in a Clé, only Dégagement, a FOR roll or no defense: why not ``defense``, or None (check_declaration
    and legal.py)."""
    if is_locked(state, defender["id"]) and defense not in LOCKED_DEFENSES:
        return refusal(
            "{defender} is caught in a Clé: only Dégagement or a FOR roll (2+FOR)", defender=defender["name"]
        )
    return None


def block_refusal(weapon: dict[str, Any]) -> str | None:
    """Why ``weapon`` cannot block (a ranged weapon: D-6 blocks with a weapon's skill or Défense), or None:
    check_declaration and legal.py."""
    return refusal("{weapon} cannot block", weapon=weapon["name"]) if is_ranged(weapon) else None


def check_counter(
    defender: DuelCombatant,
    attacker: DuelCombatant,
    counter: dict[str, Any],
    plan_distance: int | None,
    state: DuelCombat,
    prefix: str,
) -> None:
    weapon = weapon_of(defender, counter["weapon"], field=f"{prefix}weapon")
    if is_ranged(weapon):
        distance = counter["distance"] if counter["distance"] is not None else plan_distance
        if distance is None:
            raise InvalidAction(refusal("shooting back needs the distance in metres"), field=f"{prefix}distance")
        check_reach(weapon, band_of(distance), field=f"{prefix}distance")
        return
    if not within_reach_of_a_blow(plan_distance):
        # "Permet attaque normale en défense": against a shot from afar the normal attack is
        # shooting back (E-2, Menacer).
        raise ActionNotAllowed(
            refusal(
                "{attacker} is {distance} m away, beyond contact (under 2 m): only a ranged weapon can counter-attack",
                attacker=attacker["name"],
                distance=plan_distance,
            ),
            field=f"{prefix}weapon",
        )
    check_maneuver(defender, counter["maneuver"], weapon, counter["part"], field=f"{prefix}maneuver")
    hold = hold_on(state, attacker["id"])
    held_part = hold["part"] if hold and hold["holder"] == defender["id"] else None
    why = hold_refusal(counter["maneuver"], held_part, attacker["name"])
    if why is not None:
        raise ActionNotAllowed(why, field=f"{prefix}maneuver")


def check_declaration(
    state: DuelCombat,
    plan: dict[str, Any],
    decl: dict[str, Any],
    defender: DuelCombatant,
    attacker: DuelCombatant,
    prefix: str = "",
) -> None:
    """Refuse a defense the rules do not allow here, before any die is rolled."""
    defense = decl["defense"]
    _refuse_unless_allowed(plan, 0, defense, f"{prefix}defense")
    for field in ("defense", "second_defense"):
        why = cover_refusal(defender, "defend", decl[field])
        if why is not None:
            raise ActionNotAllowed(why, field=f"{prefix}{field}")
    why = locked_refusal(state, defender, defense) or dive_refusal(state, defender, defense)
    if why is not None:
        raise ActionNotAllowed(why, field=f"{prefix}defense")
    if decl["using"] is not None:
        if DEFENSES[defense]["kind"] != "block":
            raise InvalidAction(
                refusal("using names what blocks; only a Bloquer defense uses it"), field=f"{prefix}using"
            )
        if decl["using"] != defender["sheet"]["defensive_item"]:
            why = block_refusal(weapon_of(defender, decl["using"], field=f"{prefix}using"))
            if why is not None:
                raise InvalidAction(why, field=f"{prefix}using")
    if decl["cover_ip"] is not None and defense != "couvert":
        raise InvalidAction(refusal("cover_ip belongs to a couvert defense"), field=f"{prefix}cover_ip")
    if defense == "contre_attaque":
        check_counter(defender, attacker, decl["counter"], plan.get("distance"), state, f"{prefix}counter.")
    double = plan["kind"] == "melee" and len(plan["blows"]) == 2 and defense != "contre_attaque"
    second = decl["second_defense"]
    if double and second is None:
        raise InvalidAction(
            refusal("a Double Manoeuvre needs a second_defense against its second blow"),
            field=f"{prefix}second_defense",
        )
    if second is not None and not double:
        raise InvalidAction(
            refusal("second_defense only answers the second blow of a Double Manoeuvre"),
            field=f"{prefix}second_defense",
        )
    if double:
        _refuse_unless_allowed(plan, 1, second, f"{prefix}second_defense")


def defense_modifiers(defender: DuelCombatant, defense: str, decl: dict[str, Any]) -> dict[str, Any]:
    spec = DEFENSES[defense]
    if spec.get("attribute"):
        base = attribute_base(defender, spec["attribute"])
    elif spec.get("ranged"):
        base = skill_base(defender, decl["skill"] or defender["sheet"]["dodge_skill"])
    elif spec["kind"] == "block" and not spec["ma"]:
        base = skill_base(defender, _block_skill(defender, decl["using"]))
    else:
        base = maneuver_base(defender, spec.get("ma", False), None)
    return {
        **base,
        "defense": spec["modifier"],
        "specialization": specialization(defender, defense),
        **situation(defender),
        "gm": decl["modifier"],
    }


def _block_skill(defender: DuelCombatant, using: str | None) -> str | None:
    if using is None or using == defender["sheet"]["defensive_item"]:
        return None
    found: str | None = weapon_of(defender, using)["skill"]
    return found


def absorption(defender: DuelCombatant, defense: str, using: str | None, dd: int) -> dict[str, Any]:
    """ "Absorbe FOR dmg (+Dd si critique)", + the item's Défense or the weapon skill level (D-6)."""
    parts = {"FOR": defender["sheet"]["attributes"]["FOR"], "maneuver": DEFENSES[defense]["absorb"], "Dd": dd}
    if using is not None and using == defender["sheet"]["defensive_item"]:
        parts["item"] = DEFENSIVE_ITEMS[using]["defense"]
    elif using is not None:
        weapon = weapon_of(defender, using)
        if "defense" in weapon:
            parts["item"] = weapon["defense"]
        elif weapon["kind"] != "natural":
            parts["skill"] = skill_level(defender, weapon["skill"])
    return parts
