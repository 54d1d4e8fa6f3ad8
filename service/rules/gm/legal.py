"""What a combatant (or the GM) may send now, with the parameters each choice takes.

One listing serves both the prompts and ``/options``: :func:`awaited` keeps,
of the ruleset's :meth:`Ruleset.prompts`, the action types that have at least
one legal choice, and awaits the game master (``end_combat``) once the fight
is decided or nobody is left to act; :func:`default_legal_actions` lists the
choices of exactly those types. A ruleset refines the parameters of a type
with :meth:`Ruleset.refined_choices` (an empty list: not possible now). Each
parameter is described as ``{"required": bool}`` plus ``choices`` (the legal
values, possibly whole objects), or ``type``/``minimum``/``maximum`` for free
numbers, or ``keys`` for objects whose keys are value names (with ``total``:
integers adding up to it), or ``items`` for an array spec per element. An
action built from the listed parameters (required ones, and any optional ones)
is one the engine accepts: ``tests/unit/gm/test_legal_actions.py`` checks it
with hypothesis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar, cast

from marshmallow import fields, validate

from .. import conditions
from ..ending import decided
from ..state import Awaiting, Combat, Combatant
from .actions import LEFT, PROTECTED

if TYPE_CHECKING:  # ruleset.py imports this module: only its types are needed here
    from ..ruleset import AnyRuleset, Choice

GM = "gm"
COMMON_FIELDS = frozenset({"type", "actor", "dice"})
TARGET_FIELDS = frozenset({"target", "defender", "opponent"})
DYNAMIC_FIELDS = TARGET_FIELDS | {"weapon"}
C = TypeVar("C", bound=Combatant)


def present(state: Combat[C]) -> list[C]:
    return [c for c in state["combatants"] if not conditions.has(c, LEFT)]


def awaited(ruleset: AnyRuleset, state: Combat[Any]) -> list[Awaiting]:
    """The prompts: who the engine waits for, with the action types that have a legal choice now.

    Once the fight is decided (at most one side standing) the game master is
    awaited too, last, to end it (ending.py); what the rules still allow stays
    listed before (a survivor stabilises the dying, sistema-2d6's dying roll
    their death tests), since the engine accepts it.
    """
    return list(awaiting_entries(ruleset, state))


def legal_types(ruleset: AnyRuleset, state: Combat[Any], actor_id: str, types: Sequence[str]) -> list[str]:
    """The ``types`` that have a legal choice for ``actor_id`` now."""
    return [t for t in types if possible(ruleset, state, actor_id, t)]


def awaiting_entries(
    ruleset: AnyRuleset, state: Combat[Any], keep: Callable[..., Sequence[str]] = legal_types
) -> Iterator[Awaiting]:
    """:func:`awaited`, one entry at a time: the simulator, which plays the first, derives no other.

    ``keep(ruleset, state, actor_id, types)``: an entry's types with a legal
    choice (:func:`legal_types`; the simulator's probes only the types its
    tactic asks about); an entry without any is skipped.
    """
    if state["status"] != "active":
        return
    # The engine refuses every action of a combatant who left (engine._check_actor).
    gone = {c["id"] for c in state["combatants"] if conditions.has(c, LEFT)}
    gm: Awaiting | None = None
    any_entry = False
    for entry in ruleset.prompts(state):
        if entry["actor"] == GM:
            gm = entry
            continue
        if entry["actor"] in gone:
            continue
        types = keep(ruleset, state, entry["actor"], entry["actions"])
        if types:
            any_entry = True
            # keep's answer as it is (legal_types: a list): the simulator's reads as a list and
            # probes only the types its tactic asks about; list() here would probe them all.
            yield {**entry, "actions": cast("list[str]", types)}
    reason = decided(ruleset.standing_sides(state))
    if reason or gm or not any_entry:
        # The ruleset's own call on the GM (space-opera-d100's clear_condition when stuck) stays, after end_combat.
        more = [t for t in gm["actions"] if t != "end_combat"] if gm else []
        yield {
            "actor": GM,
            "actions": ["end_combat", *more],
            "reason": reason or (gm.get("reason") if gm else None) or "nobody_can_act",
        }


class _ChoiceFound(Exception):
    """Raised by :func:`describe` while :func:`possible` probes: a first choice exists."""


_probing: ContextVar[bool] = ContextVar("probing_legal_choices", default=False)


def possible(ruleset: AnyRuleset, state: Combat[Any], actor_id: str, action_type: str) -> bool:
    """``actor_id`` has at least one legal choice of ``action_type`` (a type the ruleset does not
    refine always has one).

    The same listing as ``/options``, stopped at its first choice: the prompts
    are computed after every action, and building every choice's parameters
    there made an action 1.5 to 6.6 times slower (bench.simulations).
    """
    token = _probing.set(True)
    try:
        refined = ruleset.refined_choices(state, actor_id, action_type)
    except _ChoiceFound:
        return True
    finally:
        _probing.reset(token)
    return refined is None or bool(refined)


def default_legal_actions(ruleset: AnyRuleset, state: Combat[Any], actor_id: str) -> list[Choice]:
    if state["status"] != "active":
        return []
    if actor_id == GM:
        types = sorted(ruleset.gm_actions - (set() if ruleset.supports_override else {"override"}))
    else:
        types = [t for entry in state.get("awaiting", []) if entry["actor"] == actor_id for t in entry["actions"]]
        types = list(dict.fromkeys(types))
    return [
        {"type": action_type, "params": params}
        for action_type in types
        for params in ruleset.action_choices(state, actor_id, action_type)
    ]


def choice_found() -> None:
    """A listing has found a choice it will describe: while :func:`possible` probes, that answers it.

    :func:`describe` calls it first; a listing calls it itself before building
    a choice's costlier parameters (duel-2d6's seconds of an attack), which a
    probe would build only to throw away.
    """
    if _probing.get():
        raise _ChoiceFound


def describe(ruleset: AnyRuleset, state: Combat[Any], actor_id: str, action_type: str, **refined: Any) -> Choice:
    """Every field of the type's schema, described; ``refined`` replaces some: one legal choice.

    Call it only for a choice the listing returns (a field's own description is
    :func:`field_spec`): :func:`possible` takes the first call for a choice found.
    """
    choice_found()
    described: Choice = {}
    for name, (field, static) in _fields(ruleset, action_type).items():
        # Only targets and weapons depend on the fight; the rest is described once per type.
        described[name] = (
            dict(static)
            if static is not None
            else {"required": field.required, **_dynamic_field(state, actor_id, name, field)}
        )
    for name, spec in refined.items():
        if spec is None:
            described.pop(name, None)
        else:
            described[name] = {"required": described.get(name, {}).get("required", False), **spec}
    return described


_FIELDS: dict[tuple[str, str], dict[str, tuple[fields.Field[Any], dict[str, Any] | None]]] = {}


def _fields(ruleset: AnyRuleset, action_type: str) -> dict[str, tuple[fields.Field[Any], dict[str, Any] | None]]:
    """name -> (field, its description when it does not depend on the fight, else None), built once per type.

    ``/options`` describes the same schema fields for every choice it lists: once is enough.
    """
    key = (ruleset.id, action_type)
    found = _FIELDS.get(key)
    if found is None:
        found = _FIELDS[key] = {
            name: (field, None if name in DYNAMIC_FIELDS else {"required": field.required, **_describe_field(field)})
            for name, field in ruleset.action_schema(action_type).fields.items()
            if name not in COMMON_FIELDS
        }
    return found


def field_spec(ruleset: AnyRuleset, action_type: str, name: str) -> dict[str, Any]:
    """The schema's own description of one field of ``action_type`` (not a target or a weapon), to refine."""
    field, static = _fields(ruleset, action_type)[name]
    assert static is not None, f"{name} depends on the fight: it has no static description"
    return dict(static)


