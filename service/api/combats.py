"""/combats: create, read, act, read the log, delete."""

from __future__ import annotations

import secrets
import uuid

from flask import current_app, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from ..rules.dice import KEY_BYTES
from ..rules.engine import apply_action, create_combat, replay
from ..rules.registry import get_ruleset
from ..rules.viewer import GM_VIEWER
from ..store import CombatNotFound, ReservationLost, VersionConflict
from . import retry, schemas, sealing
from .access import check_api_key, load_authorized, mint_creation_tokens, require_actor, require_gm
from .idempotency import Idempotency, in_flight, replay_unavailable
from .joining import mint_for_newcomers
from .problems import problem
from .requests import if_match, json_body, stale, stamp_expiry, store
from .stream import long_poll
from .views import action_result, combat_view, entry_view, etag

blp = Blueprint(
    "combats",
    __name__,
    url_prefix="/combats",
    description="Combats: create one, post actions, read its state and its log.",
)

ETAG_HEADER = {"ETag": {"description": "The combat's version, for If-Match.", "schema": {"type": "string"}}}
KEY_HEADER = {"in": "header", "name": "Idempotency-Key", "required": False, "schema": {"type": "string", "minLength": 16, "maxLength": 255}}
BEARER = [{"bearer": []}]


def _exactly_once(idempotency: Idempotency, handler, *args, replay):
    if (early := idempotency.begin(replay)) is not None:
        return early
    try:
        return handler(*args, idempotency)
    except ReservationLost:
        return in_flight()  # another request with the key took over a stalled reservation
    except Exception:
        idempotency.abandon()
        raise


@blp.route("")
class Combats(MethodView):
    @blp.doc(
        operationId="createCombat",
        summary="Create a combat",
        description=(
            "The body depends on the ruleset: GET /rulesets/{id} serves the sheet, options and an example. "
            "The answer carries, once, the game master's token and one token per combatant."
        ),
        requestBody={
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CreateCombat"}}},
        },
        parameters=[KEY_HEADER],
        # An API key only where the deployment sets API_KEYS: {} says none is needed otherwise.
        security=[{"apiKey": []}, {}],
    )
    @blp.response(201, schemas.CreatedCombat, headers={**ETAG_HEADER, "Location": {"schema": {"type": "string"}}})
    def post(self):
        check_api_key(current_app.extensions["melee.settings"].api_keys)
        body = json_body()
        # A random id, never derived from the request: a public id reveals nothing.
        combat_id = uuid.uuid4().hex
        key = Idempotency.header()
        if key is None:
            return _create(body, combat_id, None)
        if (invalid := Idempotency.invalid_key(key)) is not None:
            return invalid
        creation = Idempotency.for_creation(store(), key, body)
        return _exactly_once(creation, _create, body, combat_id, replay=lambda fields: _replayed_creation(key, *fields))


def _create(body: dict, combat_id: str, idempotency: Idempotency | None):
    state, entry = create_combat(body, combat_id=combat_id, entropy=secrets.token_bytes(KEY_BYTES))
    stamp_expiry(state)
    tokens, grants = mint_creation_tokens([c["id"] for c in state["combatants"]])
    store().create(state, entry, grants)
    if idempotency and not idempotency.creation_done(combat_id, sealing.seal(idempotency.key, combat_id, tokens)):
        store().delete(combat_id)  # its reservation was taken over: the other request creates the combat
        raise ReservationLost()
    return {**combat_view(state, GM_VIEWER), "tokens": tokens}, 201, _creation_headers(state)


def _creation_headers(state: dict) -> dict:
    return {"Location": url_for("combats.Combat", combat_id=state["id"]), "ETag": etag(state)}


def _replayed_creation(key: str, combat_id: str, sealed_tokens: str):
    """The first answer: the combat as created (its first snapshot) and its tokens."""
    tokens = sealing.unseal(key, combat_id, sealed_tokens)
    if tokens is None:
        return replay_unavailable("created a combat under a server secret that has changed since")
    created, _ = store().snapshot_before(combat_id, 1)
    return {**combat_view(created, GM_VIEWER), "tokens": tokens}, 201, _creation_headers(created)


