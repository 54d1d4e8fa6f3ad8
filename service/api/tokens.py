"""/combats/<id>/tokens: the game master mints, lists and revokes tokens."""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint

from ..rules.errors import refusal
from ..usecases import tokens
from ..usecases.port_errors import RevocationLimitReached
from . import schemas
from .access import bearer_token
from .problems import problem
from .reader import reader
from .requests import store

blp = Blueprint("tokens", __name__, url_prefix="/combats", description="Access tokens of a combat (game master).")
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]


def _asked() -> tuple[str, str | None]:
    """The role and combatant asked for, from the body (its 422 as for any body)."""
    body = blp.ARGUMENTS_PARSER.parse(schemas.TokenRequest, location="json")
    return body["role"], body.get("combatant")


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
        return tokens.list_tokens(store(), combat_id, bearer_token())

    @blp.doc(
        operationId="mintToken",
        summary="Mint a token for the GM or a combatant's player",
        description="Game master only. The token is shown once in the answer; Redis keeps only its digest.",
        # The body is read by the use case once the caller is the GM (``_asked``), not before the view.
        requestBody={"required": True, "content": {"application/json": {"schema": schemas.TokenRequest}}},
        security=BEARER,
    )
    @blp.response(201, schemas.MintedToken)
    @blp.alt_response(422, response="UNPROCESSABLE_ENTITY")
    def post(self, combat_id):
        try:
            return tokens.mint(store(), combat_id, bearer_token(), _asked), 201
        except tokens.UnknownCombatant as unknown:
            return problem(
                422,
                "invalid-request",
                refusal("Invalid request"),
                f"/combatant: {reader().say(unknown.detail)}",
                errors=[{"pointer": "/combatant", "detail": unknown.detail}],
            )


@blp.route("/<combat_id>/tokens/<token_ref>")
class Token(MethodView):
    @blp.doc(
        operationId="revokeToken",
        summary="Revoke a token",
        description=(
            "Game master only. The token stops working at once; a stream opened with it ends. It stays refused "
            "after a restore of a snapshot taken before (docs/security.md)."
        ),
        security=BEARER,
    )
    @blp.response(204)
    def delete(self, combat_id, token_ref):
        try:
            tokens.revoke(store(), combat_id, bearer_token(), token_ref)
        except tokens.TokenNotFound:
            return problem(
                404,
                "not-found",
                refusal("Token not found"),
                refusal("no token '{token_ref}' in this combat", token_ref=token_ref),
            )
        except tokens.LastGameMasterToken:
            return problem(
                409,
                "action-not-allowed",
                refusal("Not allowed"),
                refusal("this is the last game-master token; mint another before revoking it"),
            )
        except RevocationLimitReached as full:
            return problem(
                409,
                "action-not-allowed",
                refusal("Not allowed"),
                refusal(
                    "this combat has already revoked {limit} tokens, the most it keeps on record; "
                    "delete the combat and create it anew instead",
                    limit=format(full.limit, ","),
                ),
            )
        return "", 204
