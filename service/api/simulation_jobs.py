"""Simulation jobs without a queue: one thread in each serving process.

With a queue (REDIS_URL on a single Redis) the chunks of a job go to the
worker processes (service/jobs/queue.py). Without one (the embedded store,
or a Redis Cluster, which RQ cannot use), a background thread of the
gunicorn worker that accepted it hands the job's chunks to child processes,
one per core (service/simulation/pool.py), and writes progress and result
to the same hash, so any worker answers ``GET /simulations/<id>``. Limits,
documented in docs/simulations.md:
- one job at a time per process (a busy process answers 503 and Retry-After;
  the load balancer's next attempt may reach an idle one);
- the job's children share the machine's cores with the serving processes;
- a job dies with its process (deploy, crash): its progress stops moving and
  readers see it as ``lost`` after ``LOST_AFTER_SECONDS``; post it again.
"""

from __future__ import annotations

import logging
import threading
import time

from ..jobs.chunk import run_chunks
from ..simulation.pool import default_processes
from ..simulation.runner import chunks
from ..store.jobs import SimulationJobs

log = logging.getLogger(__name__)

LOST_AFTER_SECONDS = 120
_slot = threading.Semaphore(1)


class Busy(Exception):
    """This process already runs a simulation job."""


def start(jobs: SimulationJobs, job_id: str, asked: dict) -> None:
    if not _slot.acquire(blocking=False):
        raise Busy()
    try:
        jobs.create(job_id, asked["fights"], len(chunks(asked["fights"])), runner="thread")
        threading.Thread(target=_run, args=(jobs, job_id, asked), name=f"simulation-{job_id}", daemon=True).start()
    except BaseException:
        _slot.release()
        raise


def _run(jobs: SimulationJobs, job_id: str, asked: dict) -> None:
    try:
        run_chunks(jobs, job_id, asked, default_processes())
    except Exception:  # the job's reader must learn it failed
        log.exception("simulation job %s failed", job_id)
        try:
            jobs.fail(job_id, "The simulation failed (the error is in the server's log); post it again.")
        except Exception:
            log.exception("could not record the failure of simulation job %s", job_id)
    finally:
        _slot.release()


def public_status(job: dict, now: float | None = None) -> str:
    """The stored status, or ``lost`` when an unfinished thread-run job stopped reporting."""
    now = time.time() if now is None else now
    if job["runner"] == "thread" and job["status"] in ("queued", "running") and now - job["updated_at"] > LOST_AFTER_SECONDS:
        return "lost"
    return job["status"]
