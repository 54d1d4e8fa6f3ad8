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
ADJUST = {"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": -1}}


def freeze_next_commit(store, server: OwnRedis, rng: random.Random) -> None:
    """Freeze Redis just before the next commit is sent, or a moment after;
    resume it after 0.05 to 0.6 s (the worker gives up after TIMEOUT)."""
    real = store._commit

    def commit(**call):
        store._commit = real
        if rng.random() < 0.7:
            server.pause()
        else:
            threading.Timer(rng.uniform(0, 0.003), server.pause).start()
        threading.Timer(rng.uniform(0.05, 0.6), server.resume).start()
        return real(**call)

    store._commit = commit


def test_a_frozen_redis_never_applies_an_action_twice_nor_loses_one(own_redis):
    settings = Settings(redis_url=own_redis.url, redis_timeout_seconds=TIMEOUT, rate_limit="")
    app = create_app(settings)
    app.test_client_class = GameMasterClient
    client, store = app.test_client(), app.extensions["melee.store"].store  # the Redis store, not its observer
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    # Load every script before the trials: a script first sent to a frozen
    # server would come back NOSCRIPT to a client long gone.
    warm, _ = create(client, body)
    client.post(f"{warm}/actions", json=ADJUST, headers={"Idempotency-Key": str(uuid.uuid4())})
    store.swap("warm-up", "field", "none", "")

    rng = random.Random(15)
    duplicates, lost, wrong_answers, outcomes = 0, 0, 0, {}
    for _ in range(TRIALS):
        location, _ = create(client, body)
        headers = {"Idempotency-Key": str(uuid.uuid4())}
        freeze_next_commit(store, own_redis, rng)
        first = client.post(f"{location}/actions", json=ADJUST, headers=headers)
        outcomes[first.status_code] = outcomes.get(first.status_code, 0) + 1
        if first.status_code == 503:
            assert first.get_json()["type"] == "/problems/outcome-unknown"
        answer = first if first.status_code == 200 else None
        time.sleep(0.6)  # Redis has resumed: the frozen commit ran, or never will
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
        entries = log(client, location)
        duplicates += max(0, len(entries) - 2)
        lost += len(entries) < 2
        wrong_answers += answer.get_json()["action"]["seq"] != 2
    assert {"duplicates": duplicates, "lost": lost, "wrong answers": wrong_answers} == dict.fromkeys(
        ("duplicates", "lost", "wrong answers"), 0
    ), outcomes
    # The trials did meet frozen commits, not only quick ones.
    assert outcomes.get(503, 0) >= TRIALS // 3, outcomes
