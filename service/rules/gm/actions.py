"""Resolving the game master's shared actions against any ruleset.

Every handler logs its own events with ``author="gm"``; what a change means
under a ruleset's rules (a PV value at 0, a newcomer's initiative) is left to
that ruleset's hooks, and :meth:`Ruleset.settle` puts its turn structure back
in order afterwards (someone left, someone is out).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

from .. import conditions
from ..errors import ActionNotAllowed, InvalidAction, InvalidInput, Refusal, refusal
from ..resolution import GM, AnyResolution
from ..state import Action, Combatant
from .schemas import MAX_VALUE

if TYPE_CHECKING:
    from ..ruleset import AnyRuleset

STATUS_OVER: Final = "over"
# Values a GM adjustment never touches: identity, the sheet, and conditions
# (those go through the `condition` action, with their durations).
PROTECTED = frozenset({"id", "name", "side", "sheet", "conditions"})
LEFT = conditions.LEFT


def resolve(ruleset: AnyRuleset, res: AnyResolution, action: Action) -> None:
    HANDLERS[action["type"]](ruleset, res, action)
    if action["type"] != "end_combat" and res.state["status"] != STATUS_OVER:
        ruleset.settle(res)


def end_combat(ruleset: AnyRuleset, res: AnyResolution, action: Action) -> None:
    res.state["status"] = STATUS_OVER
    res.emit("combat_ended", author=GM, reason=action.get("reason"))
    ruleset.on_combat_end(res)


# -- adjust ------------------------------------------------------------------------------------


def _slot(combatant: Combatant, path: str, field: str) -> tuple[dict[str, Any], str]:
    """The dict holding ``path``'s value and its key there."""
    key, _, sub = path.partition(".")
    if key in PROTECTED:
        raise InvalidAction(
            refusal("'{key}' cannot be adjusted (conditions go through the 'condition' action)", key=key), field=field
        )
    if key not in combatant:
        known = ", ".join(sorted(k for k in combatant if k not in PROTECTED))
        raise InvalidAction(
            refusal("{target} has no value '{key}'; one of: {known}", target=combatant["name"], key=key, known=known),
            field=field,
        )
    values = cast("dict[str, Any]", combatant)  # adjusted by name: any key of the ruleset's
    if not sub:
        return values, key
    holder = values[key]
    if not isinstance(holder, dict) or sub not in holder:
        if not isinstance(holder, dict):
            raise InvalidAction(refusal("'{key}' has no entries", key=key), field=field)
        known = ", ".join(sorted(holder))
        raise InvalidAction(
            refusal("'{key}' has no entry '{sub}'; one of: {known}", key=key, sub=sub, known=known), field=field
        )
    return holder, sub


# A value's kind in a refusal's words (the GM adjusts null, flags, whole numbers and texts).
KINDS = {bool: refusal("true/false"), int: refusal("whole number"), str: refusal("text"), type(None): refusal("null")}


def _kind(value: object) -> Refusal:
    return KINDS.get(type(value), refusal("another kind"))


def _same_kind(old: object, new: object) -> bool:
    """Whether ``new`` may replace ``old``: the same kind; null where there was null or a text
    (a weapon in hand, a name), and anything where there was null. Never a group of values."""
    if isinstance(new, dict | list):
        return False
    if old is None:
        return True
    if new is None:
        return isinstance(old, str)
    if isinstance(old, bool) or isinstance(new, bool):
        return isinstance(old, bool) and isinstance(new, bool)
    if isinstance(old, int):
        return isinstance(new, int)
    return type(old) is type(new)


def adjust(ruleset: AnyRuleset, res: AnyResolution, action: Action) -> None:
    # age-du-silicium's adjust still takes the older name 'combatant'; refusals name what was sent.
    target = res.combatant(action["target"], field="combatant" if action.get("combatant") else "target")
    changes: dict[str, object] = {}  # path -> its value before this action
    for kind in ("set", "change"):
        for path, value in action[kind].items():
            field = f"{kind}.{path}"
            holder, key = _slot(target, path, field)
            old = holder[key]
            if kind == "change":
                if not isinstance(old, int) or isinstance(old, bool):
                    raise InvalidAction(refusal("'{path}' is not a number; use 'set'", path=path), field=field)
                value = old + value
                if abs(value) > MAX_VALUE:
                    raise InvalidAction(
                        refusal(
                            "'{path}' would become {value}, beyond ±{limit}", path=path, value=value, limit=MAX_VALUE
                        ),
                        field=field,
                    )
            elif isinstance(old, dict | list):
                # A group of values (a ruleset's round counters, items): set its entries one by one.
                raise InvalidAction(
                    refusal("'{path}' holds several values: set one of them, as '{path}.<entry>'", path=path),
                    field=field,
                )
            elif not _same_kind(old, value):
                raise InvalidAction(
                    refusal(
                        "'{path}' holds {old_kind} values, not {new_kind}",
                        path=path,
                        old_kind=_kind(old),
                        new_kind=_kind(value),
                    ),
                    field=field,
                )
            ruleset.check_value(target, path, value, field)
            holder[key] = value
            changes.setdefault(path, old)
            res.emit(
                "value_adjusted",
                target=target["id"],
                value=path,
                old=old,
                new=value,
                author=GM,
                reason=action["reason"],
            )
    did_more = ruleset.adjusted(res, target, action, changes)
    if not changes and not did_more:
        raise InvalidAction(refusal("nothing to adjust: give 'set' or 'change'"), field="set")


# -- modifiers, overrides, conditions ------------------------------------------------------------


