"""A fighter's weapons and his POTentiel with each.

Seed: the POT de combat is MELée + the combat skill of the weapon used, the
POT de Tir TIR + the shooting skill; bare hands are MEL + Bagarre. Both the
secret allocation (allocation.py) and the pain rule (health.py) read it, so
it lives below both.
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidAction
from . import bouffons
from .state import DarkEarthCombatant
from .tables import WEAPONS

BARE_HANDS = "mains_nues"


def weapon_of(combatant: DarkEarthCombatant, weapon_id: str | None) -> dict[str, Any]:
    if bouffons.is_bouffon(combatant):
        return bouffons.weapon(combatant)
    weapons = combatant["sheet"]["weapons"]
    if weapon_id is None:
        return weapons[0] if weapons else {"id": BARE_HANDS, **WEAPONS[BARE_HANDS]}
    weapon: dict[str, Any]
    for weapon in weapons:
        if weapon["id"] == weapon_id:
            return weapon
    if weapon_id in WEAPONS:
        return {"id": weapon_id, **WEAPONS[weapon_id]}
    raise InvalidAction(f"{combatant['name']} has no weapon {weapon_id!r} and the catalog has none", field="weapon")


def potential(combatant: DarkEarthCombatant, weapon: dict[str, Any]) -> int:
    """POT de combat (MEL + skill) or POT de Tir (TIR + skill)."""
    attribute = "MEL" if weapon["kind"] == "melee" else "TIR"
    skill = combatant["sheet"]["skills"].get(weapon["skill"], 0) if weapon["skill"] else 0
    found: int = combatant["sheet"]["attributes"][attribute] + skill
    return found


def bare_hands_potential(combatant: DarkEarthCombatant) -> int:
    return potential(combatant, weapon_of(combatant, BARE_HANDS))
