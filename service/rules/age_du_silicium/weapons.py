"""Finding the weapon an action names."""

from __future__ import annotations

from typing import Any

from ..conditions import has
from ..errors import InvalidAction, refusal
from .state import SiliciumCombatant
from .status import DISARMED, refuse
from .tables import UNARMED

# Bare hands in a refusal, in the reader's words (a sheet's weapon is named as the sheet names it).
BARE_HANDS = refusal("bare hands")


def weapon_named(weapon: dict[str, Any]) -> str:
    """``weapon`` as a refusal names it."""
    named: str = BARE_HANDS if weapon["unarmed"] else weapon["name"]
    return named


def find_weapon(combatant: SiliciumCombatant, weapon_id: str | None, field: str = "weapon") -> dict[str, Any]:
    """The named weapon; by default the first one, else bare hands."""
    weapons = combatant["sheet"]["weapons"]
    if weapon_id is None:
        weapon = weapons[0] if weapons else UNARMED
    elif weapon_id == UNARMED["id"]:
        weapon = UNARMED
    else:
        weapon = next((w for w in weapons if w["id"] == weapon_id), None)
        if weapon is None:
            raise InvalidAction(
                refusal("{actor} has no weapon '{weapon_id}'", actor=combatant["name"], weapon_id=weapon_id),
                field=field,
            )
    return weapon


def weapon_refusal(combatant: SiliciumCombatant, weapon: dict[str, Any]) -> str | None:
    """Why the combatant may not strike or parry with ``weapon`` now, or None: the resolution and the listing."""
    if has(combatant, DISARMED) and not weapon["unarmed"]:
        return refusal(
            "{actor} was disarmed and fights bare-handed until the game master says otherwise", actor=combatant["name"]
        )
    return None


def usable_weapon(combatant: SiliciumCombatant, weapon_id: str | None, field: str = "weapon") -> dict[str, Any]:
    disarmed = has(combatant, DISARMED)
    weapon = find_weapon(combatant, UNARMED["id"] if disarmed and weapon_id is None else weapon_id, field)
    refuse(weapon_refusal(combatant, weapon), field)
    return weapon


def skill(combatant: SiliciumCombatant, name: str) -> int:
    found: int = combatant["sheet"]["skills"].get(name, 0)
    return found
