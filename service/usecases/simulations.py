"""Simulations: many seeded fights from one combat template, played inline
or as a job (docs/simulations.md).

A short run is played in the request, under the process's CPU budget
(``Compute``); a long one, or one asked for in the background, becomes a job
whose chunks a ``JobRunner`` plays (the worker processes' queue, or a thread
of the serving process), charged to the same budget once the runner took it,
and whose progress and result the ``Jobs`` port keeps. Reading a job derives
what readers see from what the runners wrote.
"""

from __future__ import annotations

import secrets
import time
import uuid
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from ..rules.errors import InvalidInput
from ..simulation import Tactic
from ..simulation import simulate as play_fights
from ..simulation.runner import job_request, load_template
from . import budget
from .ports import Compute, JobRunner, Jobs

# Runs up to this many fights, and budget.INLINE_MAX_UNITS units (about 2.5 s
# of a web worker), answer inline; longer ones run as a job.
INLINE_MAX_FIGHTS = 250
# A thread-run job whose progress has not moved for this long died with its process.
LOST_AFTER_SECONDS = 120


@dataclass(frozen=True)
class Asked:
    """A simulation request, validated but for the template: ``seed`` None draws
    one; ``background`` None runs inline up to INLINE_MAX_FIGHTS fights."""

    template: dict[str, Any]
    fights: int
    seed: int | None = None
    tactic: Tactic = Tactic()
    background: bool | None = None

    @property
    def inline(self) -> bool:
        return not (self.background or (self.background is None and self.fights > INLINE_MAX_FIGHTS))

    def runs_inline(self, cost: int) -> bool:
        """Inline when asked so, or by default when short in fights and in units."""
        return self.inline and (self.background is False or cost <= budget.INLINE_MAX_UNITS)


@dataclass(frozen=True)
class Ran:
    """An inline run's result."""

    result: dict[str, Any]


@dataclass(frozen=True)
class Job:
    """A job as readers see it: ``status`` queued, running, done, failed or
    lost; ``done`` of ``total`` fights played; ``retries``: chunks started again."""

    id: str
    status: str
    done: int
    total: int
    retries: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None


class JobNotFound(Exception):
    """No simulation job has this id: it never existed, or expired (404)."""


class SimulationCompute(Compute, Protocol):
    """``Compute`` (ports.py), and ``accepting(cost)`` around handing a job to its
    runner: it refuses as ``limited`` does, but charges the units only once the
    block ended without an error, so that a job the runner refuses costs nothing."""

    def accepting(self, cost: int) -> AbstractContextManager[None]: ...


def simulate(asked: Asked, *, runner: JobRunner, compute: SimulationCompute, job_id: str | None = None) -> Ran | Job:
    """Play ``asked`` inline, or hand it to ``runner`` as a job (RunnerBusy when it takes none).

    The template is checked first (InvalidInput, 422), before the
    compute budget is charged or a job recorded. The cost is the fights times
    what one fight of the template's ruleset and size takes (usecases/budget.py):
    past ``budget.MAX_REQUEST_UNITS`` a 422 says how many fights the template
    may have; inline past ``budget.INLINE_MAX_UNITS``, a 422 too (or a job when
    ``background`` is not given)."""
    ruleset, data = load_template(asked.template)
    shape = {"ruleset": ruleset.id, "combatants": data["combatants"]}
    cost = budget.simulation_cost(shape, asked.fights)
    if cost > budget.MAX_REQUEST_UNITS:
        raise InvalidInput(
            {
                "fights": [
                    f"this template costs {cost // asked.fights} compute units a fight: "
                    f"at most {budget.max_fights(shape)} fights in one request"
                ]
            }
        )
    inline = asked.runs_inline(cost)
    if inline and cost > budget.INLINE_MAX_UNITS:
        fights = budget.INLINE_MAX_UNITS // (cost // asked.fights)
        raise InvalidInput(
            {"fights": [f"at most {fights} fights of this template inline; send background: true for more"]}
        )
    seed = asked.seed if asked.seed is not None else secrets.randbits(63)
    if inline:
        with compute.limited(cost):
            return Ran(compute.run(play_fights, asked.template, asked.fights, seed, asked.tactic))
    job_id = job_id or uuid.uuid4().hex
    with compute.accepting(cost):  # a job the runner refuses (RunnerBusy, QueueFull) is charged nothing
        runner.submit(job_id, job_request(asked.template, asked.fights, seed, asked.tactic))
    return Job(job_id, "queued", 0, asked.fights)


def read_job(jobs: Jobs, job_id: str, now: float | None = None) -> Job:
    stored = jobs.get(job_id)
    if stored is None:
        raise JobNotFound(job_id)
    return Job(
        job_id,
        public_status(stored, now),
        stored["done"],
        stored["total"],
        stored.get("retries") or 0,
        stored.get("result"),
        stored.get("error"),
    )


def public_status(job: dict[str, Any], now: float | None = None) -> str:
    """The stored status, or ``lost`` when an unfinished thread-run job stopped reporting."""
    now = time.time() if now is None else now
    if (
        job["runner"] == "thread"
        and job["status"] in ("queued", "running")
        and now - job["updated_at"] > LOST_AFTER_SECONDS
    ):
        return "lost"
    return str(job["status"])
