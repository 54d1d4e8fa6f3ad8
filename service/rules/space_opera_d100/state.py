"""The shape of a Space Opera d100 combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ..ruleset import Resolution
from ..state import Combat, Combatant


class RoundState(TypedDict):
    """What a combatant did in the current round (turns.fresh_round)."""

    initiative: int | None
    attacks: int | None
    attacks_left: int | None
    done: bool
    dodges: int
    damage: int


class SpaceOperaCombatant(Combatant):
    kind: str
    pv: int
    pv_max: int
    san: int
    items: dict[str, Any]  # item id -> what is left of it (charges, uses)
    wielding: str | None
    round: RoundState


class PendingAttack(TypedDict):
    """A declared attack; kept while it awaits the target's reaction (attack.py)."""

    attacker: str
    target: str
    weapon: str  # the weapon's id
    attacks: int  # declared for the turn
    mode: str  # kill, stun, paralyse or disarm
    location: str | None
    sneak: bool
    off_hand: bool
    martial_arts: bool
    vibro: bool
    modifier: int
    target_weapon: str | None  # what a disarm aims at


class SpaceOperaCombat(Combat[SpaceOperaCombatant]):
    pending: NotRequired[PendingAttack | None]


Res = Resolution[SpaceOperaCombat, SpaceOperaCombatant]