def _dynamic_field(state: Combat[Any], actor_id: str, name: str, field: fields.Field[Any]) -> dict[str, Any]:
    if name in TARGET_FIELDS:
        return {"choices": [c["id"] for c in present(state) if c["id"] != actor_id]}
    if actor_id == GM:
        return _describe_field(field)
    actor = next(c for c in state["combatants"] if c["id"] == actor_id)
    return {"choices": [w["id"] for w in actor["sheet"].get("weapons", [])]}


def _describe_field(field: fields.Field[Any]) -> dict[str, Any]:
    one_of = next((v for v in field.validators if isinstance(v, validate.OneOf)), None)
    if one_of is not None:
        return {"choices": list(one_of.choices)}
    if isinstance(field, fields.Boolean):
        return {"choices": [False, True]}
    if isinstance(field, fields.Integer):
        bounds = next((v for v in field.validators if isinstance(v, validate.Range)), None)
        return {"type": "integer", "minimum": getattr(bounds, "min", None), "maximum": getattr(bounds, "max", None)}
    if isinstance(field, fields.List):
        return {"type": "array"}
    if isinstance(field, (fields.Dict, fields.Nested)):
        return {"type": "object"}
    length = next((v for v in field.validators if isinstance(v, validate.Length)), None)
    if length is not None:
        return {"type": "string", "minLength": length.min, "maxLength": length.max}
    return {"type": "string"}


