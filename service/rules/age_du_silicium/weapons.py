"""Finding the weapon an action names."""

from __future__ import annotations

from typing import Any

from ..conditions import has
from ..errors import ActionNotAllowed, InvalidAction
from .state import SiliciumCombatant
from .status import DISARMED
from .tables import UNARMED


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
            raise InvalidAction(f"{combatant['id']} has no weapon {weapon_id!r}", field=field)
    return weapon


def usable_weapon(combatant: SiliciumCombatant, weapon_id: str | None, field: str = "weapon") -> dict[str, Any]:
    disarmed = has(combatant, DISARMED)
    weapon = find_weapon(combatant, UNARMED["id"] if disarmed and weapon_id is None else weapon_id, field)
    if disarmed and not weapon["unarmed"]:
        raise ActionNotAllowed(
            f"{combatant['id']} was disarmed and fights bare-handed until the GM says otherwise", field=field
        )
    return weapon


def skill(combatant: SiliciumCombatant, name: str) -> int:
    found: int = combatant["sheet"]["skills"].get(name, 0)
    return found