@blp.route("/<combat_id>")
class Combat(MethodView):
    @blp.doc(
        operationId="getCombat",
        summary="Read a combat",
        description=(
            "The combat as the caller may see it: what the rules keep secret and the sheets the GM hides are "
            "left out. The ETag is the combat's version; If-None-Match answers 304 when it has not changed."
        ),
        security=BEARER,
    )
    @blp.response(200, schemas.Combat, headers=ETAG_HEADER)
    @blp.alt_response(304, description="Not modified (If-None-Match)")
    def get(self, combat_id):
        state, grant = load_authorized(store(), combat_id)
        tag = etag(state)
        if request.if_none_match.contains(tag.strip('"')):
            return "", 304, {"ETag": tag, "Vary": "Authorization"}
        return combat_view(state, grant.viewer), 200, {"ETag": tag, "Vary": "Authorization"}

    @blp.doc(
        operationId="deleteCombat",
        summary="Delete a combat (game master)",
        description="The combat, its log and its tokens are gone at once; listeners get a `gone` event.",
        security=BEARER,
    )
    @blp.response(204)
    def delete(self, combat_id):
        _, grant = load_authorized(store(), combat_id)
        require_gm(grant, "deleting a combat")
        if not store().delete(combat_id):
            raise CombatNotFound(combat_id)
        return "", 204


@blp.route("/<combat_id>/actions")
class Actions(MethodView):
    @blp.doc(
        operationId="postAction",
        summary="Post an action",
        description=(
            "The action types depend on the combat's ruleset (GET /rulesets/{id}). `dice` are physical dice "
            "consumed in order; the server rolls the rest. A player's token acts for its own combatant; "
            "game-master actions need the GM's token. Optional If-Match makes the action conditional "
            "on the combat's version (412 when stale)."
        ),
        requestBody={
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Action"}}},
        },
        parameters=[{"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"}}, KEY_HEADER],
        security=BEARER,
    )
    @blp.response(200, schemas.ActionResult, headers=ETAG_HEADER)
    def post(self, combat_id):
        body = json_body()
        key = Idempotency.header()
        if key is None:
            return _act(combat_id, body, None)
        if (invalid := Idempotency.invalid_key(key)) is not None:
            return invalid
        load_authorized(store(), combat_id)  # 401/404 before reserving anything
        keyed = Idempotency.for_action(store(), combat_id, key, body)
        return _exactly_once(keyed, _act, combat_id, body, replay=lambda fields: _replayed_action(combat_id, int(fields[0])))


def _replayed_action(combat_id: str, seq: int):
    """The first answer, for the caller: log entry ``seq`` and the state right
    after it (rebuilt from history when later actions followed; its
    ``expires_at`` is then the current one). A join's new tokens are not shown again."""
    current, grant = load_authorized(store(), combat_id)
    after = current
    if seq != current["version"]:
        after = {**replay(*store().snapshot_before(combat_id, seq)), "expires_at": current.get("expires_at")}
    (entry,), _ = store().log(combat_id, seq - 1, 1)
    return action_result(after, entry, grant.viewer), 200, {"ETag": etag(after)}


def _act(combat_id: str, body: dict, idempotency: Idempotency | None):
    expected = if_match()
    waits = retry.conflict_waits()
    while True:
        state, grant = load_authorized(store(), combat_id)
        require_actor(grant, body, get_ruleset(state["ruleset"]).gm_only_actions)
        if expected is not None and expected != state["version"]:
            return stale(state["version"])
        new_state, entry = apply_action(state, body, caller=grant.viewer)
        stamp_expiry(new_state)
        result, headers = action_result(new_state, entry, grant.viewer), {"ETag": etag(new_state)}
        keyed = idempotency.action_applied(new_state["version"]) if idempotency else None
        try:
            store().commit(new_state, entry, expected_version=state["version"], keyed=keyed)
        except VersionConflict as conflict:
            if expected is not None:
                return stale(conflict.current)
            if (wait := next(waits, None)) is None:
                break
            retry.sleep(wait)
            continue
        return mint_for_newcomers(combat_id, state, new_state, result), 200, headers
    return problem(
        409,
        "version-conflict",
        "Version conflict",
        "other actions kept changing this combat for a while; reload it and try again "
        "(the same Idempotency-Key makes the retry safe)",
        headers={"Retry-After": "1"},
    )


@blp.route("/<combat_id>/events")
class Events(MethodView):
    @blp.doc(
        operationId="listEvents",
        summary="Read the combat's log",
        description=(
            "Every entry: the action, every die rolled, the events; filtered for the caller. With `wait`, a long "
            "poll: when there is no entry after `after` yet, the answer waits up to `wait` seconds for one."
        ),
        security=BEARER,
    )
    @blp.arguments(schemas.EventsQuery, location="query")
    @blp.response(200, schemas.LogPage)
    def get(self, query, combat_id):
        state, grant = load_authorized(store(), combat_id)
        entries, last = store().log(combat_id, query["after"], query["limit"])
        if not entries and query["wait"] and long_poll(combat_id, query["after"], query["wait"]):
            state, grant = load_authorized(store(), combat_id)
            entries, last = store().log(combat_id, query["after"], query["limit"])
        items = [entry_view(state, entry, grant.viewer) for entry in entries]
        next_after = items[-1]["seq"] if items and items[-1]["seq"] < last else None
        return {"items": items, "next_after": next_after, "last_seq": last}
