"""What a simulated fighter does: the contract of a ruleset's default tactic.

A tactic never decides an outcome: it only picks the next action *body* for
the combatant the engine waits for, exactly as a client would post it. Each
ruleset's tactic (its package's ``tactic.py``, :attr:`Ruleset.tactic`) lists
candidate bodies in order of preference; the simulator tries them through the
engine and keeps the first one the rules accept (a refusal changes nothing),
so a tactic needs no copy of the rules' legality.

Options, shared by every ruleset (docs/simulations.md):
- ``target``: ``first`` (the first standing enemy, in sheet order) or
  ``weakest`` (the standing enemy with the fewest health points left);
- ``style``: ``balanced``, ``aggressive`` or ``defensive``; what it changes
  is ruleset-specific and told by each tactic's description.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from .state import Awaiting, Combat, Combatant

TARGETS = ("first", "weakest")
STYLES = ("balanced", "aggressive", "defensive")


@dataclass(frozen=True)
class Tactic:
    """The options a simulation request chooses."""

    target: str = "first"
    style: str = "balanced"


# Any ruleset's candidates: (state, the acting combatant, its entry of state["awaiting"], the options) -> bodies.
Candidates = Callable[[Any, Any, Awaiting, Tactic], Iterator[dict[str, Any]]]
# The ruleset's combat and combatant types (its state.py).
S = TypeVar("S", bound=Combat[Any])
C = TypeVar("C", bound=Combatant)


@dataclass(frozen=True)
class DefaultTactic(Generic[S, C]):
    """A ruleset's tactic: the bodies it tries, and what the simulator reads of a combatant."""

    health: str  # the combatant's key for the health points left
    # (state, the acting combatant, its entry of state["awaiting"], the options) -> candidate bodies
    candidates: Callable[[S, C, Awaiting, Tactic], Iterator[dict[str, Any]]]
    description: str  # English, shown with every simulation result


def first_weapon(combatant: Combatant, default: str | None = None) -> str | None:
    weapons = combatant["sheet"].get("weapons") or []
    if not weapons:
        return default
    first: str = weapons[0]["id"]
    return first


def choose_target(
    state: Combat[C], actor: Combatant, standing: Callable[[C], bool], health: str, tactic: Tactic
) -> C | None:
    """The enemy ``tactic.target`` names among those ``standing`` (the ruleset's predicate) accepts."""
    enemies = [c for c in state["combatants"] if c["side"] != actor["side"] and standing(c)]
    if not enemies:
        return None
    if tactic.target == "weakest":
        return min(enemies, key=lambda c: cast("Mapping[str, int]", c)[health])
    return enemies[0]
