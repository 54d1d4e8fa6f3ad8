"""The shape of a Sistema +2d6 combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ..ruleset import Resolution
from ..state import Combat, Combatant


class SistemaCombatant(Combatant):
    pv: int
    pv_max: int
    death_failures: int
    initiative: int | None


class RolledCheck(TypedDict):
    """An attack check kept while its defense is awaited (checks.Check, as JSON)."""

    dice: list[int]
    total: int
    breakdown: dict[str, int]


class PendingAttack(TypedDict):
    """An attack awaiting its target's defense (actions.py)."""

    attacker: str
    target: str
    weapon: dict[str, Any]  # the sheet's weapon (or the catalog's), as the attack used it
    check: RolledCheck
    location: str | None
    condition: str | None
    burst: bool
    lethal: bool


class SistemaCombat(Combat[SistemaCombatant]):
    order: list[list[str]]  # groups of equal initiative, highest first
    turn: int  # the index of the group whose turn it is
    acted: list[str]
    simultaneous: NotRequired[list[str]]  # who could act when the group's turn began
    pending: NotRequired[PendingAttack | None]


Res = Resolution[SistemaCombat, SistemaCombatant]
