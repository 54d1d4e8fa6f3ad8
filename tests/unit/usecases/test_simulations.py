"""service/usecases/simulations.py with stand-ins for its ports: inline or as
a job, the template checked before anything is charged or recorded, and a
job read back from the in-memory ``Jobs``."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from service.jobs.chunk import run_chunk
from service.rules.errors import InvalidInput
from service.rules.registry import get_ruleset
from service.simulation import Tactic
from service.store.memory import MemoryJobs
from service.usecases.ports import RunnerBusy
from service.usecases.simulations import Asked, Job, JobNotFound, Ran, read_job, simulate

TEMPLATE = {key: value for key, value in get_ruleset("sistema-2d6").example()["combat"].items() if key != "dice"}


class Compute:
    """Charges ``limited``'s cost on entry, ``accepting``'s once its block ended without an error."""

    def __init__(self):
        self.entered = self.left = 0
        self.costs = []
        self.charged = []
        self.ran = []

    @contextmanager
    def limited(self, cost):
        self.entered += 1
        self.costs.append(cost)
        self.charged.append(cost)
        try:
            yield
        finally:
            self.left += 1

    @contextmanager
    def accepting(self, cost):
        self.entered += 1
        self.costs.append(cost)
        try:
            yield
            self.charged.append(cost)
        finally:
            self.left += 1

    def run(self, function, *args):
        self.ran.append(args)
        return function(*args)


class Runner:
    def __init__(self, busy: bool = False):
        self.busy = busy
        self.submitted = []

    def submit(self, job_id, asked):
        if self.busy:
            raise RunnerBusy()
        self.submitted.append((job_id, asked))


@pytest.mark.parametrize(
    "fights, background, inline",
    [(250, None, True), (251, None, False), (10, True, False), (10, False, True), (250, False, True)],
)
def test_up_to_250_fights_run_inline_unless_asked_otherwise(fights, background, inline):
    assert Asked(TEMPLATE, fights, background=background).inline is inline


def test_a_short_run_answers_inline_under_the_budget():
    compute, runner = Compute(), Runner()
    ran = simulate(Asked(TEMPLATE, 3, seed=7), runner=runner, compute=compute)
    assert isinstance(ran, Ran) and ran.result["fights"] == 3
    assert compute.ran == [(TEMPLATE, 3, 7, Tactic())] and (compute.entered, compute.left) == (1, 1)
    assert runner.submitted == []


def test_without_a_seed_one_is_drawn():
    compute = Compute()
    simulate(Asked(TEMPLATE, 1), runner=Runner(), compute=compute)
    seed = compute.ran[0][2]
    assert isinstance(seed, int) and 0 <= seed < 2**63


def test_a_long_run_is_handed_to_the_runner_as_a_job():
    compute, runner = Compute(), Runner()
    job = simulate(
        Asked(TEMPLATE, 300, seed=7, tactic=Tactic("weakest", "balanced")), runner=runner, compute=compute, job_id="j1"
    )
    assert job == Job("j1", "queued", 0, 300)
    assert runner.submitted == [
        ("j1", {"template": TEMPLATE, "fights": 300, "seed": 7, "tactic": {"target": "weakest", "style": "balanced"}})
    ]
    assert compute.ran == [] and (compute.entered, compute.left) == (1, 1)
    assert compute.charged == [3000]  # 300 fights × 10 units, once the runner took the job


def test_a_busy_runner_is_said_and_the_budget_given_back():
    compute = Compute()
    with pytest.raises(RunnerBusy):
        simulate(Asked(TEMPLATE, 10, background=True), runner=Runner(busy=True), compute=compute)
    assert (compute.entered, compute.left) == (1, 1)
    assert compute.costs == [100] and compute.charged == []  # refused: nothing charged


def test_a_bad_template_is_refused_before_anything_is_charged_or_recorded():
    compute, runner = Compute(), Runner()
    with pytest.raises(InvalidInput):
        simulate(Asked({**TEMPLATE, "combatants": []}, 300), runner=runner, compute=compute)
    assert (compute.entered, runner.submitted) == (0, [])


def test_a_job_read_as_it_goes():
    jobs = MemoryJobs(clock=lambda: 1000)
    jobs.create("j1", total=600, chunks=2, runner="queue")
    assert read_job(jobs, "j1") == Job("j1", "queued", 0, 600)
    jobs.progress("j1", 0, 250)
    jobs.retried("j1")
    assert read_job(jobs, "j1") == Job("j1", "running", 250, 600, retries=1)
    jobs.fail("j1", "Part of the simulation failed 3 times; post it again.")
    assert read_job(jobs, "j1").error == "Part of the simulation failed 3 times; post it again."
    assert read_job(jobs, "j1").status == "failed"


def test_a_job_played_to_the_end_answers_the_inline_result():
    jobs = MemoryJobs()
    asked = {"template": TEMPLATE, "fights": 3, "seed": 7, "tactic": {"target": "first", "style": "balanced"}}
    jobs.create("j1", total=3, chunks=1, runner="thread")
    run_chunk(jobs, "j1", 0, asked)
    job = read_job(jobs, "j1")
    inline = simulate(Asked(TEMPLATE, 3, seed=7), runner=Runner(), compute=Compute())
    assert (job.status, job.done, job.total, job.error) == ("done", 3, 3, None)
    assert isinstance(inline, Ran) and job.result == inline.result


def test_a_thread_job_that_stopped_reporting_for_over_120_seconds_is_lost():
    jobs = MemoryJobs(clock=lambda: 1000)
    jobs.create("j1", total=600, chunks=2, runner="thread")
    jobs.create("j2", total=600, chunks=2, runner="queue")
    assert read_job(jobs, "j1", now=1120).status == "queued"  # 120 s: not yet
    assert read_job(jobs, "j1", now=1121).status == "lost"
    assert read_job(jobs, "j2", now=10**9).status == "queued"  # a queued chunk waits for a worker as long as it takes


def test_an_unknown_job_is_not_found():
    with pytest.raises(JobNotFound):
        read_job(MemoryJobs(), "nope")
