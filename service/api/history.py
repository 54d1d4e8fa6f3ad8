"""/combats/<id>/undo and /redo: the game master takes back the last action,
and may play it again (or play something else: a branch)."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..usecases import actions
from . import schemas
from .access import bearer_token
from .requests import if_match, store
from .views import applied_answer

blp = Blueprint("history", __name__, url_prefix="/combats", description="Undo and redo (game master).")
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
ETAG_HEADER = {"ETag": {"description": "The combat's version, for If-Match.", "schema": {"type": "string"}}}
IF_MATCH = {"in": "header", "name": "If-Match", "required": False, "schema": {"type": "string"}}


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
        return applied_answer(actions.take_back(store(), combat_id, bearer_token(), expected_version=if_match()))


@blp.route("/<combat_id>/redo")
class Redo(MethodView):
    @blp.doc(
        operationId="redoAction",
        summary="Play the last undone action again (game master)",
        description=(
            "Same action, same dice: the dice logged with the undone "
            "action are played again, so the result is the same."
        ),
        parameters=[IF_MATCH],
        security=BEARER,
    )
    @blp.response(200, schemas.ActionResult, headers=ETAG_HEADER)
    def post(self, combat_id):
        return applied_answer(actions.play_again(store(), combat_id, bearer_token(), expected_version=if_match()))
