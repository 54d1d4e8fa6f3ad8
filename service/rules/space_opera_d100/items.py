"""Weapons and shields in use: lookup, damage steps, drops and jams (seed 7).

Each combatant keeps ``items[weapon_id] = {steps, destroyed, vibro, dropped,
jam}``. A damage step gives -1 damage (and parry points) and -5 skill; the
first one stops the vibro mode; the item breaks at the step of its class.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import ActionNotAllowed, InvalidAction, RulesError, refusal
from .schemas import WEAPON_DEFAULTS
from .state import Res, SpaceOperaCombatant
from .tables import DESTROYED_AT_STEP, ITEM_STEP_DAMAGE, ITEM_STEP_SKILL, WEAPONS

JAMMED_FOR_THE_FIGHT = -1


def _catalog_weapon(weapon_id: str) -> dict[str, Any]:
    weapon = {"id": weapon_id, **WEAPON_DEFAULTS, **WEAPONS[weapon_id]}
    weapon.setdefault("skill", weapon["name"])
    return weapon


# What everyone has without carrying it: the catalog's natural weapons (bare hands).
_NATURAL = [_catalog_weapon(weapon_id) for weapon_id, base in WEAPONS.items() if base["class"] == "natural"]


def arsenal(combatant: SpaceOperaCombatant) -> Iterator[dict[str, Any]]:
    """The weapons a combatant has: his sheet's, then bare hands (« ou être désarmé »: a catalog weapon he
    does not carry is not his to use). The one list that find_weapon and the legal listing read."""
    carried = combatant["sheet"]["weapons"]
    yield from carried
    for weapon in _NATURAL:
        if all(w["id"] != weapon["id"] for w in carried):
            yield weapon


def find_weapon(combatant: SpaceOperaCombatant, weapon_id: str, field: str) -> dict[str, Any]:
    for weapon in arsenal(combatant):
        if weapon["id"] == weapon_id:
            return weapon
    has = [w["id"] for w in arsenal(combatant)]
    raise InvalidAction(
        refusal(
            "{combatant} does not carry '{weapon_id}' (has: {has})",
            combatant=combatant["name"],
            weapon_id=weapon_id,
            has=has,
        ),
        field=field,
    )


def held_item(combatant: SpaceOperaCombatant, item_id: str, field: str) -> dict[str, Any]:
    """A weapon or shield of the combatant's sheet: what he does not carry cannot parry or be taken from him."""
    weapon: dict[str, Any]
    for weapon in combatant["sheet"]["weapons"]:
        if weapon["id"] == item_id:
            return weapon
    raise InvalidAction(
        refusal(
            "{combatant} does not carry '{item_id}' ([held?the sheet holds: {held}][!held?the sheet holds nothing])",
            combatant=combatant["name"],
            item_id=item_id,
            held=[w["id"] for w in combatant["sheet"]["weapons"]],
        ),
        field=field,
    )


def state_of(combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> dict[str, Any]:
    items = combatant["items"]
    if weapon["id"] not in items:
        items[weapon["id"]] = {
            "steps": 0,
            "destroyed": False,
            "vibro": bool(weapon["vibro"]),
            "dropped": False,
            "jam": 0,
        }
    found: dict[str, Any] = items[weapon["id"]]
    return found


def usable(combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> bool:
    """Not destroyed, dropped or jammed: what check_usable lets through."""
    item = combatant["items"].get(weapon["id"])
    return item is None or not (item["destroyed"] or item["dropped"] or item["jam"])


def check_usable(combatant: SpaceOperaCombatant, weapon: dict[str, Any], field: str) -> None:
    if usable(combatant, weapon):
        return
    item = combatant["items"][weapon["id"]]
    if item["destroyed"]:
        raise ActionNotAllowed(refusal("{weapon} is destroyed", weapon=weapon["name"]), field=field)
    if item["dropped"]:
        raise ActionNotAllowed(
            refusal("{weapon} was dropped; pick it up first (recover)", weapon=weapon["name"]), field=field
        )
    if item["jam"]:
        raise ActionNotAllowed(
            refusal("{weapon} is jammed; clear it first (recover)", weapon=weapon["name"]), field=field
        )


def steps(combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> int:
    item = combatant["items"].get(weapon["id"])
    return item["steps"] if item else 0


def skill_penalty(combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> int:
    return ITEM_STEP_SKILL * steps(combatant, weapon)


def damage_penalty(combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> int:
    return ITEM_STEP_DAMAGE * steps(combatant, weapon)


def vibro_works(combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> bool:
    if not weapon["vibro"]:
        return False
    item = combatant["items"].get(weapon["id"])
    return item["vibro"] if item else True


def damage_step(res: Res, combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> None:
    """The item takes one damage step (seed 7); natural weapons never break."""
    if weapon["class"] == "natural":
        return
    item = state_of(combatant, weapon)
    item["steps"] += 1
    vibro_lost = item["vibro"]
    item["vibro"] = False
    item["destroyed"] = item["steps"] >= DESTROYED_AT_STEP[weapon["class"]]
    res.emit(
        "item_damaged",
        combatant=combatant["id"],
        item=weapon["id"],
        steps=item["steps"],
        vibro_lost=vibro_lost,
        destroyed=item["destroyed"],
    )


def drop(res: Res, combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> None:
    if weapon["class"] == "natural":
        return
    state_of(combatant, weapon)["dropped"] = True
    res.emit("weapon_dropped", combatant=combatant["id"], item=weapon["id"])


def jam(res: Res, combatant: SpaceOperaCombatant, weapon: dict[str, Any], actions: int | None) -> None:
    state_of(combatant, weapon)["jam"] = JAMMED_FOR_THE_FIGHT if actions is None else actions
    res.emit("weapon_jammed", combatant=combatant["id"], item=weapon["id"], actions=actions)


def recover_refusal(combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> RulesError | None:
    """Why ``recover`` cannot work on ``weapon`` now (not dropped nor jammed, destroyed, or jammed for the
    fight), or None: recover raises it, legal.py lists the weapons to recover with it."""
    item = combatant["items"].get(weapon["id"])
    if item is None or not (item["dropped"] or item["jam"]) or item["destroyed"]:
        return ActionNotAllowed(
            refusal("{weapon} is neither dropped nor jammed", weapon=weapon["name"]), field="weapon"
        )
    if item["jam"] == JAMMED_FOR_THE_FIGHT:
        return ActionNotAllowed(
            refusal("{weapon} is jammed for the rest of the fight (it needs a workshop)", weapon=weapon["name"]),
            field="weapon",
        )
    return None


def recover(res: Res, combatant: SpaceOperaCombatant, weapon: dict[str, Any]) -> None:
    """One action to pick a weapon up, or one action of work on a jam (recover_refusal says when not)."""
    refused = recover_refusal(combatant, weapon)
    if refused is not None:
        raise refused
    item = state_of(combatant, weapon)
    if item["dropped"]:
        item["dropped"] = False
        res.emit("weapon_recovered", combatant=combatant["id"], item=weapon["id"])
        return
    item["jam"] -= 1
    res.emit("jam_worked", combatant=combatant["id"], item=weapon["id"], left=item["jam"])
