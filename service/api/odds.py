"""/combats/<id>/odds: the odds of an action before it is rolled.

A separate endpoint rather than a ``dry_run`` flag on /actions: the action
schemas refuse unknown fields, and an odds request has its own (the answers
to assume, the method, the Monte Carlo seed). Nothing is written: the
combat, its log, its Idempotency-Key records and its generator state are
only read (tests/api/test_odds.py compares the raw Redis values).
"""

from __future__ import annotations

from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from ..rules.odds.compute import AUTO, EXACT, MONTE_CARLO
from ..usecases.odds import OddsAsked, odds_of
from . import schemas
from .access import bearer_token
from .budget import RequestCompute
from .contract import TYPED_AS
from .requests import store

blp = Blueprint("odds", __name__, url_prefix="/combats", description="Odds before you roll.")

MAX_RUNS = 10_000
MAX_LEAVES = 10_000
DEFAULT_RUNS = 5_000
DEFAULT_LEAVES = 10_000


class OddsRequest(Schema):
    action = fields.Dict(
        required=True, metadata={"description": "The action, as it would be posted to /actions.", TYPED_AS: "Action"}
    )
    answers = fields.List(
        fields.Dict(metadata={TYPED_AS: "Action"}),
        validate=validate.Length(max=4),
        load_default=list,
        metadata={
            "description": "Answers to assume after the action (the defender's defense...); "
            "the ruleset's default answers follow when the combat still waits."
        },
    )
    method = fields.String(
        validate=validate.OneOf([AUTO, EXACT, MONTE_CARLO]),
        load_default=AUTO,
        metadata={"description": "auto: exact when the dice tree fits max_leaves, else Monte Carlo."},
    )
    runs = fields.Integer(
        validate=validate.Range(100, MAX_RUNS), load_default=DEFAULT_RUNS, metadata={"description": "Monte Carlo runs."}
    )
    seed = fields.Integer(
        validate=validate.Range(0, 2**63 - 1),
        load_default=0,
        metadata={"description": "Seed of the Monte Carlo runs (never the combat's own)."},
    )
    max_leaves = fields.Integer(
        validate=validate.Range(1, MAX_LEAVES),
        load_default=DEFAULT_LEAVES,
        metadata={"description": "Largest dice tree enumerated exactly."},
    )


@blp.route("/<combat_id>/odds")
class Odds(MethodView):
    @blp.doc(
        operationId="getOdds",
        summary="The odds of an action, without playing it",
        description=(
            "The probability of each outcome class of the action (miss, hit, critical hit, wound levels, death... "
            "as the ruleset names them) and the expected damage to each combatant, exact when the dice tree has "
            "at most max_leaves outcomes, else from seeded Monte Carlo runs (with standard errors). Nothing "
            "changes: not the combat, its log or its dice. A player's token asks only for its own combatant's "
            "actions, and not at all while the GM hides other combatants' sheets. See docs/odds.md."
        ),
        security=[{"bearer": []}],
    )
    @blp.arguments(OddsRequest)
    @blp.response(200, schemas.Odds)
    def post(self, request_body, combat_id):
        asked = OddsAsked(
            request_body["action"],
            request_body["answers"],
            request_body["method"],
            request_body["runs"],
            request_body["seed"],
            request_body["max_leaves"],
        )
        return odds_of(store(), combat_id, bearer_token(), asked, RequestCompute())
