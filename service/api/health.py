"""Liveness and readiness, for load balancers and orchestrators."""

from flask import current_app
from flask.views import MethodView
from flask_smorest import Blueprint

from . import schemas

blp = Blueprint("health", __name__, description="Liveness and readiness probes.")


@blp.route("/healthz")
class Health(MethodView):
    @blp.doc(
        operationId="getHealth",
        summary="The process is up",
        description="Liveness: answers while the process serves requests, whatever the store. Public.",
    )
    @blp.response(200, schemas.Health)
    def get(self):
        return {"status": "ok"}


@blp.route("/readyz")
class Ready(MethodView):
    @blp.doc(
        operationId="getReadiness",
        summary="The combat store answers PING (503 problem otherwise)",
        description="Readiness: 200 when the combat store answers, else a 503 problem. Public.",
    )
    @blp.response(200, schemas.Health)
    def get(self):
        current_app.extensions["melee.store"].ping()
        return {"status": "ready"}
