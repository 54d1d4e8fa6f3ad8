"""Simulations: many seeded fights from one combat template, played inline
or as a job (docs/simulations.md).

A short run is played in the request, under the process's CPU budget
(``Compute``); a long one, or one asked for in the background, becomes a job
whose chunks a ``JobRunner`` plays (the worker processes' queue, or a thread
of the serving process) and whose progress and result the ``Jobs`` port
keeps. Reading a job derives what readers see from what the runners wrote.
"""

from __future__ import annotations

import secrets
import time
import uuid
from dataclasses import dataclass
from typing import Any

from ..jobs import chunk
from ..simulation import Tactic
from ..simulation import simulate as play_fights
from ..simulation.runner import load_template
from .ports import Compute, JobRunner, Jobs

# Runs up to this many fights answer inline; longer ones run as a job. At
# most ~2 s of a request thread (duel-2d6, the slowest ruleset: 8 ms a fight).
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


def simulate(asked: Asked, *, runner: JobRunner, compute: Compute, job_id: str | None = None) -> Ran | Job:
    """Play ``asked`` inline, or hand it to ``runner`` as a job (RunnerBusy when it takes none).

    The template is checked first (InvalidInput, 422), before the
    compute budget is charged or a job recorded."""
    load_template(asked.template)
    seed = asked.seed if asked.seed is not None else secrets.randbits(63)
    with compute.limited():
        if asked.inline:
            return Ran(compute.run(play_fights, asked.template, asked.fights, seed, asked.tactic))
        job_id = job_id or uuid.uuid4().hex
        runner.submit(job_id, chunk.request(asked.template, asked.fights, seed, asked.tactic))
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
