"""A fighter's weapons and his POTentiel with each.

Seed: the POT de combat is MELée + the combat skill of the weapon used, the
POT de Tir TIR + the shooting skill; bare hands are MEL + Bagarre. Both the
secret allocation (allocation.py) and the pain rule (health.py) read it, so
it lives below both.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import InvalidAction, refusal
from . import bouffons
from .state import DarkEarthCombatant
from .tables import WEAPONS

BARE_HANDS = "mains_nues"


def weapons_of(combatant: DarkEarthCombatant) -> Iterator[dict[str, Any]]:
    """The weapons a fighter may allocate with: his sheet's, then the catalog's he has not on it (bare hands).

    One at a time: weapon_of and a listing's probe stop at the first that serves.
    """
    weapons = combatant["sheet"]["weapons"]
    yield from weapons
    for weapon_id, weapon in WEAPONS.items():
        if all(w["id"] != weapon_id for w in weapons):
            yield {"id": weapon_id, **weapon}


def weapon_of(combatant: DarkEarthCombatant, weapon_id: str | None) -> dict[str, Any]:
    """The weapon ``weapon_id`` of :func:`weapons_of` (None: the first); a bouffon's own blow whatever is asked."""
    if bouffons.is_bouffon(combatant):
        return bouffons.weapon(combatant)
    for weapon in weapons_of(combatant):
        if weapon_id is None or weapon["id"] == weapon_id:
            return weapon
    raise InvalidAction(
        refusal(
            "{combatant} has no weapon '{weapon_id}' and the catalog has none",
            combatant=combatant["name"],
            weapon_id=weapon_id,
        ),
        field="weapon",
    )


def potential(combatant: DarkEarthCombatant, weapon: dict[str, Any]) -> int:
    """POT de combat (MEL + skill) or POT de Tir (TIR + skill)."""
    attribute = "MEL" if weapon["kind"] == "melee" else "TIR"
    skill = combatant["sheet"]["skills"].get(weapon["skill"], 0) if weapon["skill"] else 0
    found: int = combatant["sheet"]["attributes"][attribute] + skill
    return found


def bare_hands_potential(combatant: DarkEarthCombatant) -> int:
    return potential(combatant, weapon_of(combatant, BARE_HANDS))
