"""The simulation worker's lease and maintenance follow WORKER_HEARTBEAT_SECONDS."""

from __future__ import annotations

import fakeredis

from service.jobs.worker import make_worker
from service.settings import Settings


class Chunk:
    def __init__(self, timeout):
        self.timeout = timeout


def test_a_running_chunk_is_leased_for_three_heartbeats_and_maintenance_runs_every_three():
    worker = make_worker(Settings(worker_heartbeat_seconds=10), fakeredis.FakeRedis(server=fakeredis.FakeServer()))
    assert worker.job_monitoring_interval == 10 and worker.maintenance_interval == 30
    assert worker.get_heartbeat_ttl(Chunk(timeout=300)) == 10 + 2 * 10
    # Near its timeout the lease shrinks to what is left, plus the two heartbeats of grace: 4 + 20.
    assert worker.get_heartbeat_ttl(Chunk(timeout=300), working_time=296) == 24
    # An idle worker waits on the queue 30 s (worker_ttl 45 - 15) between maintenances.
    assert worker.dequeue_timeout == 30


def test_the_worker_reads_its_queue_and_heartbeat_from_the_environment():
    settings = Settings.from_env({"SIMULATION_QUEUE": "melee-staging", "WORKER_HEARTBEAT_SECONDS": "5"})
    assert (settings.simulation_queue, settings.worker_heartbeat_seconds) == ("melee-staging", 5)
    assert Settings.from_env({}).simulation_queue == "melee-simulations"


def test_the_worker_refuses_to_start_without_a_single_redis(monkeypatch):
    from service.jobs import worker

    monkeypatch.delenv("REDIS_URL", raising=False)
    assert worker.main() == 2
    monkeypatch.setenv("REDIS_URL", "redis+cluster://127.0.0.1:7000/")
    assert worker.main() == 2
