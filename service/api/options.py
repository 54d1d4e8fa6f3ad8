"""/combats/<id>/options: what a combatant (or the GM) may send now.

The rules core lists the legal actions (``Ruleset.legal_actions``); the use
case (service/usecases/reads.py ``legal_actions``) checks who asks: a player's
token sees its own combatant's options, the GM's token anyone's and its own
(``actor=gm``). A player is offered only the parameters that are theirs to set
(service/rules/authority.py).

The schemas below serialize the answer; the OpenAPI document publishes it per
ruleset (``{Prefix}ActionOptions``), each parameter's choices typed as the
action's own field (contract.legal_action_union).
"""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from ..rules.errors import refusal
from ..usecases import reads
from .access import bearer_token
from .problems import problem
from .reader import reader
from .requests import store

blp = Blueprint(
    "options",
    __name__,
    url_prefix="/combats",
    description="The legal actions of a combatant, to build a client's menus.",
)
BEARER: list[dict[str, list[str]]] = [{"bearer": []}]


class OptionsQuery(Schema):
    actor = fields.String(required=True, metadata={"description": "A combatant's id, or 'gm'."})


class LegalAction(Schema):
    type = fields.String(required=True)
    params = fields.Dict(
        required=True,
        metadata={
            "description": "Parameter name -> {required, choices} or {required, type, minimum, maximum}, "
            "or {type: object, keys} for adjust's value names."
        },
    )


class Options(Schema):
    actor = fields.String(required=True)
    version = fields.Integer(required=True, metadata={"description": "The combat version these options hold for."})
    actions = fields.List(fields.Nested(LegalAction), required=True)


@blp.route("/<combat_id>/options")
class CombatOptions(MethodView):
    @blp.doc(
        operationId="listOptions",
        summary="List what a combatant (or the GM) may do now, with each choice's parameters",
        description="The action types the caller may send now, and for each the parameter sets the rules allow.",
        security=BEARER,
    )
    @blp.arguments(OptionsQuery, location="query")
    @blp.response(200, Options)
    def get(self, query, combat_id):
        try:
            options = reads.legal_actions(store(), combat_id, bearer_token(), query["actor"])
        except reads.UnknownActor as unknown:
            said_to = reader()
            return problem(
                422,
                "invalid-request",
                refusal("Invalid request"),
                f"/actor: {said_to.say(unknown.detail)}",
                errors=[{"pointer": "/actor", "detail": unknown.detail}],
                said_to=said_to,
            )
        return {"actor": options.actor, "version": options.version, "actions": options.actions}
