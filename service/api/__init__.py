"""The HTTP layer: parse, call the rules core, serialize; nothing else."""

from __future__ import annotations

import copy

from apispec.ext.marshmallow import MarshmallowPlugin
from apispec.ext.marshmallow.common import resolve_schema_cls
from flask import Flask, abort, send_from_directory
from flask_smorest import Api
from openapi_ui_bundles import swagger_ui

from .. import __version__
from ..i18n import english, labels
from ..rules import authority
from ..rules.registry import RULESETS, ruleset_of_module
from . import (
    combats,
    contract,
    errors,
    health,
    history,
    odds,
    options,
    problems,
    rulesets,
    schemas,
    simulations,
    snapshots,
    state,
    stream,
    tokens,
)

SWAGGER_STATIC = "/docs/static/"


def schema_name(schema) -> str:
    """Component names: ruleset schemas get the ruleset's prefix (Sistema2d6Sheet), a plugin's too.

    ``schema``: a marshmallow schema (class, instance or name)."""
    resolved = resolve_schema_cls(schema)
    cls = resolved[0] if isinstance(resolved, list) else resolved
    name = cls.__name__.removesuffix("Schema") or cls.__name__
    owner = ruleset_of_module(cls.__module__)
    parts = cls.__module__.split(".")
    if owner is not None:
        prefix = owner.schema_prefix
    elif len(parts) > 3 and parts[:2] == ["service", "rules"]:  # a shared part of the rules core (gm: GmAdjustAction)
        prefix = "".join(part.capitalize() for part in parts[2].split("_"))
    else:
        return name
    return name if name.startswith(prefix) else prefix + name


class MeleeApi(Api):
    ERROR_SCHEMA = schemas.Problem

    def handle_http_exception(self, error):
        return errors.http_problem(error)


def _inline(node, components: dict):
    """Replace $refs to component schemas by the schemas themselves."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            return _inline(copy.deepcopy(components[ref.rsplit("/", 1)[1]]), components)
        return {key: _inline(value, components) for key, value in node.items()}
    if isinstance(node, list):
        return [_inline(item, components) for item in node]
    return node


def _document_rulesets(api: Api) -> dict[str, dict]:
    """Publish each ruleset's schemas as components; return the /rulesets details."""
    spec = api.spec
    converter = api.ma_plugin.converter
    creation_refs, action_refs, details = [], [], {}
    if "CreatedCombat" not in spec.components.schemas:  # POST /combats names it in an anyOf (with Combat)
        spec.components.schema("CreatedCombat", schema=schemas.CreatedCombat)
    for ruleset in RULESETS.values():
        # The rules core's own marshmallow schemas, read by apispec as they are.
        creation_name = schema_name(ruleset.create_schema)
        spec.components.schema(creation_name, schema=ruleset.create_schema)
        creation_refs.append({"$ref": f"#/components/schemas/{creation_name}"})
        action_schemas = ruleset.all_action_schemas
        for action_schema in action_schemas.values():
            if schema_name(action_schema) not in spec.components.schemas:
                spec.components.schema(schema_name(action_schema), schema=action_schema)
        actions = {kind: schema_name(s) for kind, s in action_schemas.items()}
        union = contract.action_union(spec, ruleset.schema_prefix, actions, schema_name(ruleset.sheet_schema))
        action_refs.append({"$ref": f"#/components/schemas/{union}"})
        contract.legal_action_union(spec, ruleset.schema_prefix)
        spec.components.schema(f"{ruleset.schema_prefix}Combatant", schema=state.combatant_schema(ruleset))
        raw = {
            "sheet": converter.schema2jsonschema(ruleset.sheet_schema),
            "options": converter.schema2jsonschema(ruleset.options_schema),
            "actions": {kind: converter.schema2jsonschema(s) for kind, s in action_schemas.items()},
        }
        components = spec.to_dict()["components"]["schemas"]
        details[ruleset.id] = {
            **rulesets.summary(ruleset),
            **_inline(raw, components),
            "decided_by": authority.published(ruleset),
            "option_defaults": ruleset.options_schema().load({}),
            "catalog": ruleset.catalog,
            "labels": labels(ruleset.id),
            "example": ruleset.example(),
        }
    prefixes = {ruleset.id: ruleset.schema_prefix for ruleset in RULESETS.values()}
    for ruleset in RULESETS.values():
        contract.event_union(spec, ruleset.schema_prefix, english(ruleset.id))
    for combat in ("Combat", "CreatedCombat"):
        contract.split_by_ruleset(spec, combat, prefixes, contract.combat_of_ruleset, discriminated=True)
    for answer in ("ActionResult", "LogEntry", "LogPage"):  # in this order: each holds the one before
        contract.split_by_ruleset(spec, answer, prefixes)
    contract.split_by_ruleset(spec, "Options", prefixes, suffix="ActionOptions")
    spec.components.schema("RestoreCombat", schema=schemas.RestoreCombat)
    spec.components.schema("RestoredCombat", schema=schemas.RestoredCombat)  # a restore's answer without a token
    spec.components.schema(
        "CreateCombat", {"anyOf": creation_refs, "description": "One of the rulesets' creation bodies."}
    )
    spec.components.schema(
        "Action",
        {"anyOf": action_refs, "description": "An action of the combat's ruleset: one of the rulesets' action unions."},
    )
    return details


