"""Redis freezes while an action with an Idempotency-Key is being committed
(issue 15, defect 1): never a duplicate, never a lost acknowledged action.

Each trial freezes this test's own redis-server (SIGSTOP) around the commit
of a GM `adjust` (an action that can apply again and again, so a duplicate
would show in the log), resumes it after a random delay, before or after the
worker's timeout, then retries with the same key until an answer comes, as a
client would. A frozen Redis still runs the queued commit when it resumes:
the retry must find that answer, or a clean slate, never apply twice.
Bounded: TRIALS trials of about a second each (30 s in all here), and at
most 200 retries a trial.

Only the action under test meets the worker's short timeout: the set-up
(creating each trial's combat) and the checks (reading its log) go through
a second app on the same Redis with a timeout a loaded machine meets, and
the warm-up retries with its Idempotency-Key as a client would, so that a
slow machine changes how long the test takes, not its verdict.
"""

from __future__ import annotations

import random
import threading
import time
import uuid

import pytest

from service.app import create_app
from service.settings import Settings

from ..conftest import GameMasterClient
from ..helpers import create, log
from ..redis_server import AVAILABLE, OwnRedis

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="needs redis-server")

TRIALS = 30
TIMEOUT = 0.25  # REDIS_TIMEOUT_SECONDS of the worker
PATIENT_TIMEOUT = 30.0  # the set-up's and the checks' (never met but by a dead server)
ADJUST = {"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": -1}}


def freeze_next_commit(store, server: OwnRedis, rng: random.Random) -> threading.Event:
    """Freeze Redis just before the next commit is sent, or a moment after;
    resume it after 0.05 to 0.6 s (the worker gives up after TIMEOUT). The
    event is set once Redis has resumed."""
    real, resumed = store._commit, threading.Event()

    def resume() -> None:
        server.resume()
        resumed.set()

    def commit(**call):
        store._commit = real
        before, frozen_for = rng.random() < 0.7, rng.uniform(0.05, 0.6)

        def pause() -> None:
            # The resume is scheduled once the pause is done: a pause thread
            # delayed by a loaded machine never comes after its resume.
            server.pause()
            threading.Timer(frozen_for, resume).start()

        if before:
            pause()
        else:
            threading.Timer(rng.uniform(0, 0.003), pause).start()
        return real(**call)

    store._commit = commit
    return resumed


def client_of(redis_url: str, timeout: float) -> GameMasterClient:
    app = create_app(Settings(redis_url=redis_url, redis_timeout_seconds=timeout, rate_limit=""))
    app.test_client_class = GameMasterClient
    return app.test_client()


def answered(client, path: str, body: dict, ok: int):
    """POST ``body`` under one Idempotency-Key until it is answered, as a
    client retries a 503 or a 409 (at most 100 times)."""
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    for _ in range(100):
        response = client.post(path, json=body, headers=headers)
        if response.status_code == ok:
            return response
        assert response.status_code in (409, 503), response.get_json()
        time.sleep(0.1)
    raise AssertionError(f"POST {path} kept failing: {response.get_json()}")


def test_a_frozen_redis_never_applies_an_action_twice_nor_loses_one(own_redis):
    client = client_of(own_redis.url, TIMEOUT)
    store = client.application.extensions["melee.store"].store  # the Redis store, not its observer
    patient = client_of(own_redis.url, PATIENT_TIMEOUT)  # the set-up's and the checks'
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    # Load every script before the trials: a script first sent to a frozen
    # server would come back NOSCRIPT to a client long gone.
    warm = answered(client, "/combats", body, 201).headers["Location"]
    answered(client, f"{warm}/actions", ADJUST, 200)
    store.swap("warm-up", "field", "none", "")

    rng = random.Random(15)
    duplicates, lost, wrong_answers, outcomes = 0, 0, 0, {}
    for _ in range(TRIALS):
        location, combat = create(patient, body)
        client.tokens[combat["id"]] = patient.tokens[combat["id"]]
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        resumed = freeze_next_commit(store, own_redis, rng)
        first = client.post(f"{location}/actions", json=ADJUST, headers=headers)
        outcomes[first.status_code] = outcomes.get(first.status_code, 0) + 1
        if first.status_code == 503:
            assert first.get_json()["type"] == "/problems/outcome-unknown"
        answer = first if first.status_code == 200 else None
        # Redis has resumed (the frozen commit then runs, or never will)
        # before the retries; waiting longer for nothing tests nothing more.
        assert resumed.wait(timeout=60), "Redis was never resumed"
        for _ in range(200):  # a client gives up some day; this one after 20 s
            if answer is not None:
                break
            retry = client.post(f"{location}/actions", json=ADJUST, headers=headers)
            if retry.status_code == 200:
                answer = retry
            else:
                assert retry.status_code in (409, 503), retry.get_json()
                time.sleep(0.1)
        assert answer is not None, "the retries kept failing"
        if answer is not first:
            how = "replayed" if answer.headers.get("Idempotent-Replayed") else "applied by the retry"
            outcomes[how] = outcomes.get(how, 0) + 1
        entries = log(patient, location)
        duplicates += max(0, len(entries) - 2)
        lost += len(entries) < 2
        wrong_answers += answer.get_json()["action"]["seq"] != 2
    assert {"duplicates": duplicates, "lost": lost, "wrong answers": wrong_answers} == dict.fromkeys(
        ("duplicates", "lost", "wrong answers"), 0
    ), outcomes
    # The trials did meet frozen commits, not only quick ones.
    assert outcomes.get(503, 0) >= TRIALS // 3, outcomes
