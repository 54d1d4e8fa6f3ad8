"""Who decides each field of an action: the acting combatant, the combatant
who answers, or the game master (docs/security.md, "Who decides what").

Each ruleset declares the owner of a field next to its schema, in the field's
metadata (:func:`gm_decides`, :func:`answered_by`; absent: the acting
combatant; a field inside a nested object: the owner of that object). The
keys start with ``x_`` so apispec publishes them as ``x-decided-by`` and
``x-rule`` in the action's JSON Schema. The engine calls :func:`check` once
per action, for every ruleset, before the rules resolve it.

A field counts as set when its loaded value differs from the field's
default: sending the default decides nothing, so a typed client that sends
every field keeps working, and a required field is always set.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from marshmallow import Schema, fields, missing

from .errors import NotYourDecision, Refusal, refusal
from .viewer import Viewer

if TYPE_CHECKING:  # ruleset.py imports this module: only its type is needed here
    from .ruleset import AnyRuleset

Field = fields.Field[Any]
JSON = Mapping[str, Any]

ACTOR, GM = "actor", "gm"
OWNER_KEY, RULE_KEY = "x_decided_by", "x_rule"
COMMON_FIELDS = frozenset({"type", "actor", "dice"})  # the actor's own; dice have their own rule


def gm_decides(rule: str) -> dict[str, str]:
    """Field metadata: only the game master's token may set this field; ``rule`` says why, from the seed."""
    return {OWNER_KEY: GM, RULE_KEY: rule}


def answered_by(field: str, rule: str) -> dict[str, str]:
    """Field metadata: the combatant the action's ``field`` names answers this (an inline defense)."""
    return {OWNER_KEY: field, RULE_KEY: rule}


def owner_of(field: Field, inherited: str = ACTOR) -> str:
    owner: str = field.metadata.get(OWNER_KEY, inherited)
    return owner


def owners(schema: Schema, inherited: str = ACTOR, prefix: str = "") -> dict[str, str]:
    """JSON path -> owner of every field a client may send (nested objects included), for GET /rulesets/{id}."""
    found = {}
    for name, field in schema.fields.items():
        key = field.data_key or name
        if not prefix and key in COMMON_FIELDS:
            continue
        owner = owner_of(field, inherited)
        found[prefix + key] = owner
        if isinstance(field, fields.Nested) and not field.many:
            found.update(owners(field.schema, owner, f"{prefix}{key}."))
    return found


def published(ruleset: AnyRuleset) -> dict[str, dict[str, str]]:
    """Action type -> JSON path -> owner ("actor", "gm", or the field naming who answers), for GET /rulesets/{id}.

    Every field of a game-master action is the GM's."""
    return {
        action_type: owners(ruleset.action_schema(action_type), GM if action_type in ruleset.gm_only_actions else ACTOR)
        for action_type in ruleset.all_action_schemas
    }


def check(ruleset: AnyRuleset, state: JSON, action: JSON, caller: Viewer) -> None:
    """Refuse (NotYourDecision, 403) an action whose caller set a field that is not theirs.

    The GM decides everything; a player acts for the combatants their token
    controls, and answers only for them."""
    if caller.gm:
        return
    names = {c["id"]: c["name"] for c in state["combatants"]}
    actor = action["actor"]
    if action["type"] in ruleset.gm_only_actions:
        raise NotYourDecision(
            refusal("{type} is a game-master action; send it with the GM's token", type=action["type"]), field="type"
        )
    if not caller.controls(actor):
        raise NotYourDecision(
            refusal(
                "only the player of {actor} or the game master may act for this combatant", actor=actor, names=names
            ),
            field="actor",
        )
    for path, field, owner in _decisions(ruleset.action_schema(action["type"]), action, ACTOR, ""):
        answering = answerer(owner, action)
        if not allowed(owner, caller, actor, answering):
            raise NotYourDecision(_refusal(path, field, owner, answering, names), field=path)


def _decisions(schema: Schema, data: JSON, inherited: str, prefix: str) -> Iterator[tuple[str, Field, str]]:
    """The fields ``data`` sets (not left at their default), outer ones first, with their owner."""
    for name, field in schema.fields.items():
        key = field.data_key or name
        attribute = field.attribute or name
        if (not prefix and key in COMMON_FIELDS) or attribute not in data or not is_set(field, data[attribute]):
            continue
        owner = owner_of(field, inherited)
        yield prefix + key, field, owner
        if isinstance(field, fields.Nested) and not field.many and isinstance(data[attribute], Mapping):
            yield from _decisions(field.schema, data[attribute], owner, f"{prefix}{key}.")


def is_set(field: Field, value: object) -> bool:
    """Does ``value`` decide something: is it other than what the field takes when absent?"""
    default = field.load_default
    if default is missing:
        return True
    return bool(value != (default() if callable(default) else default))


def answerer(owner: str, action: JSON) -> str | None:
    """The combatant who answers a field of this owner: the one the action's field ``owner`` names."""
    return None if owner in (ACTOR, GM) else action.get(owner)


def allowed(owner: str, caller: Viewer, actor: str, answering: str | None) -> bool:
    """May ``caller`` set a field of this owner, in an action of ``actor`` that ``answering`` answers?"""
    if caller.gm:
        return True
    if owner == GM:
        return False
    controlled = actor if owner == ACTOR else answering
    return controlled is not None and caller.controls(controlled)


def offered(ruleset: AnyRuleset, listing: list[dict[str, Any]], caller: Viewer) -> list[dict[str, Any]]:
    """The legal actions (``{"type", "params"}``) with only the parameters ``caller`` may set.

    A parameter the GM decides is left out; an inline answer stays only when
    the caller controls every combatant the choice may target. A choice that
    needs a parameter the caller may not set is left out whole: the caller
    cannot send it (the GM can, or the answering combatant answers later)."""
    if caller.gm:
        return listing
    kept = []
    for entry in listing:
        fields_ = ruleset.action_schema(entry["type"]).fields
        params = {}
        for name, spec in entry["params"].items():
            owner = owner_of(fields_[name]) if name in fields_ else ACTOR
            if _may_offer(owner, caller, entry["params"]):
                params[name] = spec
            elif spec.get("required"):
                break
        else:
            kept.append({**entry, "params": params})
    return kept


def _may_offer(owner: str, caller: Viewer, params: JSON) -> bool:
    if owner in (ACTOR, GM):
        return owner == ACTOR
    answering = params.get(owner, {}).get("choices")
    return bool(answering) and all(caller.controls(combatant) for combatant in answering)


def _refusal(path: str, field: Field, owner: str, combatant: str | None, names: Mapping[str, str]) -> Refusal:
    """Why the caller may not set ``path``, with the rule that says who does (a refusal itself, in
    its ruleset's catalogue, where the ruleset wrote it with ``refusal``)."""
    rule = field.metadata.get(RULE_KEY)
    if owner == GM:
        return refusal(
            "{field} is the game master's to set[rule? ({rule})]; send it with the GM's token", field=path, rule=rule
        )
    if combatant is None:
        return refusal(
            "{field} is for the combatant named by {owner} to decide[rule? ({rule})]; "
            "name that combatant, or send it with the GM's token",
            field=path,
            owner=owner,
            rule=rule,
        )
    return refusal(
        "{field} is for {combatant} to decide[rule? ({rule})]: send it with the token of {combatant} "
        "or the GM's, or leave it out and let {combatant} answer",
        field=path,
        combatant=combatant,
        rule=rule,
        names=names,
    )