def modify(ruleset: AnyRuleset, res: AnyResolution, action: Action) -> None:
    target = _present(res, action)
    lasting = {"rounds": action["rounds"]} if action["rounds"] else {"until": conditions.NEXT_ROLL}
    conditions.add(
        res,
        target,
        conditions.MODIFIER,
        source=GM,
        modifiers={"roll": action["value"]},
        stacks=True,
        reason=action["reason"],
        **lasting,
    )
    res.emit(
        "modifier_applied",
        target=target["id"],
        value=action["value"],
        rounds=action["rounds"],
        author=GM,
        reason=action["reason"],
    )


def override(ruleset: AnyRuleset, res: AnyResolution, action: Action) -> None:
    if not ruleset.supports_override:
        raise ActionNotAllowed(
            refusal("{ruleset} rolls have no success or failure to override; use modify or adjust", ruleset=ruleset.id),
            field="type",
        )
    target = _present(res, action)
    conditions.add(
        res,
        target,
        conditions.OVERRIDE,
        source=GM,
        until=conditions.NEXT_ROLL,
        stacks=True,
        result=action["result"],
        reason=action["reason"],
    )
    res.emit("result_overridden", target=target["id"], result=action["result"], author=GM, reason=action["reason"])


def condition(ruleset: AnyRuleset, res: AnyResolution, action: Action) -> None:
    target = res.combatant(action["target"])
    if action["label"] is not None:
        _narrative(res, target, action)
        return
    code = action["code"]
    if code == conditions.NARRATIVE:
        raise InvalidAction(
            refusal("a narrative condition is named by its label: give 'label' instead of 'code'"), field="code"
        )
    if action["remove"]:
        if not conditions.remove(target, code):
            raise ActionNotAllowed(
                refusal("{target} has no condition '{condition}'", target=target["name"], condition=code), field="code"
            )
        res.emit("condition_removed", target=target["id"], condition=code, author=GM, reason=action["reason"])
        ruleset.condition_changed(res, target, code, added=False)
        return
    if code not in ruleset.gm_conditions:
        known = ", ".join(sorted(ruleset.gm_conditions))
        raise InvalidAction(
            refusal(
                "{ruleset} has no condition '{code}' the GM may add; one of: {known} "
                "(or a narrative condition, with no effect on the rules: give 'label' instead of 'code')",
                ruleset=ruleset.id,
                code=code,
                known=known,
            ),
            field="code",
        )
    modifiers = {"roll": action["modifier"]} if action["modifier"] else {}
    if not conditions.add(res, target, code, source=GM, rounds=action["rounds"], modifiers=modifiers):
        raise ActionNotAllowed(
            refusal("{target} is already {condition}", target=target["name"], condition=code), field="code"
        )
    res.emit(
        "condition_added",
        target=target["id"],
        condition=code,
        rounds=action["rounds"],
        author=GM,
        reason=action["reason"],
    )
    ruleset.condition_changed(res, target, code, added=True)


def _narrative(res: AnyResolution, target: Combatant, action: Action) -> None:
    """A narrative condition: code ``narrative`` (no rule ever reads it), the GM's ``label``."""
    label = action["label"]
    mine = [c for c in target["conditions"] if c["code"] == conditions.NARRATIVE and c["label"] == label]
    if action["remove"]:
        if not mine:
            raise ActionNotAllowed(
                refusal("{target} has no narrative condition '{label}'", target=target["name"], label=label),
                field="label",
            )
        target["conditions"] = [c for c in target["conditions"] if c not in mine]
        res.emit("narrative_condition_removed", target=target["id"], label=label, author=GM, reason=action["reason"])
        return
    # Marking again with the same label starts it over (its new duration), as a VTT's status effect does.
    target["conditions"] = [c for c in target["conditions"] if c not in mine]
    conditions.add(res, target, conditions.NARRATIVE, source=GM, rounds=action["rounds"], stacks=True, label=label)
    res.emit(
        "narrative_condition_added",
        target=target["id"],
        label=label,
        rounds=action["rounds"],
        author=GM,
        reason=action["reason"],
    )


def _present(res: AnyResolution, action: Action) -> Combatant:
    target = res.combatant(action["target"])
    if conditions.has(target, LEFT):
        raise ActionNotAllowed(refusal("{target} has left the fight", target=target["name"]), field="target")
    return target


# -- joining and leaving -------------------------------------------------------------------------


def join(ruleset: AnyRuleset, res: AnyResolution, action: Action) -> None:
    try:
        sheet = ruleset.load_sheet(action["combatant"])
    except InvalidInput as error:
        raise InvalidInput({"combatant": error.messages}) from None
    if sheet["id"] == GM or any(c["id"] == sheet["id"] for c in res.state["combatants"]):
        raise InvalidInput({"combatant": {"id": [f"{sheet['id']!r} is already used; ids must be unique and not 'gm'"]}})
    newcomer = ruleset.new_combatant(sheet, res.options)
    res.state["combatants"].append(newcomer)
    res.emit("joined", combatant=newcomer["id"], side=newcomer["side"], author=GM, reason=action["reason"])
    ruleset.on_join(res, newcomer)


def leave(ruleset: AnyRuleset, res: AnyResolution, action: Action) -> None:
    target = _present(res, action)
    conditions.add(res, target, LEFT, source=GM, how=action["how"])
    res.emit("left_fight", target=target["id"], how=action["how"], author=GM, reason=action["reason"])
    ruleset.on_leave(res, target)


HANDLERS: dict[str, Callable[[AnyRuleset, AnyResolution, Action], None]] = {
    "end_combat": end_combat,
    "adjust": adjust,
    "modify": modify,
    "override": override,
    "condition": condition,
    "join": join,
    "leave": leave,
}
