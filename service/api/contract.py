"""What apispec and flask-smorest cannot say of the OpenAPI document by themselves.

What a route can say, it says in its decorators: its credentials
(``@blp.doc(security=...)``), its answers, the workflow's links
(``combats.next_steps``). What is left here is derived, so that a new
endpoint, action type, field or event code shows up typed without editing
this module:

- problem responses, from an operation's shape (a body: 400 and 422; a
  bearer token: 401, and 403 unless the read is only filtered; a resource in
  the path: 404...): one rule, rather than the same alt_response on every
  route; and ``security: []`` on a route that declares none (public);
- each ruleset's unions, from the registry: its actions discriminated by
  ``type`` (``Sistema2d6Action``), its events by ``code``, its legal actions
  (``/options``) by ``type``, each parameter's choices typed as the action's
  own field, its answers (combat, action result, log, options) one schema per
  ruleset. Marshmallow has no union, and these are built per installed ruleset;
- what apispec converts loosely (``tighten``): a free dict typed as a
  component (``TYPED_AS``: a field cannot carry a bare ``$ref``), a dict's size
  (apispec writes ``maxLength``), a nullable nested object or choice (OpenAPI
  3.0 pairs ``nullable`` with a ``type``), a request field's default said in
  words (openapi-typescript would make it a required field), and the
  components no operation uses (flask-smorest's pagination, the shared
  schemas every ruleset replaced).
"""

from __future__ import annotations

import copy
import json
import re
import string

from apispec import BasePlugin

from ..rules.gm.legal import COMMON_FIELDS
from . import limits

PROBLEM_JSON = "application/problem+json"
SCHEMAS = "#/components/schemas/"
# Field metadata: a free dict the document types as this component (an action in an odds request).
TYPED_AS = "x-typed-as"

# name -> (status, description, headers the answer carries)
PROBLEMS = {
    "BadRequest": (400, "The body is not valid JSON.", {}),
    "Unauthorized": (401, "No token, or a token this combat does not know.", {"WWW-Authenticate": "Bearer"}),
    "Forbidden": (403, "The token may not do this (another combatant's action, a game-master action...).", {}),
    "NotFound": (404, "Nothing by that id: it never existed, was deleted, or expired.", {}),
    "Conflict": (
        409,
        "The rules refuse the action now, or the combat kept changing, or the same Idempotency-Key is in flight.",
        {},
    ),
    "PreconditionFailed": (
        412,
        "If-Match names another version; ETag carries the current one.",
        {"ETag": "The combat's current version."},
    ),
    "UnprocessableContent": (422, "A field is invalid: `errors` has a JSON Pointer and a reason for each.", {}),
    "TooManyRequests": (429, "The deployment's rate limit is reached.", {"Retry-After": "Seconds to wait."}),
    "ServiceUnavailable": (
        503,
        "The combat store does not answer; nothing was changed.",
        {"Retry-After": "Seconds to wait."},
    ),
}
BODY_ERRORS = ("BadRequest", "UnprocessableContent")
# Reads that every token of the combat may make: filtered for the caller, never refused (no 403).
FILTERED_READS = frozenset({"getCombat", "listEvents", "streamCombat"})
STORELESS_PATHS = ("/healthz", "/rulesets", "/version")


# Every problem carries it: title and detail are in the reader's language (service/api/reader.py).
CONTENT_LANGUAGE = {
    "Content-Language": (
        "The language of title and detail: the request's Accept-Language when the service speaks it "
        "(en, fr, pt; pt-BR is pt), else the combat's, else en. Answered as en, fr or pt-BR."
    )
}


def register_problem_responses(spec) -> None:
    for name, (_, description, own_headers) in PROBLEMS.items():
        headers = {**own_headers, **CONTENT_LANGUAGE}
        spec.components.response(
            name,
            {
                "description": description,
                "content": {PROBLEM_JSON: {"schema": {"$ref": SCHEMAS + "Problem"}}},
                **(
                    {"headers": {h: {"description": d, "schema": {"type": "string"}} for h, d in headers.items()}}
                    if headers
                    else {}
                ),
            },
        )


class ContractPlugin(BasePlugin):
    """The problem responses of every operation, from its shape; ``security: []`` on those that declare none."""

    def operation_helper(self, path=None, operations=None, **kwargs):
        for operation in (operations or {}).values():
            # Each route declares its credentials (@blp.doc(security=...)); one that declares none is public.
            operation.setdefault("security", [])
            # flask-smorest keys responses by int; apispec turns them into strings later.
            responses = operation.setdefault("responses", {})
            for status in [key for key in responses if isinstance(key, int)]:
                responses[str(status)] = responses.pop(status)
            for name in _problems_of(path, operation):
                status = str(PROBLEMS[name][0])
                if status not in responses:
                    responses[status] = name


