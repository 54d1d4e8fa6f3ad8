"""Simulation jobs on an RQ queue: one RQ job per chunk, played by worker processes.

Why RQ: it is maintained, needs nothing but the Redis Melee already uses,
and has what a job needs without extra middleware: a timeout per job, a
retry policy, the started-job registry that retries (or fails) the job of a
worker that died, failure callbacks and results kept with a TTL. Dramatiq
would need its results and retries middlewares and a callback backend for
the same.

Every chunk is its own RQ job with a timeout and ``CHUNK_RETRIES`` retries;
a chunk whose retries are spent marks the whole simulation failed, with the
reason. Progress and the merged result live in the job's hash
(service/store/jobs.py), so the web answers ``GET /simulations/<id>``
without importing RQ's state.
"""

from __future__ import annotations

import logging

from redis.exceptions import WatchError
from rq import Queue, Retry, get_current_job
from rq.callbacks import Callback

from ..simulation.runner import chunks
from ..store.errors import unavailable_on_failure
from ..store.jobs import JOB_TTL_SECONDS, SimulationJobs
from ..usecases.ports import QueueFull
from .chunk import run_chunk

log = logging.getLogger(__name__)

# A chunk plays CHUNK_FIGHTS fights, about 1 to 3 s on one core: a chunk
# that takes this long is stuck.
CHUNK_TIMEOUT_SECONDS = 300
# Attempts after the first, for an exception, a timeout or a dead worker.
CHUNK_RETRIES = 2


def enqueue(jobs: SimulationJobs, queue_name: str, job_id: str, asked: dict, max_chunks: int | None = None) -> None:
    """Record the job and put each of its chunks on the queue (in the jobs' Redis), in one transaction.

    With ``max_chunks``: QueueFull, and nothing recorded, when the chunks
    already waiting on the queue (every client's) and this job's would pass it.
    The check and the writes are one step for every web process: the queue's
    length is read under WATCH and the job written in MULTI/EXEC (RQ writes
    into a pipeline it is given); if another process changed the queue in
    between, EXEC writes nothing and the check is made again."""
    count = len(chunks(asked["fights"]))
    queue = Queue(queue_name, connection=jobs.client)
    prepared = [
        Queue.prepare_data(
            play_chunk,
            args=(job_id, index, asked),
            job_id=f"{job_id}-{index}",
            description=f"simulation {job_id} chunk {index + 1}/{count}",
            timeout=CHUNK_TIMEOUT_SECONDS,
            retry=Retry(max=CHUNK_RETRIES),
            result_ttl=JOB_TTL_SECONDS,
            failure_ttl=JOB_TTL_SECONDS,
            on_failure=Callback(chunk_failed),
        )
        for index in range(count)
    ]
    with unavailable_on_failure(), jobs.client.pipeline(transaction=True) as pipe:
        while True:
            try:
                pipe.watch(queue.key)
                queued = pipe.llen(queue.key)
                if max_chunks is not None and queued + count > max_chunks:
                    raise QueueFull(queued, count, max_chunks)
                pipe.multi()
                jobs.create_on(pipe, job_id, asked["fights"], count, runner="queue")
                queue.enqueue_many(prepared, pipeline=pipe)
                pipe.execute()
                return
            except WatchError:  # another process queued or took a chunk since the WATCH: check again
                continue


class QueueRunner:
    """The ``JobRunner`` of the worker processes: ``enqueue`` on the RQ queue ``queue_name``."""

    def __init__(self, jobs: SimulationJobs, queue_name: str, max_chunks: int | None = None):
        self.jobs = jobs
        self.queue_name = queue_name
        self.max_chunks = max_chunks

    def submit(self, job_id: str, asked: dict) -> None:
        enqueue(self.jobs, self.queue_name, job_id, asked, self.max_chunks)


def play_chunk(job_id: str, index: int, asked: dict) -> None:
    """The RQ job: runs in a worker's work horse."""
    job = get_current_job()
    assert job is not None  # RQ calls this only from a job
    run_chunk(SimulationJobs(job.connection), job_id, index, asked)


def chunk_failed(job, connection, exc_type, exc_value, traceback) -> None:
    """RQ's failure callback, before it retries the chunk (or gives up on it).

    Also called by a worker's maintenance for the chunk of a worker that
    died (``AbandonedJobError``).
    """
    job_id, index = job.args[0], job.args[1]
    jobs = SimulationJobs(connection)
    reason = exc_type.__name__ if exc_type else "an unknown error"
    if job.retries_left:
        log.warning("simulation %s chunk %s failed (%s); retrying it", job_id, index, reason)
        jobs.retried(job_id)
    else:
        log.error("simulation %s chunk %s failed (%s) after %s attempts", job_id, index, reason, CHUNK_RETRIES + 1)
        jobs.fail(job_id, _failure_message(reason))


def _failure_message(reason: str) -> str:
    why = {
        "AbandonedJobError": "its worker stopped",
        "JobTimeoutException": f"it ran longer than {CHUNK_TIMEOUT_SECONDS} seconds",
    }.get(reason, "an unexpected error, logged by the worker")
    return f"Part of the simulation failed {CHUNK_RETRIES + 1} times ({why}); post it again."
