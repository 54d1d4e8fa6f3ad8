"""The tour's structure: who must allocate, the end of a tour, the end of the fight."""

from __future__ import annotations

from ..conditions import next_round
from ..ruleset import GM, Resolution
from .health import clear_choc, is_standing
from .tour import Tour


def standing(state: dict) -> list[dict]:
    return [c for c in state["combatants"] if is_standing(c)]


def waiting_for(state: dict) -> list[dict]:
    return [c for c in standing(state) if c["id"] not in state["allocations"]]


def after_allocation(res: Resolution) -> None:
    """The tour resolves by itself once every fighter standing has allocated."""
    if waiting_for(res.state):
        return
    Tour(res).resolve()
    res.state["allocations"] = {}
    # A fight decided in this tour lasted this many tours: no next one begins.
    if not end_if_decided(res):
        next_round(res)


def end_if_decided(res: Resolution) -> bool:
    """With the auto_end option, the fight ends when at most one side stands."""
    sides = {c["side"] for c in standing(res.state)}
    if not res.options["auto_end"] or len(sides) > 1:
        return False
    res.state["status"] = "over"
    res.state["allocations"] = {}
    res.emit("combat_ended", reason="one_side_standing" if sides else "nobody_standing")
    clear_choc(res)
    return True


def awaiting(state: dict) -> list[dict]:
    waiting = [{"actor": c["id"], "actions": ["allocate"], "reason": "allocation"} for c in waiting_for(state)]
    if waiting:
        return waiting
    # Nobody can fight on (auto_end off): only the GM can end the fight.
    return [{"actor": GM, "actions": ["end_combat"], "reason": "nobody_can_act"}]
