"""Dark Earth actions: the fighters' allocations and the GM's table actions."""

from __future__ import annotations

from ..errors import ActionNotAllowed, InvalidAction
from ..ruleset import GM
from ..state import Action
from .allocation import allocate
from .contacts import disengage, engage, in_contact, leave_all
from .health import is_standing, lose_pv
from .state import Res
from .turns import after_allocation, waiting_for


def resolve(res: Res, action: Action) -> None:
    HANDLERS[action["type"]](res, action)


def _allocate(res: Res, action: Action) -> None:
    actor = res.combatant(action["actor"], field="actor")
    res.state["allocations"][actor["id"]] = allocate(res, actor, action)
    waiting = waiting_for(res.state)
    res.emit("allocation_received", combatant=actor["id"], round=res.state["round"], waiting=len(waiting))
    after_allocation(res, waiting)


def _between_tours(res: Res, what: str) -> None:
    if res.state["allocations"]:
        raise ActionNotAllowed(f"{what} only between tours, before the first allocation", field="type")


def _contact(res: Res, action: Action) -> None:
    _between_tours(res, "contacts change")
    first = res.combatant(action["combatant"], field="combatant")
    second = res.combatant(action["target"], field="target")
    if first is second:
        raise InvalidAction("a fighter cannot be in contact with himself", field="target")
    if action["engaged"]:
        if not (is_standing(first) and is_standing(second)):
            raise ActionNotAllowed("only fighters still standing can come into contact", field="target")
        if second["id"] in in_contact(res.state, first["id"]):
            raise ActionNotAllowed(f"{first['name']} and {second['name']} are already in contact", field="engaged")
        engage(res, first["id"], second["id"], author=GM, reason=action["reason"])
    else:
        if second["id"] not in in_contact(res.state, first["id"]):
            raise ActionNotAllowed(f"{first['name']} and {second['name']} are not in contact", field="engaged")
        disengage(res, first["id"], second["id"], author=GM, reason=action["reason"])


def _worsen_wound(res: Res, action: Action) -> None:
    _between_tours(res, "wounds worsen")
    target = res.combatant(action["target"], field="target")
    if not target["wound_level"]:
        raise ActionNotAllowed(f"{target['name']} has no grave or critique wound to worsen", field="target")
    res.emit("wound_worsened", target=target["id"], amount=action["amount"], author=GM, reason=action["reason"])
    # A wound that worsens is no new blow: no CHOC.
    lose_pv(res, target, action["amount"], choc=False)
    if not is_standing(target):
        leave_all(res, target["id"])


HANDLERS = {"allocate": _allocate, "contact": _contact, "worsen_wound": _worsen_wound}
