"""The shape of a Duel 2d6 combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

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


class Pair(TypedDict):
    """Two fighters face to face (duels.other names the one who is not you)."""

    a: str
    b: str


class Duel(Pair):
    """Two engaged fighters (duels.py): who holds the initiative, whether their exchange is done."""

    attacker: str  # the one holding the initiative
    done: bool  # this round's exchange is over
    threat: dict[str, Any] | None  # a threatened blow or shot awaiting its answer (actions.py)


class Hold(TypedDict):
    """A hold taken by a grappling blow (effects.py)."""

    holder: str
    held: str
    part: str  # tete, corps or membre
    locked: bool


class DuelCombat(Combat[DuelCombatant]):
    duels: list[Duel]
    holds: list[Hold]
    pending: NotRequired[dict[str, Any] | None]  # an exchange awaiting its answer (exchange.py)


Res = Resolution[DuelCombat, DuelCombatant]
