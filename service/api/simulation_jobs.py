"""The worker of long simulations: one thread in each serving process.

A job runs in a background thread of the gunicorn worker that accepted it
and writes its progress and result to Redis, so any worker answers
``GET /simulations/<id>``. Limits, documented in docs/simulations.md:
- one job at a time per process (a busy process answers 503 and Retry-After;
  the load balancer's next attempt may reach an idle one);
- the job shares its process's CPU (and the GIL) with that worker's live
  requests;
- a job dies with its process (deploy, crash): its progress stops moving and
  readers see it as ``lost`` after ``LOST_AFTER_SECONDS``; post it again.
"""

from __future__ import annotations

import logging
import threading
import time

from ..simulation import simulate
from ..store.jobs import SimulationJobs

log = logging.getLogger(__name__)

LOST_AFTER_SECONDS = 120
_slot = threading.Semaphore(1)


class Busy(Exception):
    """This process already runs a simulation job."""


def start(jobs: SimulationJobs, job_id: str, template: dict, fights: int, seed: int, tactic) -> None:
    if not _slot.acquire(blocking=False):
        raise Busy()
    try:
        jobs.create(job_id, fights)
        threading.Thread(target=_run, args=(jobs, job_id, template, fights, seed, tactic), name=f"simulation-{job_id}", daemon=True).start()
    except BaseException:
        _slot.release()
        raise


def _run(jobs: SimulationJobs, job_id: str, template: dict, fights: int, seed: int, tactic) -> None:
    try:
        jobs.progress(job_id, 0)
        result = simulate(template, fights, seed, tactic, progress=lambda done: jobs.progress(job_id, done))
        jobs.finish(job_id, result)
    except Exception as error:  # the job's reader must learn it failed
        log.exception("simulation job %s failed", job_id)
        try:
            jobs.fail(job_id, f"{type(error).__name__}: the simulation failed")
        except Exception:
            log.exception("could not record the failure of simulation job %s", job_id)
    finally:
        _slot.release()


def public_status(job: dict, now: float | None = None) -> str:
    """The stored status, or ``lost`` when an unfinished job stopped reporting."""
    now = time.time() if now is None else now
    if job["status"] in ("queued", "running") and now - job["updated_at"] > LOST_AFTER_SECONDS:
        return "lost"
    return job["status"]
