"""Simulation jobs in Redis: one hash per job, kept for a while after it ends.

``status`` is queued, running, done or failed; ``done``/``total`` the fights
played so far; ``result`` the JSON result once done. ``updated_at`` moves
with every progress report, so a reader can tell a job whose worker died
(docs/simulations.md).
"""

from __future__ import annotations

import json
import time

from .errors import retrying_read, unavailable_on_failure
from .keys import dumps

JOB_TTL_SECONDS = 3600


def job_key(job_id: str) -> str:
    return f"simulation:{{{job_id}}}"


class SimulationJobs:
    def __init__(self, client, ttl_seconds: int = JOB_TTL_SECONDS):
        self.client = client
        self.ttl_seconds = ttl_seconds

    def _write(self, job_id: str, **fields) -> None:
        with unavailable_on_failure():
            pipe = self.client.pipeline(transaction=True)
            pipe.hset(job_key(job_id), mapping={**fields, "updated_at": int(time.time())})
            pipe.expire(job_key(job_id), self.ttl_seconds)
            pipe.execute()

    def create(self, job_id: str, total: int) -> None:
        self._write(job_id, status="queued", done=0, total=total, created_at=int(time.time()))

    def progress(self, job_id: str, done: int) -> None:
        self._write(job_id, status="running", done=done)

    def finish(self, job_id: str, result: dict) -> None:
        self._write(job_id, status="done", done=result["fights"], result=dumps(result))

    def fail(self, job_id: str, message: str) -> None:
        self._write(job_id, status="failed", error=message)

    def get(self, job_id: str) -> dict | None:
        with unavailable_on_failure():
            raw = retrying_read(lambda: self.client.hgetall(job_key(job_id)))
        if not raw:
            return None
        job = {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v) for k, v in raw.items()}
        for name in ("done", "total", "created_at", "updated_at"):
            job[name] = int(job[name]) if name in job else None
        if "result" in job:
            job["result"] = json.loads(job["result"])
        return job
