"""Dark Earth actions: the fighters' allocations and the GM's table actions."""

from __future__ import annotations

from ..errors import ActionNotAllowed, InvalidAction, RulesError, refusal
from ..ruleset import GM
from ..state import Action
from .allocation import allocate
from .contacts import disengage, engage, in_contact, leave_all
from .health import is_standing, lose_pv
from .state import DarkEarthCombat, DarkEarthCombatant, Res
from .turns import after_allocation, waiting_for


def resolve(res: Res, action: Action) -> None:
    HANDLERS[action["type"]](res, action)


def _allocate(res: Res, action: Action) -> None:
    actor = res.combatant(action["actor"], field="actor")
    res.state["allocations"][actor["id"]] = allocate(res, actor, action)
    waiting = waiting_for(res.state)
    res.emit("allocation_received", combatant=actor["id"], round=res.state["round"], waiting=len(waiting))
    after_allocation(res, waiting)


# What the GM changes only between tours, by what legal.py and the actions call it.
BETWEEN_TOURS = {
    "contacts change": refusal("contacts change only between tours, before the first allocation"),
    "wounds worsen": refusal("wounds worsen only between tours, before the first allocation"),
}


def between_tours_refusal(state: DarkEarthCombat, what: str) -> ActionNotAllowed | None:
    """The GM's table actions come between tours, before the first allocation: legal.py lists with it."""
    if state["allocations"]:
        return ActionNotAllowed(BETWEEN_TOURS[what], field="type")
    return None


def contact_refusal(
    state: DarkEarthCombat, first: DarkEarthCombatant, second: DarkEarthCombatant, engaged: bool
) -> RulesError | None:
    """Why ``first`` and ``second`` may not come into contact (``engaged``) or break off, or None: legal.py too."""
    if first["id"] == second["id"]:
        return InvalidAction(refusal("a fighter cannot be in contact with himself"), field="target")
    touching = second["id"] in in_contact(state, first["id"])
    if engaged:
        if not (is_standing(first) and is_standing(second)):
            return ActionNotAllowed(refusal("only fighters still standing can come into contact"), field="target")
        if touching:
            return ActionNotAllowed(
                refusal(
                    "{combatant} and {target} are already in contact", combatant=first["name"], target=second["name"]
                ),
                field="engaged",
            )
    elif not touching:
        return ActionNotAllowed(
            refusal("{combatant} and {target} are not in contact", combatant=first["name"], target=second["name"]),
            field="engaged",
        )
    return None


def worsen_refusal(target: DarkEarthCombatant) -> ActionNotAllowed | None:
    """Only a grave or critique wound worsens: the GM's action refuses with it, legal.py lists with it."""
    if not target["wound_level"]:
        return ActionNotAllowed(
            refusal("{target} has no grave or critique wound to worsen", target=target["name"]), field="target"
        )
    return None


def _refuse(refusal: RulesError | None) -> None:
    if refusal is not None:
        raise refusal


def _contact(res: Res, action: Action) -> None:
    _refuse(between_tours_refusal(res.state, "contacts change"))
    first = res.combatant(action["combatant"], field="combatant")
    second = res.combatant(action["target"], field="target")
    _refuse(contact_refusal(res.state, first, second, action["engaged"]))
    if action["engaged"]:
        engage(res, first["id"], second["id"], author=GM, reason=action["reason"])
    else:
        disengage(res, first["id"], second["id"], author=GM, reason=action["reason"])


def _worsen_wound(res: Res, action: Action) -> None:
    _refuse(between_tours_refusal(res.state, "wounds worsen"))
    target = res.combatant(action["target"], field="target")
    _refuse(worsen_refusal(target))
    res.emit("wound_worsened", target=target["id"], amount=action["amount"], author=GM, reason=action["reason"])
    # A wound that worsens is no new blow: no CHOC.
    lose_pv(res, target, action["amount"], choc=False)
    if not is_standing(target):
        leave_all(res, target["id"])


HANDLERS = {"allocate": _allocate, "contact": _contact, "worsen_wound": _worsen_wound}
