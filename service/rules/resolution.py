"""One action (or the start of a combat) being resolved: the state it works on,
its dice box and the events it emits.

Below :mod:`service.rules.ruleset` so that the shared GM code (gm/) can
resolve against it while the ruleset base class lists gm/'s legal actions:
neither imports the other's module at import time, nor inside a function.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from .dice import DiceBox
from .errors import InvalidAction, refusal
from .state import Combat, Combatant, Event

GM = "gm"

# The combat and combatant types of a ruleset (state.py; a ruleset's own state.py extends them).
CombatT = TypeVar("CombatT", bound=Combat[Any])
CombatantT = TypeVar("CombatantT", bound=Combatant)
# Covariant: a ruleset's Resolution[ItsCombat, ItsCombatant] goes where shared code takes an AnyResolution.
CombatT_co = TypeVar("CombatT_co", bound=Combat[Any], covariant=True)
CombatantT_co = TypeVar("CombatantT_co", bound=Combatant, covariant=True)
# A choice of an action type, or a parameter's description (gm/legal.py): JSON for /options.
Choice = dict[str, Any]


class Resolution(Generic[CombatT_co, CombatantT_co]):
    """One action (or the start of a combat) being resolved.

    Generic for mypy only: a ruleset's code reads ``Resolution[ItsCombat,
    ItsCombatant]``, the shared code an :data:`AnyResolution`."""

    __slots__ = ("state", "dice", "events", "options")

    def __init__(self, state: CombatT_co, dice: DiceBox):
        self.state = state
        self.dice = dice
        self.events: list[Event] = []
        # The state's options (the same dict: no rule replaces it), read several times per action:
        # an attribute, not a property.
        self.options: dict[str, Any] = state["options"]

    def emit(self, code: str, **params: Any) -> None:
        self.events.append({"code": code, "params": params})  # events.event(), without a second call

    def combatant(self, combatant_id: str, field: str = "target") -> CombatantT_co:
        combatant: CombatantT_co
        for combatant in self.state["combatants"]:
            if combatant["id"] == combatant_id:
                return combatant
        raise InvalidAction(
            refusal("there is no combatant '{combatant_id}' in this combat", combatant_id=combatant_id), field=field
        )


# What the code shared by every ruleset resolves against (the engine, gm/, conditions.py...).
AnyResolution = Resolution[Combat[Any], Combatant]