def _problems_of(path: str, operation: dict) -> list[str]:
    names: list[str] = []
    if "requestBody" in operation:
        names += BODY_ERRORS
    if any(s.get("bearer") is not None for s in operation["security"]):
        names += ["Unauthorized"] if operation.get("operationId") in FILTERED_READS else ["Unauthorized", "Forbidden"]
    elif any("apiKey" in s for s in operation["security"]):
        names.append("Unauthorized")
    if "{" in path:
        names.append("NotFound")
    headers = {p.get("name") for p in operation.get("parameters", []) if isinstance(p, dict)}
    if "If-Match" in headers:
        names.append("PreconditionFailed")
    if "If-Match" in headers or "Idempotency-Key" in headers:
        names.append("Conflict")
    if not path.startswith(limits.UNLIMITED_PREFIXES):
        names.append("TooManyRequests")
    if not path.startswith(STORELESS_PATHS):
        names.append("ServiceUnavailable")
    return names


# -- the action unions -----------------------------------------------------------------


def action_union(spec, prefix: str, actions: dict[str, str], sheet: str) -> str:
    """``{prefix}Action``: the ruleset's actions, discriminated by ``type``.

    ``actions`` maps each action type to its component; the component's ``type``
    becomes that single value. The shared ``join`` takes the ruleset's own sheet.
    """
    schemas = spec.components.schemas
    mapping = {}
    for action_type, component in sorted(actions.items()):
        body = schemas[component]
        combatant = body["properties"].get("combatant", {})
        if action_type == "join" and "$ref" not in combatant and combatant.get("type") == "object":
            if not component.startswith(prefix):  # the shared one: this ruleset gets its own copy
                component = prefix + component.removeprefix("Gm")
                body = copy.deepcopy(body)
                spec.components.schema(component, copy.deepcopy(body))
                body = schemas[component]
            body["properties"]["combatant"] = {
                "allOf": [{"$ref": SCHEMAS + sheet}],
                "description": combatant.get("description", ""),
            }
        declared = body["properties"]["type"].get("enum")
        assert declared in (None, [action_type]), f"{component} is used for two action types"
        body["properties"]["type"] = {"type": "string", "enum": [action_type]}
        mapping[action_type] = SCHEMAS + component
    name = prefix + "Action"
    _discriminated(spec, name, "type", mapping, f"An action of a {prefix} combat, told apart by its `type`.")
    return name


# -- answers, by ruleset -------------------------------------------------------------------


def split_by_ruleset(
    spec, name: str, prefixes: dict[str, str], shape=None, discriminated: bool = False, suffix: str | None = None
) -> None:
    """``name`` becomes a union of one component per ruleset (``{prefix}{suffix}``, ``suffix`` being ``name``
    unless given: a ruleset's ``Options`` are its creation options, so ``/options``' answer is ``ActionOptions``).

    Each copy refers to the per-ruleset components split before it (a
    ``Sistema2d6ActionResult`` holds a ``Sistema2d6Combat``); ``shape(body,
    ruleset_id, prefix)`` narrows its own fields. ``discriminated``: the union is
    told apart by the answer's own ``ruleset``.
    """
    schemas = spec.components.schemas
    core, mapping, suffix = schemas[name], {}, suffix or name
    for ruleset_id, prefix in prefixes.items():
        body = _prefixed_refs(copy.deepcopy(core), prefix, schemas)
        if shape is not None:
            shape(body, ruleset_id, prefix)
        spec.components.schema(prefix + suffix, body)
        mapping[ruleset_id] = SCHEMAS + prefix + suffix
    schemas[name] = {
        "anyOf": [{"$ref": ref} for ref in mapping.values()],
        **({"discriminator": {"propertyName": "ruleset", "mapping": mapping}} if discriminated else {}),
        "description": f"One schema per ruleset{', told apart by `ruleset`' if discriminated else ''}: "
        + ", ".join(prefix + suffix for prefix in prefixes.values())
        + ".",
    }


