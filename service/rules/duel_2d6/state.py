"""The shape of a Duel 2d6 combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any, NotRequired

from ..ruleset import Resolution
from ..state import Combat, Combatant


class DuelCombatant(Combatant):
    pv: int
    pv_max: int
    wound: str
    malus: int
    facing: list[str]
    last_dive_round: int | None
    ammo: dict[str, int]  # weapon id -> rounds left
    jammed: list[str]  # weapon ids
    dropped: list[str]  # weapon ids


class DuelCombat(Combat[DuelCombatant]):
    duels: list[dict[str, Any]]  # the engaged pairs (duels.py)
    holds: list[dict[str, Any]]  # who holds whom (effects.py)
    pending: NotRequired[dict[str, Any] | None]  # an exchange awaiting its answer (exchange.py)


Res = Resolution[DuelCombat, DuelCombatant]
