"""Simulation jobs played by real worker processes (python -m service.jobs.worker) on a real Redis.

On REDIS_URL when it is set (CI), else on a redis-server of the test's own.
Every run uses a queue of its own, and removes only its own keys at the end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis

from service.app import create_app
from service.jobs import threads as simulation_jobs
from service.rules.registry import RULESETS
from service.settings import Settings
from service.simulation import Tactic, simulate
from service.simulation.runner import CHUNK_FIGHTS

from ..redis_server import AVAILABLE, OwnRedis

ROOT = Path(__file__).resolve().parents[2]
FIGHTS, SEED = 3 * CHUNK_FIGHTS, 11  # three chunks
TEMPLATE = {key: value for key, value in RULESETS["sistema-2d6"].example()["combat"].items() if key != "dice"}


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    if not AVAILABLE:
        pytest.skip("needs REDIS_URL or redis-server on PATH")
    own = OwnRedis(tmp_path_factory.mktemp("redis"))
    own.start()
    yield own.url
    own.stop()


@pytest.fixture(scope="module")
def single_process_result():
    return simulate(TEMPLATE, FIGHTS, SEED, Tactic())


class Workers:
    """Worker processes on a queue of this test's own, each the leader of its own process group."""

    def __init__(self, redis_url: str):
        self.redis_url = redis_url
        self.queue = f"melee-test-{uuid.uuid4().hex}"
        self.processes: list[subprocess.Popen] = []
        self.job_ids: list[str] = []
        self.app = create_app(Settings(redis_url=redis_url, simulation_queue=self.queue, rate_limit=""))
        self.client = self.app.test_client()

    def start(self) -> subprocess.Popen:
        env = {
            **os.environ,
            "REDIS_URL": self.redis_url,
            "SIMULATION_QUEUE": self.queue,
            "WORKER_HEARTBEAT_SECONDS": "1",
            "LOG_LEVEL": "WARNING",
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "service.jobs.worker"], cwd=ROOT, env=env, start_new_session=True
        )
        self.processes.append(process)
        return process

    def post(self) -> str:
        response = self.client.post(
            "/simulations", json={"template": TEMPLATE, "fights": FIGHTS, "seed": SEED, "background": True}
        )
        assert response.status_code == 202
        self.job_ids.append(response.get_json()["id"])
        return response.headers["Location"]

    def wait(self, location: str, until, seconds: float) -> dict:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            job = self.client.get(location).get_json()
            if until(job):
                return job
            time.sleep(0.05)
        raise AssertionError(f"not reached in {seconds} s: {job}")

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        client = redis.Redis.from_url(self.redis_url)
        # RQ's shared sets name our workers and our queue among others': take out ours only.
        for worker_key in client.smembers(f"rq:workers:{self.queue}"):
            client.srem("rq:workers", worker_key)
            client.delete(worker_key)
        client.srem("rq:queues", f"rq:queue:{self.queue}")
        mine = [f"*{self.queue}*"] + [f"*{job_id}*" for job_id in self.job_ids]
        for pattern in mine:
            keys = list(client.scan_iter(match=pattern, count=1000))
            if keys:
                client.delete(*keys)
        client.close()


@pytest.fixture
def workers(redis_url):
    workers = Workers(redis_url)
    yield workers
    workers.close()


def finished(job: dict) -> bool:
    return job["status"] in ("done", "failed")


def test_two_workers_play_the_chunks_and_answer_the_single_process_result(workers, single_process_result, monkeypatch):
    def in_the_web_process(*args):
        raise AssertionError("with a queue, no job runs in the web process")

    monkeypatch.setattr(simulation_jobs, "start", in_the_web_process)
    workers.start()
    workers.start()
    job = workers.wait(workers.post(), finished, seconds=120)
    assert job["status"] == "done" and job["progress"] == {"done": FIGHTS, "total": FIGHTS}
    assert job["result"] == single_process_result
    assert "retries" not in job


def test_a_worker_killed_mid_chunk_has_its_chunk_retried_by_another(workers, single_process_result):
    doomed = workers.start()
    location = workers.post()
    # Mid-chunk: some fights of a chunk played (progress comes every 500), not all of them.
    workers.wait(location, lambda job: job["progress"]["done"] % CHUNK_FIGHTS, seconds=60)
    # The worker and its work horse (RQ gives it a process group of its own), as when a node dies.
    horses = Path(f"/proc/{doomed.pid}/task/{doomed.pid}/children").read_text().split()
    assert horses, "the worker plays its chunk in a forked work horse"
    for pid in [doomed.pid, *map(int, horses)]:
        os.kill(pid, signal.SIGKILL)
    doomed.wait()
    workers.start()
    # The dead worker's lease (3 heartbeats) expires, the new worker's maintenance retries the chunk.
    job = workers.wait(location, finished, seconds=90)
    assert job["status"] == "done", job
    assert job["retries"] >= 1
    assert job["result"] == single_process_result
