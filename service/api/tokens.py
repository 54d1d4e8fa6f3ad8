"""/combats/<id>/tokens: the game master mints, lists and revokes tokens."""

from __future__ import annotations

from flask import g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from ..usecases import tokens
from . import schemas
from .access import bearer_token
from .problems import problem
from .requests import store

blp = Blueprint("tokens", __name__, url_prefix="/combats", description="Access tokens of a combat (game master).")
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]


@blp.before_request
def only_the_game_master():
    """Every route here is the GM's; check before the body is even parsed."""
    g.combat = tokens.as_game_master(store(), request.view_args["combat_id"], bearer_token())


@blp.route("/<combat_id>/tokens")
class Tokens(MethodView):
    @blp.doc(
        operationId="listTokens",
        summary="List the combat's tokens (ids and roles, never the tokens)",
        description="Game master only. Each token's public id, to revoke it, and whom it acts for.",
        security=BEARER,
    )
    @blp.response(200, schemas.TokenInfo(many=True))
    def get(self, combat_id):
        return tokens.list_tokens(store(), combat_id)

    @blp.doc(
        operationId="mintToken",
        summary="Mint a token for the GM or a combatant's player",
        description="Game master only. The token is shown once in the answer; Redis keeps only its digest.",
        security=BEARER,
    )
    @blp.arguments(schemas.TokenRequest)
    @blp.response(201, schemas.MintedToken)
    def post(self, request_body, combat_id):
        try:
            return tokens.mint(store(), g.combat, request_body["role"], request_body.get("combatant")), 201
        except tokens.UnknownCombatant as unknown:
            return problem(
                422,
                "invalid-request",
                "Invalid request",
                f"/combatant: {unknown}",
                errors=[{"pointer": "/combatant", "detail": str(unknown)}],
            )


@blp.route("/<combat_id>/tokens/<token_ref>")
class Token(MethodView):
    @blp.doc(
        operationId="revokeToken",
        summary="Revoke a token",
        description="Game master only. The token stops working at once; a stream opened with it ends.",
        security=BEARER,
    )
    @blp.response(204)
    def delete(self, combat_id, token_ref):
        try:
            tokens.revoke(store(), combat_id, token_ref)
        except tokens.TokenNotFound:
            return problem(404, "not-found", "Token not found", f"no token {token_ref!r} in this combat")
        except tokens.LastGameMasterToken:
            return problem(
                409,
                "action-not-allowed",
                "Not allowed",
                "this is the last game-master token; mint another before revoking it",
            )
        return "", 204
