"""/combats: create, read, act, read the log, delete."""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta, timezone

from flask import current_app, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import ValidationError

from ..rules.engine import apply_action, create_combat
from ..store import CombatNotFound, CombatStore, VersionConflict
from . import schemas
from .problems import problem
from .views import action_result, combat_view, entry_view, etag

blp = Blueprint(
    "combats",
    __name__,
    url_prefix="/combats",
    description="Combats: create one, post actions, read its state and its log.",
)

# Without If-Match an action applies to whatever version is current: a lost
# race is resolved again on the new state, a few times, before giving up.
MAX_ATTEMPTS = 5

ETAG_HEADER = {"ETag": {"description": "The combat's version, for If-Match.", "schema": {"type": "string"}}}


def _store() -> CombatStore:
    return current_app.extensions["melee.store"]


def _json_body():
    body = request.get_json(force=True, silent=True)
    if not isinstance(body, dict):
        raise ValidationError({"_schema": ["the request body must be a JSON object"]})
    return body


def _stamp_expiry(state: dict) -> None:
    ttl = _store().ttl_seconds
    expires = datetime.now(timezone.utc) + timedelta(seconds=ttl)
    state["expires_at"] = expires.isoformat(timespec="seconds").replace("+00:00", "Z")


def _if_match() -> int | None:
    """The version named by If-Match; None when absent or '*'."""
    header = request.headers.get("If-Match")
    if not header or header.strip() == "*":
        return None
    tag = header.strip().removeprefix("W/").strip('"')
    return int(tag) if tag.isdigit() else -1


def _stale(current: int):
    return problem(
        412,
        "precondition-failed",
        "Precondition failed",
        f"If-Match names another version; the combat is at version {current}",
        current_version=current,
        headers={"ETag": f'"{current}"'},
    )


@blp.route("")
class Combats(MethodView):
    @blp.doc(
        summary="Create a combat",
        description="The body depends on the ruleset: GET /rulesets/{id} serves the sheet, options and an example.",
        requestBody={
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CreateCombat"}}},
        },
    )
    @blp.response(201, schemas.Combat, headers={**ETAG_HEADER, "Location": {"schema": {"type": "string"}}})
    def post(self):
        body = _json_body()
        combat_id = uuid.uuid4().hex
        state, entry = create_combat(body, combat_id=combat_id, seed=secrets.randbits(63))
        _stamp_expiry(state)
        _store().create(state, entry)
        location = url_for("combats.Combat", combat_id=combat_id)
        return combat_view(state), 201, {"Location": location, "ETag": etag(state)}


@blp.route("/<combat_id>")
class Combat(MethodView):
    @blp.doc(summary="Read a combat")
    @blp.response(200, schemas.Combat, headers=ETAG_HEADER)
    @blp.alt_response(304, description="Not modified (If-None-Match)")
    def get(self, combat_id):
        state = _store().load(combat_id)
        tag = etag(state)
        if request.if_none_match.contains(tag.strip('"')):
            return "", 304, {"ETag": tag}
        return combat_view(state), 200, {"ETag": tag}

    @blp.doc(summary="Delete a combat")
    @blp.response(204)
    def delete(self, combat_id):
        if not _store().delete(combat_id):
            raise CombatNotFound(combat_id)
        return "", 204


@blp.route("/<combat_id>/actions")
class Actions(MethodView):
    @blp.doc(
        summary="Post an action",
        description=(
            "The action types depend on the combat's ruleset (GET /rulesets/{id}). `dice` are physical dice "
            "consumed in order; the server rolls the rest. Optional If-Match makes the action conditional "
            "on the combat's version (412 when stale)."
        ),
        requestBody={
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Action"}}},
        },
        parameters=[{"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"}}],
    )
    @blp.response(200, schemas.ActionResult, headers=ETAG_HEADER)
    def post(self, combat_id):
        body = _json_body()
        expected = _if_match()
        store = _store()
        for _ in range(MAX_ATTEMPTS):
            state = store.load(combat_id)
            if expected is not None and expected != state["version"]:
                return _stale(state["version"])
            new_state, entry = apply_action(state, body)
            _stamp_expiry(new_state)
            try:
                store.commit(new_state, entry, expected_version=state["version"])
            except VersionConflict as conflict:
                if expected is not None:
                    return _stale(conflict.current)
                continue
            return action_result(new_state, entry), 200, {"ETag": etag(new_state)}
        return problem(
            409,
            "version-conflict",
            "Version conflict",
            "other actions kept changing this combat; reload it and try again",
        )


@blp.route("/<combat_id>/events")
class Events(MethodView):
    @blp.doc(summary="Read the combat's log", description="Every entry: the action, every die rolled, the events.")
    @blp.arguments(schemas.EventsQuery, location="query")
    @blp.response(200, schemas.LogPage)
    def get(self, query, combat_id):
        store = _store()
        state = store.load(combat_id)
        entries, last = store.log(combat_id, query["after"], query["limit"])
        items = [entry_view(state, entry) for entry in entries]
        next_after = items[-1]["seq"] if items and items[-1]["seq"] < last else None
        return {"items": items, "next_after": next_after, "last_seq": last}