def _errors_are_problems(api: Api) -> None:
    """Document error responses with the media type they really have."""
    for response in api.spec.components.responses.values():
        content = response.get("content", {})
        if "application/json" in content:
            content[problems.PROBLEM_JSON] = content.pop("application/json")


def init_app(app: Flask, retry_after_seconds: int) -> Api:
    app.config.update(
        API_TITLE="Melee",
        API_VERSION=__version__,
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/",
        OPENAPI_JSON_PATH="openapi.json",
        OPENAPI_SWAGGER_UI_PATH="docs",
        OPENAPI_SWAGGER_UI_URL=SWAGGER_STATIC,
        API_SPEC_OPTIONS={
            "info": {
                "description": (
                    "Rules-aware combat resolution for tabletop role-playing games. Errors are RFC 9457 "
                    "problem+json documents."
                ),
                "license": {"name": "MIT", "url": "https://opensource.org/licenses/MIT"},
                "contact": {"name": "The Melee maintainers"},
            },
            "servers": [{"url": "/", "description": "The server that serves this document."}],
        },
    )
    api = MeleeApi(
        app,
        spec_kwargs={
            "marshmallow_plugin": MarshmallowPlugin(schema_name_resolver=schema_name),
            "extra_plugins": [contract.ContractPlugin()],
        },
    )
    errors.register(app, retry_after_seconds)
    api.spec.components.security_scheme(
        "bearer", {"type": "http", "scheme": "bearer", "description": "A token from POST /combats."}
    )
    api.spec.components.security_scheme(
        "apiKey",
        {
            "type": "apiKey",
            "in": "header",
            "name": "X-API-Key",
            "description": "Creating a combat on a deployment that sets API_KEYS needs one of them.",
        },
    )
    contract.register_problem_responses(api.spec)
    for blueprint in (
        health.blp,
        rulesets.blp,
        combats.blp,
        history.blp,
        tokens.blp,
        snapshots.blp,
        options.blp,
        odds.blp,
        stream.blp,
        simulations.blp,
    ):
        api.register_blueprint(blueprint)
    app.extensions["melee.ruleset_details"] = _document_rulesets(api)
    _errors_are_problems(api)
    contract.tighten(api.spec)

    @app.get(SWAGGER_STATIC + "<path:filename>")
    def swagger_static(filename):
        return send_from_directory(swagger_ui.static_path, filename)

    @app.get("/problems/<kind>")
    def problem_type(kind):
        if kind not in problems.PROBLEM_TYPES:
            abort(404)
        return {"type": problems.TYPE_BASE + kind, "description": problems.PROBLEM_TYPES[kind]}

    return api
