"""The shape of a Sistema +2d6 combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any, NotRequired

from ..ruleset import Resolution
from ..state import Combat, Combatant


class SistemaCombatant(Combatant):
    pv: int
    pv_max: int
    death_failures: int
    initiative: int | None


class SistemaCombat(Combat[SistemaCombatant]):
    order: list[list[str]]  # groups of equal initiative, highest first
    turn: int  # the index of the group whose turn it is
    acted: list[str]
    simultaneous: NotRequired[list[str]]  # who could act when the group's turn began
    pending: NotRequired[dict[str, Any] | None]  # an attack awaiting its defense (actions.py)


Res = Resolution[SistemaCombat, SistemaCombatant]
