"""/combats/<id>/undo and /redo: the game master takes back the last action,
and may play it again (or play something else: a branch)."""

from __future__ import annotations

import secrets

from flask.views import MethodView
from flask_smorest import Blueprint

from ..rules.dice import KEY_BYTES
from ..rules.engine import redo, redo_target, replay, undo, undo_target
from ..store import VersionConflict
from . import schemas
from .access import load_authorized, require_gm
from .problems import problem
from .requests import if_match, stale, stamp_expiry, store
from .views import action_result, etag

blp = Blueprint("history", __name__, url_prefix="/combats", description="Undo and redo (game master).")
BEARER = [{"bearer": []}]
ETAG_HEADER = {"ETag": {"description": "The combat's version, for If-Match.", "schema": {"type": "string"}}}
IF_MATCH = {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"}}


def _as_gm(combat_id: str, step):
    """Load the combat for its GM, let ``step(state)`` compute the new state
    and entry (or a problem when there is nothing to do), commit it."""
    state, grant = load_authorized(store(), combat_id)
    require_gm(grant, "undo and redo")
    expected = if_match()
    if expected is not None and expected != state["version"]:
        return stale(state["version"])
    outcome = step(state)
    if not isinstance(outcome, tuple):
        return outcome
    new_state, entry = outcome
    stamp_expiry(new_state)
    try:
        store().commit(new_state, entry, expected_version=state["version"])
    except VersionConflict as conflict:
        return stale(conflict.current)
    return action_result(new_state, entry, grant.viewer), 200, {"ETag": etag(new_state)}


def _undo(combat_id: str):
    def step(state):
        target = undo_target(state)
        if target is None:
            return problem(409, "action-not-allowed", "Nothing to undo", "no action has been played since the combat began")
        return undo(state, replay(*store().snapshot_before(combat_id, target)), secrets.token_bytes(KEY_BYTES))

    return step


def _redo(combat_id: str):
    def step(state):
        seq = redo_target(state)
        if seq is None:
            return problem(409, "action-not-allowed", "Nothing to redo", "nothing was undone since the last action")
        entries, _ = store().log(combat_id, seq - 1, 1)
        return redo(state, entries[0], seq)

    return step


@blp.route("/<combat_id>/undo")
class Undo(MethodView):
    @blp.doc(
        operationId="undoAction",
        summary="Take back the last action (game master)",
        description=(
            "The combat returns exactly to the state before the last action: PV, conditions, durations, "
            "initiative, pending prompts. The undo is itself an entry of the log (history is never rewritten), "
            "so every listener sees it. Undo again to go further back. The server's dice after an undo come "
            "from a new stream of fresh entropy (its commitment is in the undo's `action.dice_commitment` and "
            "in the combat's `dice_commitments`), so no die anyone has seen comes back for a new action."
        ),
        parameters=[IF_MATCH],
        security=BEARER,
    )
    @blp.response(200, schemas.ActionResult, headers=ETAG_HEADER)
    def post(self, combat_id):
        return _as_gm(combat_id, _undo(combat_id))


@blp.route("/<combat_id>/redo")
class Redo(MethodView):
    @blp.doc(
        operationId="redoAction",
        summary="Play the last undone action again (game master)",
        description="Same action, same dice: the dice logged with the undone action are played again, so the result is the same.",
        parameters=[IF_MATCH],
        security=BEARER,
    )
    @blp.response(200, schemas.ActionResult, headers=ETAG_HEADER)
    def post(self, combat_id):
        return _as_gm(combat_id, _redo(combat_id))
