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

from ..simulation.pool import default_processes
from ..simulation.runner import chunks
from ..store.jobs import SimulationJobs
from ..usecases.ports import RunnerBusy
from .chunk import run_chunks

log = logging.getLogger(__name__)

_slot = threading.Semaphore(1)

Busy = RunnerBusy  # this process already runs a simulation job


class ThreadRunner:
    """The ``JobRunner`` without a queue: ``start`` in this process."""

    def __init__(self, jobs: SimulationJobs):
        self.jobs = jobs

    def submit(self, job_id: str, asked: dict) -> None:
        start(self.jobs, job_id, asked)


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
