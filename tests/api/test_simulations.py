"""POST /simulations and GET /simulations/<id>."""

from __future__ import annotations

import time

import pytest

from service.jobs import threads as simulation_jobs
from service.rules.registry import RULESETS
from service.usecases.simulations import LOST_AFTER_SECONDS, public_status


def template(ruleset_id: str = "sistema-2d6") -> dict:
    return {key: value for key, value in RULESETS[ruleset_id].example()["combat"].items() if key != "dice"}


def wait_for(client, location: str, seconds: float = 20.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = client.get(location).get_json()
        if job["status"] not in ("queued", "running"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"the job did not finish in {seconds} s: {job}")


# A short run of every ruleset answers inline: the ruleset kit (tests/kit/).


def test_the_same_seed_gives_the_same_answer(client):
    body = {"template": template(), "fights": 50, "seed": 77, "tactic": {"target": "weakest"}}
    first = client.post("/simulations", json=body).get_json()
    assert client.post("/simulations", json=body).get_json() == first
    assert first["tactic"]["target"] == "weakest"


def test_without_a_seed_the_answer_names_the_one_used(client):
    result = client.post("/simulations", json={"template": template(), "fights": 5}).get_json()
    again = client.post("/simulations", json={"template": template(), "fights": 5, "seed": result["seed"]}).get_json()
    assert again == result


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"fights": 10}, "/template"),
        ({"template": template(), "fights": 0}, "/fights"),
        ({"template": template(), "fights": 20_001}, "/fights"),
        ({"template": template(), "fights": "many"}, "/fights"),
        ({"template": template(), "fights": 10, "seed": -1}, "/seed"),
        ({"template": template(), "fights": 10, "tactic": {"style": "reckless"}}, "/tactic/style"),
        ({"template": template(), "fights": 251, "background": False}, "/fights"),
        ({"template": {**template(), "dice": [6]}, "fights": 10}, "/template/dice"),
        ({"template": {**template(), "ruleset": "chess"}, "fights": 10}, "/template/ruleset"),
        ({"template": {**template(), "combatants": []}, "fights": 10}, "/template/combatants"),
    ],
)
def test_bad_requests_are_422_naming_the_field(client, body, pointer):
    response = client.post("/simulations", json=body)
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert pointer in [error["pointer"] for error in response.get_json()["errors"]]


def test_a_long_run_is_a_job_with_progress_and_the_inline_result(client):
    body = {"template": template(), "fights": 40, "seed": 9}
    response = client.post("/simulations", json={**body, "background": True})
    assert response.status_code == 202
    location = response.headers["Location"]
    assert location == f"/simulations/{response.get_json()['id']}"
    assert response.get_json()["progress"] == {"done": 0, "total": 40}
    job = wait_for(client, location)
    assert job["status"] == "done"
    assert job["progress"] == {"done": 40, "total": 40}
    assert job["result"] == client.post("/simulations", json=body).get_json()


def test_more_than_the_inline_limit_runs_as_a_job_by_default(client):
    response = client.post("/simulations", json={"template": template("dark-earth"), "fights": 251, "seed": 1})
    assert response.status_code == 202
    job = wait_for(client, response.headers["Location"], seconds=60)
    assert job["status"] == "done" and job["result"]["fights"] == 251


def test_a_busy_worker_says_so(client):
    assert simulation_jobs._slot.acquire(blocking=False)
    try:
        response = client.post("/simulations", json={"template": template(), "fights": 10, "background": True})
    finally:
        simulation_jobs._slot.release()
    assert response.status_code == 503
    assert response.get_json()["type"] == "/problems/simulation-busy"
    assert response.headers["Retry-After"]


def test_an_unknown_job_is_404(client):
    response = client.get("/simulations/0123456789abcdef")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_a_thread_job_whose_process_went_silent_is_lost():
    job = {"status": "running", "updated_at": 1000, "runner": "thread"}
    assert public_status(job, now=1000 + LOST_AFTER_SECONDS + 1) == "lost"
    assert public_status(job, now=1010) == "running"
    assert public_status({**job, "status": "done", "updated_at": 0}, now=10**9) == "done"
    # On the queue a dead worker's chunk is retried, and a job waits for a worker as long as it takes.
    assert public_status({**job, "runner": "queue", "status": "queued"}, now=10**9) == "queued"
