"""The shape of a Dark Earth combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ..ruleset import Resolution
from ..state import Combat, Combatant


class DarkEarthCombatant(Combatant):
    pv: int
    pv_max: int
    wounds: int
    choc: int
    wound_level: str | None
    loaded: dict[str, bool]  # mechanical weapon id -> loaded


# The split of the combat potential: initiative, attack and defence dice ("def" is a Python keyword).
Split = TypedDict("Split", {"init": int, "att": int, "def": int})


class Allocation(TypedDict):
    """A fighter's secret choice for the tour (allocation.py; a bouffon's: bouffons.py)."""

    combatant: str
    weapon: str
    mode: str  # melee, shot, contact_shot or none
    target: str | None
    pot: int  # the dice of the potential
    split: Split | None  # None for a shot at a distance
    tir_in_contact: NotRequired[bool]
    evade: bool
    reload: bool
    shot: dict[str, Any] | None  # the shooting modifiers of a shot at a distance
    dice_modifier: int
    maneuver: str | None


class DarkEarthCombat(Combat[DarkEarthCombatant]):
    allocations: dict[str, Allocation]  # combatant id -> its allocation, secret until the tour
    contacts: list[list[str]]  # the pairs in contact, each sorted (contacts.py)


Res = Resolution[DarkEarthCombat, DarkEarthCombatant]
