"""The tour's structure: who must allocate, the end of a tour, the end of the fight."""

from __future__ import annotations

from ..conditions import next_round
from ..ending import ends_now
from ..state import Awaiting
from .allocation import allocator_refusal
from .health import is_standing
from .state import DarkEarthCombat, DarkEarthCombatant, Res
from .tour import Tour


def standing(state: DarkEarthCombat) -> list[DarkEarthCombatant]:
    return [c for c in state["combatants"] if is_standing(c)]


def waiting_for(state: DarkEarthCombat) -> list[DarkEarthCombatant]:
    """Who may still allocate this tour (allocation.allocator_refusal): the tour waits for them."""
    return [c for c in state["combatants"] if allocator_refusal(state, c) is None]


def after_allocation(res: Res, waiting: list[DarkEarthCombatant] | None = None) -> None:
    """The tour resolves by itself once every fighter standing has allocated (``waiting``:
    :func:`waiting_for`, when the caller has it already)."""
    if waiting_for(res.state) if waiting is None else waiting:
        return
    Tour(res).resolve()
    res.state["allocations"] = {}
    # A fight decided in this tour lasted this many tours: no next one begins.
    if not ends_now(res, {c["side"] for c in standing(res.state)}):
        next_round(res)


def awaiting(state: DarkEarthCombat) -> list[Awaiting]:
    return [{"actor": c["id"], "actions": ["allocate"], "reason": "allocation"} for c in waiting_for(state)]
