"""A run played by child processes answers the single-process run, byte for byte."""

from __future__ import annotations

import json

import fakeredis
import pytest

from service.jobs.chunk import run_chunks
from service.rules.registry import RULESETS
from service.simulation import Tactic, runner, simulate
from service.simulation.pool import ChildFailed, play_chunks
from service.simulation.runner import job_request as request
from service.store.jobs import SimulationJobs


def template(ruleset_id: str) -> dict:
    return {key: value for key, value in RULESETS[ruleset_id].example()["combat"].items() if key != "dice"}


@pytest.mark.parametrize(
    ("ruleset_id", "tactic"), [("sistema-2d6", Tactic()), ("dark-earth", Tactic("weakest", "aggressive"))]
)
@pytest.mark.parametrize("processes", [1, 2])
def test_one_or_two_processes_give_the_single_process_answer(monkeypatch, ruleset_id, tactic, processes):
    monkeypatch.setattr(runner, "CHUNK_FIGHTS", 15)  # 50 fights: 4 chunks (15, 15, 15, 5)
    body = template(ruleset_id)
    single = json.dumps(simulate(body, 50, 9, tactic))
    told: dict[int, list[int]] = {}
    parts = play_chunks(
        body, 9, tactic, 50, processes, progress=lambda index, done: told.setdefault(index, []).append(done), every=10
    )
    assert len(parts) == 4
    assert json.dumps(runner.report(body, 9, tactic, runner.Summary.merged(body, parts))) == single
    # Each chunk is announced (0), then told every 10 fights: chunks of 15, 15, 15 and 5.
    assert told == {0: [0, 10], 1: [0, 10], 2: [0, 10], 3: [0]}


def test_a_job_played_by_child_processes_records_each_chunk_and_the_merged_result(monkeypatch):
    monkeypatch.setattr(runner, "CHUNK_FIGHTS", 20)  # 50 fights: 3 chunks
    jobs = SimulationJobs(fakeredis.FakeRedis(server=fakeredis.FakeServer()))
    asked = request(template("sistema-2d6"), 50, 3, Tactic())
    jobs.create("j", 50, 3, runner="thread")
    run_chunks(jobs, "j", asked, processes=2)
    job = jobs.get("j")
    assert (job["status"], job["done"]) == ("done", 50)
    assert json.dumps(job["result"]) == json.dumps(simulate(asked["template"], 50, 3, Tactic()))


def test_a_failed_job_starts_no_child():
    jobs = SimulationJobs(fakeredis.FakeRedis(server=fakeredis.FakeServer()))
    jobs.create("j", 10, 1, runner="thread")
    jobs.fail("j", "stopped")
    run_chunks(jobs, "j", request(template("sistema-2d6"), 10, 3, Tactic()), processes=2)
    assert jobs.get("j")["done"] == 0


@pytest.mark.parametrize("fork", [True, False])
def test_forked_and_executed_children_answer_alike(fork):
    body, tactic = template("age-du-silicium"), Tactic()
    parts = play_chunks(body, 4, tactic, 30, 2, size=8, fork=fork)
    assert json.dumps(runner.report(body, 4, tactic, runner.Summary.merged(body, parts))) == json.dumps(
        simulate(body, 30, 4, tactic)
    )


@pytest.mark.parametrize("fork", [True, False])
def test_a_failing_child_raises_with_its_error_forked_or_executed(fork):
    with pytest.raises(ChildFailed, match="InvalidInput"):
        play_chunks({"ruleset": "chess"}, 1, Tactic(), 10, 2, fork=fork)


GEVENT_RUN = """
from gevent import monkey; monkey.patch_all()
import json, sys
import gevent
from service.rules.registry import RULESETS
from service.simulation import Tactic, runner, simulate
from service.simulation.pool import can_fork, play_chunks
body = {k: v for k, v in RULESETS["sistema-2d6"].example()["combat"].items() if k != "dice"}
ticks = []
def tick():
    while True:
        ticks.append(1)
        gevent.sleep(0.005)
ticker = gevent.spawn(tick)
gevent.sleep(0)
parts = play_chunks(body, 1, Tactic(), 400, 2, size=100)
ticker.kill()
merged = runner.report(body, 1, Tactic(), runner.Summary.merged(body, parts))
same = json.dumps(merged) == json.dumps(simulate(body, 400, 1))
print(json.dumps({"can_fork": can_fork(), "same": same, "ticks": len(ticks)}))
"""


def test_under_gevent_the_children_are_executed_and_the_loop_keeps_running():
    """The web process's case: monkey-patched, no fork; waiting on the children lets other greenlets run."""
    import subprocess
    import sys
    from pathlib import Path

    out = subprocess.run(
        [sys.executable, "-c", GEVENT_RUN],
        cwd=Path(__file__).resolve().parents[3],
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(out.stdout.strip().splitlines()[-1])
    assert answer["can_fork"] is False
    assert answer["same"] is True
    # Blocked for the whole run, the ticker would have run once, at its start.
    assert answer["ticks"] > 2
