"""The shape of a Dark Earth combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any

from ..ruleset import Resolution
from ..state import Combat, Combatant


class DarkEarthCombatant(Combatant):
    pv: int
    pv_max: int
    wounds: int
    choc: int
    wound_level: str | None
    loaded: dict[str, bool]  # mechanical weapon id -> loaded


class DarkEarthCombat(Combat[DarkEarthCombatant]):
    allocations: dict[str, dict[str, Any]]  # combatant id -> its split of the combat potential (allocation.py)
    contacts: list[list[str]]  # the pairs in contact, each sorted (contacts.py)


Res = Resolution[DarkEarthCombat, DarkEarthCombatant]
