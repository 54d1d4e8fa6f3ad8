"""/simulations: many fights from one combat template (docs/simulations.md)."""

from __future__ import annotations

import secrets
import uuid

from flask import current_app, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from .shapes import StrictInt
from ..simulation import MAX_FIGHTS, STYLES, TARGETS, Tactic, simulate
from ..jobs import chunk, queue
from ..simulation.runner import load_template
from ..store.cluster import is_cluster_url
from ..store.jobs import SimulationJobs
from . import simulation_jobs
from .access import check_api_key
from .budget import FIGHT_UNITS, costly, offload
from .problems import problem
from .requests import store

# Runs up to this many fights answer inline; longer ones run as a job. At
# most ~2 s of a request thread (duel-2d6, the slowest ruleset: 8 ms a fight).
INLINE_MAX_FIGHTS = 250


def compute_cost(fights: int) -> int:
    """Compute units (service/api/budget.py): FIGHT_UNITS per fight."""
    return fights * FIGHT_UNITS

blp = Blueprint(
    "simulations",
    __name__,
    url_prefix="/simulations",
    description="Simulations: win rates and outcome distributions over many seeded fights.",
)


class TacticSchema(Schema):
    target = fields.String(validate=validate.OneOf(TARGETS), load_default="first", metadata={"description": "first: the first standing enemy; weakest: the one with the fewest health points."})
    style = fields.String(validate=validate.OneOf(STYLES), load_default="balanced", metadata={"description": "What it changes depends on the ruleset (docs/simulations.md)."})


class SimulationRequest(Schema):
    template = fields.Dict(required=True, metadata={"description": "A combat creation body, as for POST /combats (no dice)."})
    fights = StrictInt(required=True, validate=validate.Range(1, MAX_FIGHTS))
    seed = StrictInt(validate=validate.Range(0, 2**63 - 1), load_default=None, metadata={"description": "Same seed, same result; random when absent."})
    tactic = fields.Nested(TacticSchema, load_default=lambda: TacticSchema().load({}))
    background = fields.Boolean(
        load_default=None,
        metadata={"description": f"Run as a job (202 + Location). Default: only when fights > {INLINE_MAX_FIGHTS}."},
    )

    @validates_schema
    def _inline_is_short(self, data, **kwargs):
        if data.get("background") is False and data["fights"] > INLINE_MAX_FIGHTS:
            raise ValidationError(f"at most {INLINE_MAX_FIGHTS} fights inline; send background: true for more", "fights")


class SimulationJob(Schema):
    id = fields.String(required=True)
    status = fields.String(required=True, metadata={"description": "queued, running, done, failed or lost (the web process that ran it stopped; only without a queue)."})
    progress = fields.Dict(required=True, metadata={"description": "{done, total}: fights played so far."})
    retries = fields.Integer(metadata={"description": "Parts of the job started again after an error or the death of their worker."})
    result = fields.Dict(metadata={"description": "When done: the same document an inline run answers."})
    error = fields.String()


def _jobs() -> SimulationJobs:
    return store().simulation_jobs()


def _queued() -> bool:
    """Whether jobs go to the worker processes' queue: REDIS_URL on a single Redis (RQ cannot use a cluster)."""
    redis_url = current_app.extensions["melee.settings"].redis_url
    return bool(redis_url) and not is_cluster_url(redis_url)


@blp.route("")
class Simulations(MethodView):
    @blp.doc(
        operationId="createSimulation",
        summary="Simulate many fights",
        description=(
            "Plays `fights` complete fights of the template with each ruleset's documented tactic and answers "
            "the win rate per side (Wilson 95 % interval), the distribution of rounds, of health left, wound "
            f"levels and deaths. Up to {INLINE_MAX_FIGHTS} fights answer inline (200); more run as a job: "
            "202 and Location: /simulations/{id}. With Redis, a job is split into chunks played by the worker "
            "processes (their own process type), never by the web process."
        ),
    )
    @blp.arguments(SimulationRequest)
    @blp.response(200, description="The result, inline.")
    @blp.alt_response(202, schema=SimulationJob, description="Accepted as a job; poll Location.")
    def post(self, request_body):
        check_api_key(current_app.extensions["melee.settings"].api_keys)
        template, fights = request_body["template"], request_body["fights"]
        load_template(template)  # 422 now, not in the job
        seed = request_body["seed"] if request_body["seed"] is not None else secrets.randbits(63)
        tactic = Tactic(**request_body["tactic"])
        background = request_body["background"]
        with costly(compute_cost(fights)):
            if not (background or (background is None and fights > INLINE_MAX_FIGHTS)):
                return offload(simulate, template, fights, seed, tactic), 200
            return _start_job(template, fights, seed, tactic)


def _start_job(template: dict, fights: int, seed: int, tactic: Tactic):
    job_id = uuid.uuid4().hex
    asked = chunk.request(template, fights, seed, tactic)
    try:
        if _queued():
            queue.enqueue(_jobs(), current_app.extensions["melee.settings"].simulation_queue, job_id, asked)
        else:
            simulation_jobs.start(_jobs(), job_id, asked)
    except simulation_jobs.Busy:
        return problem(
            503,
            "simulation-busy",
            "Simulation worker busy",
            "this process already runs a simulation job; retry later",
            headers={"Retry-After": str(current_app.extensions["melee.settings"].retry_after_seconds)},
        )
    location = url_for("simulations.Simulation", job_id=job_id)
    body = {"id": job_id, "status": "queued", "progress": {"done": 0, "total": fights}}
    return body, 202, {"Location": location}


@blp.route("/<job_id>")
class Simulation(MethodView):
    @blp.doc(
        operationId="getSimulation",
        summary="Read a simulation job: its progress, then its result",
        description="Poll it until `status` is done (or failed); the result then has the same shape as an inline one.",
    )
    @blp.response(200, SimulationJob)
    def get(self, job_id):
        job = _jobs().get(job_id)
        if job is None:
            return problem(404, "not-found", "Simulation not found", f"no simulation job {job_id}: it never existed or expired")
        body = {"id": job_id, "status": simulation_jobs.public_status(job), "progress": {"done": job["done"], "total": job["total"]}}
        if "result" in job:
            body["result"] = job["result"]
        if "error" in job:
            body["error"] = job["error"]
        if job["retries"]:
            body["retries"] = job["retries"]
        return body
