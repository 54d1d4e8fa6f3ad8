"""A chunked simulation gives the single-process answer, byte for byte."""

from __future__ import annotations

import json
import random

import fakeredis
import pytest

from service.jobs.chunk import run_chunk
from service.rules.registry import RULESETS
from service.simulation import Tactic, runner, simulate
from service.simulation.runner import Summary, chunks, fight_seed, fight_seeds, play_range, report
from service.simulation.runner import job_request as request
from service.store.jobs import SimulationJobs


def template(ruleset_id: str) -> dict:
    return {key: value for key, value in RULESETS[ruleset_id].example()["combat"].items() if key != "dice"}


def test_chunk_boundaries_depend_only_on_the_number_of_fights():
    assert chunks(4500, 2000) == [(0, 2000), (2000, 4000), (4000, 4500)]
    assert chunks(2000, 2000) == [(0, 2000)]
    assert chunks(1, 2000) == [(0, 1)]


def test_a_fight_seed_depends_on_the_run_seed_and_the_fight_index_only():
    assert list(fight_seeds(5, 6, start=3)) == list(fight_seeds(5, 6))[3:]
    assert len({fight_seed(5, index) for index in range(1000)}) == 1000
    assert fight_seed(5, 0) != fight_seed(6, 0)
    assert all(0 <= fight_seed(seed, 7) < 2**63 for seed in (0, 1, 2**63 - 1))


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_merged_chunks_in_any_order_equal_the_single_process_run(ruleset_id):
    body, tactic = template(ruleset_id), Tactic("weakest", "aggressive")
    single = json.dumps(simulate(body, 60, 7, tactic))
    # Counts travel as JSON between processes; the chunks finish in any order.
    parts = [
        json.loads(json.dumps(play_range(body, 7, tactic, start, stop).to_counts())) for start, stop in chunks(60, 13)
    ]
    random.Random(ruleset_id).shuffle(parts)
    assert json.dumps(report(body, 7, tactic, Summary.merged(body, parts))) == single


def test_a_job_whose_chunk_is_played_twice_answers_as_if_once(monkeypatch):
    monkeypatch.setattr(runner, "CHUNK_FIGHTS", 20)
    jobs = SimulationJobs(fakeredis.FakeRedis(server=fakeredis.FakeServer()))
    asked = request(template("sistema-2d6"), 50, 3, Tactic())
    jobs.create("j", 50, 3, runner="queue")
    for index in (2, 0, 0, 1):  # chunk 0 again, as when its worker died after writing its counts
        run_chunk(jobs, "j", index, asked)
        assert jobs.get("j")["status"] == ("done" if index == 1 else "running")
    job = jobs.get("j")
    assert job["done"] == 50
    assert json.dumps(job["result"]) == json.dumps(simulate(asked["template"], 50, 3, Tactic()))


def test_a_failed_job_plays_no_more_chunks():
    jobs = SimulationJobs(fakeredis.FakeRedis(server=fakeredis.FakeServer()))
    asked = request(template("sistema-2d6"), 10, 3, Tactic())
    jobs.create("j", 10, 1, runner="queue")
    jobs.fail("j", "Part of the simulation failed 3 times (its worker stopped); post it again.")
    run_chunk(jobs, "j", 0, asked)
    job = jobs.get("j")
    assert job["status"] == "failed" and job["done"] == 0 and "result" not in job


class FakeRqJob:
    def __init__(self, retries_left: int):
        self.args = ("j", 0, {})
        self.retries_left = retries_left


def test_a_failed_chunk_with_retries_left_is_counted_then_the_last_failure_fails_the_job():
    from rq.exceptions import AbandonedJobError

    from service.jobs.queue import chunk_failed

    connection = fakeredis.FakeRedis(server=fakeredis.FakeServer())
    jobs = SimulationJobs(connection)
    jobs.create("j", 10, 1, runner="queue")
    chunk_failed(FakeRqJob(retries_left=1), connection, AbandonedJobError, AbandonedJobError(), None)
    assert jobs.get("j")["status"] == "queued" and jobs.get("j")["retries"] == 1  # back on the queue
    chunk_failed(FakeRqJob(retries_left=0), connection, AbandonedJobError, AbandonedJobError(), None)
    job = jobs.get("j")
    assert job["status"] == "failed"
    assert job["error"] == "Part of the simulation failed 3 times (its worker stopped); post it again."
