"""/simulations: many fights from one combat template (docs/simulations.md)."""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ..jobs.queue import QueueRunner
from ..jobs.threads import ThreadRunner
from ..rules.errors import refusal
from ..rules.schemas import StrictInt
from ..simulation import MAX_FIGHTS, STYLES, TARGETS, Tactic
from ..store.cluster import is_cluster_url
from ..usecases import simulations
from ..usecases.ports import JobRunner, QueueFull, RunnerBusy
from ..usecases.simulations import INLINE_MAX_FIGHTS
from .access import api_key_required
from .budget import RequestCompute
from .problems import problem
from .requests import store

blp = Blueprint(
    "simulations",
    __name__,
    url_prefix="/simulations",
    description="Simulations: win rates and outcome distributions over many seeded fights.",
)


class TacticSchema(Schema):
    target = fields.String(
        validate=validate.OneOf(TARGETS),
        load_default="first",
        metadata={"description": "first: the first standing enemy; weakest: the one with the fewest health points."},
    )
    style = fields.String(
        validate=validate.OneOf(STYLES),
        load_default="balanced",
        metadata={"description": "What it changes depends on the ruleset (docs/simulations.md)."},
    )


class SimulationRequest(Schema):
    template = fields.Dict(
        required=True, metadata={"description": "A combat creation body, as for POST /combats (no dice)."}
    )
    fights = StrictInt(required=True, validate=validate.Range(1, MAX_FIGHTS))
    seed = StrictInt(
        validate=validate.Range(0, 2**63 - 1),
        load_default=None,
        metadata={"description": "Same seed, same result; random when absent."},
    )
    tactic = fields.Nested(TacticSchema, load_default=lambda: TacticSchema().load({}))
    background = fields.Boolean(
        load_default=None,
        metadata={"description": f"Run as a job (202 + Location). Default: only when fights > {INLINE_MAX_FIGHTS}."},
    )

    @validates_schema
    def _inline_is_short(self, data, **kwargs):
        if data.get("background") is False and data["fights"] > INLINE_MAX_FIGHTS:
            raise ValidationError(
                refusal("at most {limit} fights inline; send background: true for more", limit=INLINE_MAX_FIGHTS),
                "fights",
            )


class SimulationJob(Schema):
    id = fields.String(required=True)
    status = fields.String(
        required=True,
        metadata={
            "description": (
                "queued, running, done, failed or lost (the web process that ran it stopped; only without a queue)."
            )
        },
    )
    progress = fields.Dict(required=True, metadata={"description": "{done, total}: fights played so far."})
    retries = fields.Integer(
        metadata={"description": "Parts of the job started again after an error or the death of their worker."}
    )
    result = fields.Dict(metadata={"description": "When done: the same document an inline run answers."})
    error = fields.String()


def _runner() -> JobRunner:
    """The worker processes' queue with REDIS_URL on a single Redis; else a
    thread of this process (RQ cannot use a cluster; the embedded store has no workers)."""
    settings = current_app.extensions["melee.settings"]
    jobs = store().simulation_jobs()
    if settings.redis_url and not is_cluster_url(settings.redis_url):
        return QueueRunner(jobs, settings.simulation_queue, settings.simulation_queue_max_chunks)
    return ThreadRunner(jobs)


def _job_body(job: simulations.Job) -> dict:
    body: dict[str, Any] = {"id": job.id, "status": job.status, "progress": {"done": job.done, "total": job.total}}
    if job.result is not None:
        body["result"] = job.result
    if job.error is not None:
        body["error"] = job.error
    if job.retries:
        body["retries"] = job.retries
    return body


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
        # An API key only where the deployment sets API_KEYS: {} says none is needed otherwise.
        security=[{"apiKey": []}, {}],
    )
    @blp.arguments(SimulationRequest)
    @blp.response(200, description="The result, inline.")
    @blp.alt_response(202, schema=SimulationJob, description="Accepted as a job; poll Location.")
    @api_key_required
    def post(self, request_body):
        asked = simulations.Asked(
            request_body["template"],
            request_body["fights"],
            request_body["seed"],
            Tactic(**request_body["tactic"]),
            request_body["background"],
        )
        try:
            outcome = simulations.simulate(asked, runner=_runner(), compute=RequestCompute())
        except QueueFull as full:
            return problem(
                503,
                "simulation-queue-full",
                refusal("Simulation queue full"),
                refusal(
                    "the simulation queue holds {queued} chunks of every client's jobs and takes at most "
                    "{limit} (SIMULATION_QUEUE_MAX_CHUNKS); this job adds {more}; retry after Retry-After",
                    queued=full.queued,
                    limit=full.limit,
                    more=full.more,
                ),
                headers={"Retry-After": str(current_app.extensions["melee.settings"].retry_after_seconds)},
                queued=full.queued,
                limit=full.limit,
            )
        except RunnerBusy:
            return problem(
                503,
                "simulation-busy",
                refusal("Simulation worker busy"),
                refusal("this process already runs a simulation job; retry later"),
                headers={"Retry-After": str(current_app.extensions["melee.settings"].retry_after_seconds)},
            )
        if isinstance(outcome, simulations.Ran):
            return outcome.result, 200
        return _job_body(outcome), 202, {"Location": url_for("simulations.Simulation", job_id=outcome.id)}


@blp.route("/<job_id>")
class Simulation(MethodView):
    @blp.doc(
        operationId="getSimulation",
        summary="Read a simulation job: its progress, then its result",
        description="Poll it until `status` is done (or failed); the result then has the same shape as an inline one.",
    )
    @blp.response(200, SimulationJob)
    def get(self, job_id):
        try:
            return _job_body(simulations.read_job(store().simulation_jobs(), job_id))
        except simulations.JobNotFound:
            return problem(
                404,
                "not-found",
                refusal("Simulation not found"),
                refusal("no simulation job {job_id}: it never existed or expired", job_id=job_id),
            )
