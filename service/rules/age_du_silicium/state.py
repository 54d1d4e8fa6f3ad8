"""The shape of an Âge du Silicium combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from ..ruleset import Resolution
from ..state import Combat, Combatant


class SiliciumCombatant(Combatant):
    initiative: int
    blessures: int
    blessures_max: int
    aim: int
    retested_round: int | None


class PendingAttack(TypedDict):
    """An attack being rolled, shot by shot; kept while a hit waits for the target's reaction (attacks.py)."""

    attacker: str
    target: str
    weapon: dict[str, Any]  # the weapon as the attack used it (weapons.py)
    mode: str  # melee or ranged
    chance: int  # the to-hit chance, modifiers included
    burst: bool
    maneuver: str | None
    double_die: bool  # aimed at the damage
    location: str | None
    shots_left: int
    from_slot: bool  # a declared action of the round (not a reaction or a held action)


class Reaction(TypedDict):
    """A defence or a held action a combatant keeps for later in the round (rounds.add_reaction)."""

    actor: str
    kind: str  # defend or held
    rank: int
    forced: bool  # a defensive action the surprise imposed
    used: bool


class SiliciumCombat(Combat[SiliciumCombatant]):
    phase: NotRequired[str]  # "frenzy", "declaration" or "resolution" (rounds.py)
    initiatives: NotRequired[dict[str, int]]  # the round's Initiative of each combatant (rounds.round_initiative)
    declarers: NotRequired[list[str]]  # in declaration order
    declared: NotRequired[list[str]]
    slots: NotRequired[list[dict[str, Any]]]  # the declared actions, in resolution order
    slot: NotRequired[int]  # the index of the slot being resolved
    reactions: NotRequired[list[Reaction]]
    pending: NotRequired[PendingAttack | None]


Res = Resolution[SiliciumCombat, SiliciumCombatant]