def _prefixed_refs(node, prefix: str, schemas: dict):
    """Refer to the ruleset's own version of a component wherever one exists."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(SCHEMAS) and prefix + ref[len(SCHEMAS) :] in schemas:
            return {**node, "$ref": SCHEMAS + prefix + ref[len(SCHEMAS) :]}
        return {key: _prefixed_refs(value, prefix, schemas) for key, value in node.items()}
    if isinstance(node, list):
        return [_prefixed_refs(item, prefix, schemas) for item in node]
    return node


def combat_of_ruleset(body: dict, ruleset_id: str, prefix: str) -> None:
    body["properties"]["ruleset"] = {"type": "string", "enum": [ruleset_id]}


def event_union(spec, prefix: str, templates: dict[str, str]) -> None:
    """``{prefix}Event``: one schema per event code of the ruleset, discriminated by ``code``.

    ``templates`` are the English sentences by code: their placeholders name the
    params the sentence shows (any JSON value: a param's name does not fix its
    type, e.g. ``target`` is a combatant or a number to reach).
    """
    core, mapping = spec.components.schemas["Event"], {}
    # A key "code.flag" is a variant of the code's sentence (service/rules/events.py): one schema per
    # code, with the params any of its sentences shows.
    shown: dict[str, set[str]] = {}
    for key, template in templates.items():
        shown.setdefault(key.split(".")[0], set()).update(_placeholders(template))
    for code, names in sorted(shown.items()):
        body = copy.deepcopy(core)
        body["properties"]["code"] = {"type": "string", "enum": [code]}
        params = {name: {"description": f"Shown in the sentence as {{{name}}}."} for name in sorted(names)}
        body["properties"]["params"] = {**body["properties"]["params"], "properties": params}
        name = f"{prefix}Event{''.join(part.capitalize() for part in code.split('_'))}"
        spec.components.schema(name, body)
        mapping[code] = SCHEMAS + name
    _discriminated(spec, prefix + "Event", "code", mapping, f"An event of a {prefix} combat, told apart by its `code`.")


# -- the legal actions (/options), by ruleset --------------------------------------------

LEGAL_PARAM = "LegalParam"
# What gm/legal.py says of a parameter besides its choices (an array parameter's items: per field).
LEGAL_PARAM_SCHEMA = {
    "type": "object",
    "required": ["required"],
    "description": "One parameter of a legal action: `choices` (its legal values), or a free value described by "
    "`type` and its bounds, or `keys` (value names; with `total`, integers adding up to it), or `items` (an "
    "array's values, one spec per element), or `schema: sheet` (a whole combatant sheet of the ruleset).",
    "properties": {
        "required": {"type": "boolean", "description": "The action needs this parameter."},
        "type": {"type": "string", "description": "The JSON type of a free value: integer, string, object, array."},
        "minimum": {"type": "integer", "nullable": True},
        "maximum": {"type": "integer", "nullable": True},
        "minLength": {"type": "integer", "nullable": True},
        "maxLength": {"type": "integer", "nullable": True},
        "keys": {"type": "array", "items": {"type": "string"}, "description": "The value names an object may hold."},
        "total": {"type": "integer", "description": "What the integers under `keys` must add up to."},
        "schema": {"type": "string", "enum": ["sheet"], "description": "The value is a sheet of the ruleset."},
    },
}
# What a field's schema says that its choices' schema need not repeat.
_NOT_OF_A_VALUE = ("description", "default", "x-decided-by", "x-rule")


def legal_action_union(spec, prefix: str) -> None:
    """``{prefix}LegalAction``: each action type of ``{prefix}Action`` with its parameters, discriminated by ``type``.

    A parameter is a field of the action's own component (not ``type``,
    ``actor``, ``dice``): its ``choices`` are typed as that field, so that a
    client builds a typed action from them. Call after :func:`action_union`.
    """
    schemas = spec.components.schemas
    if LEGAL_PARAM not in schemas:
        spec.components.schema(LEGAL_PARAM, copy.deepcopy(LEGAL_PARAM_SCHEMA))
    mapping = {}
    for action_type, ref in sorted(schemas[prefix + "Action"]["discriminator"]["mapping"].items()):
        fields = schemas[ref[len(SCHEMAS) :]]["properties"]
        params = {name: _legal_param(field) for name, field in fields.items() if name not in COMMON_FIELDS}
        name = f"{prefix}{''.join(part.capitalize() for part in action_type.split('_'))}LegalAction"
        spec.components.schema(
            name,
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["params", "type"],
                "properties": {
                    "type": {"type": "string", "enum": [action_type]},
                    "params": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": params,
                        "description": "The parameters to send, each with its legal values or bounds.",
                    },
                },
            },
        )
        mapping[action_type] = SCHEMAS + name
    description = f"A legal action of a {prefix} combat, told apart by its `type`."
    _discriminated(spec, prefix + "LegalAction", "type", mapping, description)


def _legal_param(field: dict) -> dict:
    value = {key: item for key, item in copy.deepcopy(field).items() if key not in _NOT_OF_A_VALUE}
    if list(value) == ["allOf"] and len(value["allOf"]) == 1:  # a described $ref (join's sheet), undescribed
        value = value["allOf"][0]
    typed: dict = {"choices": {"type": "array", "items": value, "description": "The legal values."}}
    if field.get("type") == "array" and "items" in field:
        element = {"type": "array", "items": copy.deepcopy(field["items"])}
        typed["items"] = {
            "type": "array",
            "description": "The legal values of each element, in order.",
            "items": {"type": "object", "properties": {"choices": element}},
        }
    return {"allOf": [{"$ref": SCHEMAS + LEGAL_PARAM}, {"type": "object", "properties": typed}]}


def _discriminated(spec, name: str, prop: str, mapping: dict[str, str], description: str) -> None:
    # anyOf, not oneOf: the single-value types already exclude each other, and a
    # validator (or a fuzzer's generator) would check every branch to prove "only one".
    spec.components.schema(
        name,
        {
            "anyOf": [{"$ref": ref} for ref in mapping.values()],
            "discriminator": {"propertyName": prop, "mapping": mapping},
            "description": description,
        },
    )


def _placeholders(template: str) -> list[str]:
    # The param's name, without the attribute or index the format syntax allows after it.
    names = (re.split(r"\W", field, maxsplit=1)[0] for _, field, _, _ in string.Formatter().parse(template) if field)
    return sorted(set(names))


# -- tightening what marshmallow converts loosely -----------------------------------------


def tighten(spec) -> None:
    schemas = spec.components.schemas
    for body in schemas.values():
        _walk(body, _tighten_node)
    document = spec.to_dict()
    operations = [op for item in document["paths"].values() for op in item.values() if isinstance(op, dict)]
    for name in _reachable(schemas, _refs([op.get("requestBody") for op in operations])):
        _walk(schemas[name], _default_in_words)
    # What no operation uses (a shared schema every ruleset replaced, flask-smorest's pagination).
    used = _reachable(schemas, _refs([operations, document["components"].get("responses")]))
    for name in set(schemas) - used:
        del schemas[name]


def _walk(node, visit) -> None:
    if isinstance(node, dict):
        visit(node)
        for value in node.values():
            _walk(value, visit)
    elif isinstance(node, list):
        for item in node:
            _walk(item, visit)


def _tighten_node(node: dict) -> None:
    if TYPED_AS in node:
        component = node.pop(TYPED_AS)
        kept = {key: node.pop(key) for key in ("description",) if key in node}
        node.clear()
        # A $ref takes no siblings in OpenAPI 3.0: a described one goes through allOf.
        node.update({"allOf": [{"$ref": SCHEMAS + component}], **kept} if kept else {"$ref": SCHEMAS + component})
    if node.get("type") == "object":
        # A size limit on a dict counts its entries, not characters.
        for length, count in (("maxLength", "maxProperties"), ("minLength", "minProperties")):
            if length in node:
                node[count] = node.pop(length)
    branches = node.get("anyOf")
    if (
        node.get("nullable")
        and "type" not in node
        and isinstance(branches, list)
        and all("type" in b for b in branches)
    ):
        # Null or one of typed values (the GM's adjust `set`): each typed branch admits null,
        # since OpenAPI 3.0 pairs `nullable` with a `type`.
        del node["nullable"]
        for branch in branches:
            branch["nullable"] = True
    if node.get("nullable") and "type" not in node and not any(k in node for k in ("allOf", "anyOf", "oneOf", "$ref")):
        # Any JSON value (null included): OpenAPI 3.0 has no type to pair `nullable` with.
        del node["nullable"]
    choices = node.get("anyOf")
    if isinstance(choices, list) and len(choices) == 2 and {"type": "object", "nullable": True} in choices:
        # A nullable nested object: that object or null, not "that object or any object".
        (ref,) = [choice for choice in choices if choice != {"type": "object", "nullable": True}]
        del node["anyOf"]
        node.update({"type": "object", "nullable": True, "allOf": [ref]})


def _default_in_words(node: dict) -> None:
    """A request field's default, said in its description rather than as ``default``.

    openapi-typescript (default flags) types a property with a ``default`` as
    always present, which is true of an answer but not of a request: a client
    would have to send every defaulted field.
    """
    properties = node.get("properties")
    if not isinstance(properties, dict):
        return
    for prop in properties.values():
        if isinstance(prop, dict) and "default" in prop:
            value = prop.pop("default")
            if value is not None and value != [] and value != {}:
                said = f"Default: {json.dumps(value, ensure_ascii=False)}."
                prop["description"] = f"{prop['description'].rstrip()} {said}" if prop.get("description") else said


def _reachable(schemas: dict, roots: list[str]) -> set[str]:
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo += _refs(schemas[name])
    return seen


def _refs(node) -> list[str]:
    return re.findall(r'"#/components/schemas/([^"]+)"', json.dumps(node))
