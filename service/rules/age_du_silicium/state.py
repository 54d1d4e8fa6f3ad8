"""The shape of an Âge du Silicium combat: the keys it adds to the shared ones (service/rules/state.py).

Types for mypy only: at run time these are the plain dicts the engine passes around.
"""

from __future__ import annotations

from typing import Any, NotRequired

from ..ruleset import Resolution
from ..state import Combat, Combatant


class SiliciumCombatant(Combatant):
    initiative: int
    blessures: int
    blessures_max: int
    aim: int
    retested_round: int | None


class SiliciumCombat(Combat[SiliciumCombatant]):
    phase: NotRequired[str]  # "frenzy", "declaration" or "resolution" (rounds.py)
    declarers: NotRequired[list[str]]  # in declaration order
    declared: NotRequired[list[str]]
    slots: NotRequired[list[dict[str, Any]]]  # the declared actions, in resolution order
    slot: NotRequired[int]  # the index of the slot being resolved
    reactions: NotRequired[list[dict[str, Any]]]
    pending: NotRequired[dict[str, Any] | None]  # an attack awaiting its defense (attacks.py)


Res = Resolution[SiliciumCombat, SiliciumCombatant]