def _numbers(combatant: Combatant) -> list[str]:
    """The numeric current values of a combatant, as adjustable value names."""
    names: list[str] = []
    for key, value in combatant.items():
        if key in PROTECTED:
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            names.append(key)
        elif isinstance(value, dict):
            names += [f"{key}.{sub}" for sub, v in value.items() if isinstance(v, int) and not isinstance(v, bool)]
    return names


def _conditions(ruleset: AnyRuleset, state: Combat[Any]) -> list[Choice]:
    """Add a rules condition the target lacks, or a narrative one; remove a present one (by code, or by label)."""
    choices: list[Choice] = []
    for c in present(state):
        target = {"required": True, "choices": [c["id"]]}
        # Narrative conditions are named and removed by their label, never by their code.
        codes = {x["code"] for x in c["conditions"]} - {conditions.NARRATIVE}
        labels = sorted({x["label"] for x in c["conditions"] if x["code"] == conditions.NARRATIVE})
        if ruleset.gm_conditions - codes:
            choices.append(
                describe(
                    ruleset,
                    state,
                    GM,
                    "condition",
                    target=target,
                    label=None,
                    remove={"choices": [False]},
                    code={"required": True, "choices": sorted(ruleset.gm_conditions - codes)},
                )
            )
        choices.append(
            describe(
                ruleset,
                state,
                GM,
                "condition",
                target=target,
                code=None,
                modifier=None,
                remove={"choices": [False]},
                label={**field_spec(ruleset, "condition", "label"), "required": True},
            )
        )
        removal = {"target": target, "remove": {"required": True, "choices": [True]}, "rounds": None, "modifier": None}
        if codes:
            choices.append(
                describe(
                    ruleset,
                    state,
                    GM,
                    "condition",
                    **removal,
                    label=None,
                    code={"required": True, "choices": sorted(codes)},
                )
            )
        if labels:
            choices.append(
                describe(
                    ruleset, state, GM, "condition", **removal, code=None, label={"required": True, "choices": labels}
                )
            )
    return choices


def gm_choices(ruleset: AnyRuleset, state: Combat[Any], action_type: str) -> list[Choice]:
    """The parameters of the shared GM actions."""
    ids = [c["id"] for c in present(state)]
    if action_type in ("adjust", "modify", "override", "leave") and not ids:
        return []
    if action_type == "adjust":
        # One choice per combatant: the value names differ between sheets.
        return [
            describe(
                ruleset,
                state,
                GM,
                action_type,
                target={"required": True, "choices": [c["id"]]},
                set={"type": "object"},
                change={"required": True, "type": "object", "keys": _numbers(c)},
            )
            for c in present(state)
            if _numbers(c)
        ]
    if action_type == "condition":
        return _conditions(ruleset, state)
    if action_type in ("adjust", "modify", "override", "leave"):
        return [describe(ruleset, state, GM, action_type, target={"required": True, "choices": ids})]
    if action_type == "join":
        return [
            describe(ruleset, state, GM, action_type, combatant={"required": True, "type": "object", "schema": "sheet"})
        ]
    return [describe(ruleset, state, GM, action_type)]
