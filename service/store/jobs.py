"""Simulation jobs in Redis: one hash per job, kept for a while after it ends.

A job is played in chunks (service/jobs/chunk.py). Its hash holds what was
asked (``total`` fights in ``chunks`` chunks, ``runner``: ``queue`` for the
worker processes, ``thread`` for the embedded one), each chunk's progress
(``done:<i>``) and, once played, its counts (``part:<i>``), then ``result``
or ``error``. Writers only ever add or overwrite their own fields, so there
is no status to race on: ``get`` derives it (queued, running, done,
failed). ``retries`` counts the chunks started again after a failure or the
death of their worker. ``updated_at`` moves with every write, so a reader can
tell a thread-run job whose process died (docs/simulations.md).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any

from .cluster import RedisClient
from .errors import retrying_read, unavailable_on_failure
from .keys import dumps

JOB_TTL_SECONDS = 3600


def job_key(job_id: str) -> str:
    return f"simulation:{{{job_id}}}"


class SimulationJobs:
    def __init__(self, client: RedisClient, ttl_seconds: int = JOB_TTL_SECONDS):
        self.client = client
        self.ttl_seconds = ttl_seconds

    def _pipeline(self, job_id: str, **fields: Any) -> Any:  # a redis pipeline
        pipe = self.client.pipeline(transaction=True)
        self._set(pipe, job_id, **fields)
        return pipe

    def _set(self, pipe: Any, job_id: str, **fields: Any) -> None:
        pipe.hset(job_key(job_id), mapping={**fields, "updated_at": int(time.time())})
        pipe.expire(job_key(job_id), self.ttl_seconds)

    def _write(self, job_id: str, **fields: Any) -> None:
        with unavailable_on_failure():
            self._pipeline(job_id, **fields).execute()

    def create(self, job_id: str, total: int, chunks: int, runner: str) -> None:
        with unavailable_on_failure():
            pipe = self.client.pipeline(transaction=True)
            self.create_on(pipe, job_id, total, chunks, runner)
            pipe.execute()

    def create_on(self, pipe: Any, job_id: str, total: int, chunks: int, runner: str) -> None:
        """``create``'s writes, added to ``pipe``: a transaction of the caller's (the job queue's)."""
        self._set(pipe, job_id, total=total, chunks=chunks, runner=runner, created_at=int(time.time()))

    def progress(self, job_id: str, chunk: int, done: int) -> None:
        self._write(job_id, **{f"done:{chunk}": done})

    def chunk_played(
        self, job_id: str, chunk: int, done: int, counts: Mapping[str, Any]
    ) -> list[dict[str, Any]] | None:
        """Record a chunk's counts; every chunk's counts, in order, once all are in.

        Idempotent: a chunk played twice (its worker died after this write)
        writes the same counts again. Two last chunks finishing together both
        get the list, and both write the same result.
        """
        with unavailable_on_failure():
            self._pipeline(job_id, **{f"done:{chunk}": done, f"part:{chunk}": dumps(counts)}).execute()
            # Read after our own write: of chunks finishing together, the last to read sees them all.
            fields = _decoded(self.client.hgetall(job_key(job_id)))
        parts = {int(name[5:]): value for name, value in fields.items() if name.startswith("part:")}
        if len(parts) < int(fields["chunks"]):
            return None
        return [json.loads(parts[index]) for index in sorted(parts)]

    def retried(self, job_id: str) -> None:
        with unavailable_on_failure():
            pipe = self._pipeline(job_id)
            pipe.hincrby(job_key(job_id), "retries", 1)
            pipe.execute()

    def finish(self, job_id: str, result: Mapping[str, Any]) -> None:
        with unavailable_on_failure():
            pipe = self._pipeline(job_id, result=dumps(result))
            # The chunks' counts are in the result now.
            pipe.hdel(job_key(job_id), *(f"part:{index}" for index in range(self._chunks(job_id))))
            pipe.execute()

    def fail(self, job_id: str, message: str) -> None:
        self._write(job_id, error=message)

    def _chunks(self, job_id: str) -> int:
        return int(self.client.hget(job_key(job_id), "chunks") or 0)

    def get(self, job_id: str) -> dict[str, Any] | None:
        """The job as readers see it: status, done and total fights, result or error."""
        with unavailable_on_failure():
            raw = retrying_read(lambda: self.client.hgetall(job_key(job_id)))
        if not raw:
            return None
        fields = _decoded(raw)
        progress = [int(value) for name, value in fields.items() if name.startswith("done:")]
        done = sum(progress)
        job = {
            "status": "failed"
            if "error" in fields
            else "done"
            if "result" in fields
            else "running"
            if progress
            else "queued",
            "done": done,
            "runner": fields.get("runner"),
        }
        for name in ("total", "chunks", "retries", "created_at", "updated_at"):
            job[name] = int(fields[name]) if name in fields else None
        if "result" in fields:
            job["result"] = json.loads(fields["result"])
            job["done"] = job["total"]
        if "error" in fields:
            job["error"] = fields["error"]
        return job


def _decoded(raw: Mapping[Any, Any]) -> dict[str, Any]:
    return {
        (k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v) for k, v in raw.items()
    }
