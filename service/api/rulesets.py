"""/rulesets: what each ruleset takes, so clients can build their UI from it."""

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from ..rules.errors import refusal
from ..rules.registry import RULESETS
from . import schemas
from .problems import problem

blp = Blueprint("rulesets", __name__, url_prefix="/rulesets", description="The game systems Melee plays.")


def summary(ruleset) -> dict:
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "language": ruleset.language,
        "seed": ruleset.seed,
        "summary": ruleset.summary,
    }


@blp.route("")
class Rulesets(MethodView):
    @blp.doc(
        operationId="listRulesets",
        summary="List the rulesets",
        description="The game systems this build serves. Public.",
    )
    @blp.response(200, schemas.RulesetSummary(many=True))
    def get(self):
        return [summary(ruleset) for ruleset in RULESETS.values()]


@blp.route("/<ruleset_id>")
class Ruleset(MethodView):
    @blp.doc(
        operationId="getRuleset",
        summary="Describe a ruleset: sheet, options, actions, catalog and a playable example",
        description="JSON Schemas of the combatant sheet, the options and every action type, the catalog, and an "
        "example creation body with a sequence of actions that plays. Public.",
    )
    @blp.response(200, schemas.RulesetDetail)
    def get(self, ruleset_id):
        details = current_app.extensions["melee.ruleset_details"]
        if ruleset_id not in details:
            known = ", ".join(sorted(details))
            return problem(
                404,
                "not-found",
                refusal("Ruleset not found"),
                refusal("no ruleset '{ruleset_id}'; one of: {known}", ruleset_id=ruleset_id, known=known),
            )
        return details[ruleset_id]
