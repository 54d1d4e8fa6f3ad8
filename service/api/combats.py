"""/combats: create, read, act, read the log, delete."""

from __future__ import annotations

from flask import request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from ..usecases import actions, creation, reads
from ..usecases.idempotency import KeyReused, ReplayUnavailable, RequestInFlight
from . import schemas, snapshots
from .access import api_key_required, bearer_token
from .idempotency import Idempotency, action_fence, creation_fence, refused, replayed_response
from .requests import if_match, json_body, sealing, store
from .stream import long_poll
from .views import accepted_languages, applied_answer, etag

blp = Blueprint(
    "combats",
    __name__,
    url_prefix="/combats",
    description="Combats: create one, post actions, read its state and its log.",
)

ETAG_HEADER = {"ETag": {"description": "The combat's version, for If-Match.", "schema": {"type": "string"}}}
KEY_HEADER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 16, "maxLength": 255},
}
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
# The workflow a client follows from a combat's id (OpenAPI links): what it may do next.
NEXT_STEPS = {
    "postAction": "Post the next action to this combat.",
    "getCombat": "Read this combat's state.",
    "listEvents": "Read this combat's log.",
}


def next_steps(combat_id: str) -> dict:
    """The links of an answer to a combat's next steps.

    ``combat_id``: where the answer holds the combat's id (a runtime expression).
    """
    return {
        target: {"operationId": target, "parameters": {"combat_id": combat_id}, "description": purpose}
        for target, purpose in NEXT_STEPS.items()
    }


@blp.route("")
class Combats(MethodView):
    @blp.doc(
        operationId="createCombat",
        summary="Create a combat",
        description=(
            "The body depends on the ruleset: GET /rulesets/{id} serves the sheet, options and an example. "
            "The answer carries, once, the game master's token and one token per combatant. "
            'With `{"snapshot": ...}` (from GET /combats/{id}/snapshot) and nothing else, the combat is '
            "restored instead, under its own id and tokens (but those revoked since), with a `restored` log "
            "entry and new server dice: the answer is the combat as GET /combats/{id} shows it to the "
            "`Authorization: Bearer` token sent, when it is one of the combat's, else only its `id`, "
            "`ruleset` and `version` (a RestoredCombat). 409 when that combat is live, 422 `invalid-snapshot` "
            "when the snapshot does not open, is older than MAX_SNAPSHOT_AGE_DAYS or holds more actions than "
            "MAX_ACTIONS_PER_COMBAT."
        ),
        requestBody={
            "required": True,
            "content": {
                "application/json": {
                    "schema": {
                        "anyOf": [
                            {"$ref": "#/components/schemas/CreateCombat"},
                            {"$ref": "#/components/schemas/RestoreCombat"},
                        ]
                    }
                }
            },
        },
        parameters=[KEY_HEADER],
        # An API key only where the deployment sets API_KEYS: {} says none is needed otherwise.
        security=[{"apiKey": []}, {}],
        # A creation answers a CreatedCombat (with its tokens), a restore a Combat (as the bearer token shows
        # it) or a RestoredCombat (no token of the combat sent).
        responses={
            201: {
                "links": next_steps("$response.body#/id"),
                "content": {
                    "application/json": {
                        "schema": {
                            "anyOf": [
                                {"$ref": "#/components/schemas/CreatedCombat"},
                                {"$ref": "#/components/schemas/Combat"},
                                {"$ref": "#/components/schemas/RestoredCombat"},
                            ]
                        }
                    }
                },
            }
        },
    )
    @blp.response(
        201,
        description="Created (with the tokens), or restored from a snapshot (without them: as the bearer sees it)",
        headers={**ETAG_HEADER, "Location": {"schema": {"type": "string"}}},
    )
    @api_key_required
    def post(self):
        body = json_body()
        key = Idempotency.header()
        if key is not None and (invalid := Idempotency.invalid_key(key)) is not None:
            return invalid
        fence = creation_fence(key, body) if key is not None else None
        if "snapshot" in body:
            return snapshots.restored(body, fence)
        try:
            created = creation.create(store(), body, fence=fence, sealer=sealing())
        except (RequestInFlight, KeyReused, ReplayUnavailable) as error:
            return refused(error)
        headers = {"Location": url_for("combats.Combat", combat_id=created.state["id"]), "ETag": etag(created.state)}
        return replayed_response(created.combat, 201, headers) if created.replayed else (created.combat, 201, headers)


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
        seen = reads.read_combat(store(), combat_id, bearer_token())
        tag = etag(seen.state)
        if request.if_none_match.contains(tag.strip('"')):
            return "", 304, {"ETag": tag, "Vary": "Authorization"}
        return seen.combat, 200, {"ETag": tag, "Vary": "Authorization"}

    @blp.doc(
        operationId="deleteCombat",
        summary="Delete a combat (game master)",
        description="The combat, its log and its tokens are gone at once; listeners get a `gone` event.",
        security=BEARER,
    )
    @blp.response(204)
    def delete(self, combat_id):
        actions.delete(store(), combat_id, bearer_token())
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
        responses={200: {"links": next_steps("$request.path.combat_id")}},
    )
    @blp.response(200, schemas.ActionResult, headers=ETAG_HEADER)
    def post(self, combat_id):
        body = json_body()
        key = Idempotency.header()
        if key is None:
            return _act(combat_id, body)
        if (invalid := Idempotency.invalid_key(key)) is not None:
            return invalid
        try:
            applied = actions.act_once(
                store(),
                combat_id,
                body,
                bearer_token(),
                action_fence(combat_id, key, body),
                expected_version=if_match(),
            )
        except (RequestInFlight, KeyReused, ReplayUnavailable) as error:
            return refused(error)
        return replayed_response(*applied_answer(applied)) if applied.replayed else applied_answer(applied)


def _act(combat_id: str, body: dict):
    return applied_answer(actions.act(store(), combat_id, body, bearer_token(), expected_version=if_match()))


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
        page = reads.read_events(
            store(),
            combat_id,
            bearer_token(),
            after=query["after"],
            limit=query["limit"],
            wait_seconds=query["wait"],
            wait=long_poll,
            languages=accepted_languages(),
        )
        return {"items": page.items, "next_after": page.next_after, "last_seq": page.last_seq, "reset": page.reset}
