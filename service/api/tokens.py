"""/combats/<id>/tokens: the game master mints, lists and revokes tokens."""

from __future__ import annotations

from flask import g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from . import schemas
from .access import GM_ROLE, Grant, digest, load_authorized, new_token, require_gm, token_id
from .problems import problem
from .requests import store

blp = Blueprint("tokens", __name__, url_prefix="/combats", description="Access tokens of a combat (game master).")
BEARER = [{"bearer": []}]


@blp.before_request
def only_the_game_master():
    """Every route here is the GM's; check before the body is even parsed."""
    combat_id = request.view_args["combat_id"]
    state, grant = load_authorized(store(), combat_id)
    require_gm(grant, "managing tokens")
    g.combat = state


def _described(token_digest: str, record: dict) -> dict:
    return {"id": token_id(token_digest), "role": record["role"], "combatant": record.get("combatant")}


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
        return [_described(d, record) for d, record in sorted(store().grants(combat_id).items())]

    @blp.doc(
        operationId="mintToken",
        summary="Mint a token for the GM or a combatant's player",
        description="Game master only. The token is shown once in the answer; Redis keeps only its digest.",
        security=BEARER,
    )
    @blp.arguments(schemas.TokenRequest)
    @blp.response(201, schemas.MintedToken)
    def post(self, request_body, combat_id):
        combatant = request_body.get("combatant")
        if request_body["role"] == GM_ROLE:
            combatant = None
        elif combatant not in {c["id"] for c in g.combat["combatants"]}:
            return problem(
                422, "invalid-request", "Invalid request", f"/combatant: there is no combatant {combatant!r}",
                errors=[{"pointer": "/combatant", "detail": f"there is no combatant {combatant!r}"}],
            )
        token = new_token()
        record = Grant(request_body["role"], combatant).as_record()
        store().add_grant(combat_id, digest(token), record)
        return {**_described(digest(token), record), "token": token}, 201


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
        grants = store().grants(combat_id)
        matching = [d for d in grants if token_id(d) == token_ref]
        if not matching:
            return problem(404, "not-found", "Token not found", f"no token {token_ref!r} in this combat")
        gm_tokens = [d for d, record in grants.items() if record["role"] == GM_ROLE]
        if matching[0] in gm_tokens and len(gm_tokens) == 1:
            return problem(409, "action-not-allowed", "Not allowed", "this is the last game-master token; mint another before revoking it")
        store().remove_grant(combat_id, matching[0])
        return "", 204

