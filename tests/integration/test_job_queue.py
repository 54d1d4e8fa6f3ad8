"""The simulation job queue (service/jobs/queue.py) on fakeredis and (with REDIS_URL) a real Redis:
the bound on the queued chunks holds for every web process at once."""

from __future__ import annotations

import uuid

import pytest
from rq import Queue

from service.jobs import queue
from service.rules.registry import get_ruleset
from service.simulation import Tactic
from service.simulation.runner import job_request
from service.store.jobs import SimulationJobs
from service.usecases.ports import QueueFull

TEMPLATE = {key: value for key, value in get_ruleset("sistema-2d6").example()["combat"].items() if key != "dice"}
# 6,000 fights: three chunks of 2,000.
ASKED = job_request(TEMPLATE, 6_000, 1, Tactic())


@pytest.fixture
def queued(store):
    """The jobs of a queue of this test's own, and the queue's name; their keys deleted afterwards."""
    name, client = f"melee-test-{uuid.uuid4().hex}", store.client
    yield SimulationJobs(client), name
    keys = list(client.scan_iter(match=f"*{name}*", count=1000))  # the queue, its RQ jobs, the jobs' hashes
    if keys:
        client.delete(*keys)
    client.srem("rq:queues", f"rq:queue:{name}")


def test_a_job_that_would_pass_the_bound_is_refused_and_nothing_recorded(queued):
    jobs, name = queued
    queue.enqueue(jobs, name, f"{name}-a", ASKED, max_chunks=4)
    with pytest.raises(QueueFull) as refused:
        queue.enqueue(jobs, name, f"{name}-b", ASKED, max_chunks=4)
    assert (refused.value.queued, refused.value.more, refused.value.limit) == (3, 3, 4)
    assert Queue(name, connection=jobs.client).count == 3
    assert jobs.get(f"{name}-a")["chunks"] == 3 and jobs.get(f"{name}-b") is None


def test_two_web_processes_enqueuing_at_the_bound_at_once_queue_one_job(queued, monkeypatch):
    """B's whole enqueue runs while A is between its check of the queue and its writes: A's check must not stand."""
    jobs, name = queued
    enqueue_many = Queue.enqueue_many
    refusals: list[str] = []

    def enqueue(job_id: str) -> None:
        try:
            queue.enqueue(jobs, name, job_id, ASKED, max_chunks=4)
        except QueueFull:
            refusals.append(job_id)

    def b_cuts_in(self, *args, **kwargs):
        monkeypatch.setattr(Queue, "enqueue_many", enqueue_many)  # once: B's own enqueue is not cut into
        enqueue(f"{name}-b")
        return enqueue_many(self, *args, **kwargs)

    monkeypatch.setattr(Queue, "enqueue_many", b_cuts_in)
    enqueue(f"{name}-a")
    assert Queue(name, connection=jobs.client).count == 3  # one job's chunks: at most the bound (4)
    assert refusals == [f"{name}-a"]  # B got there first: A, checking again, finds no room
    assert jobs.get(f"{name}-a") is None and jobs.get(f"{name}-b")["chunks"] == 3
