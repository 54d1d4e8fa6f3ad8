"""Every process agrees on the generated server secret after Redis loses it.

Without SECRET_KEY each process keeps the generated secret once read. When
Redis loses it (a restart without persistence, a flush, a failover to an
empty replica), a process that had not read it yet (a new worker) would make
another, and a creation retried through it with the same Idempotency-Key
would not open: 409 replay-unavailable, the client never seeing its tokens.
Here two app instances (two workers) share a redis-server of the test's own,
which is flushed as a lost Redis would be.
"""

from __future__ import annotations

import uuid

import pytest
import redis

from service.app import create_app
from service.settings import Settings
from service.store.keys import SERVER_SECRET_KEY

from ..redis_server import AVAILABLE

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="needs redis-server on the PATH")


def worker(url: str):
    return create_app(Settings(redis_url=url, rate_limit="")).test_client()


def example(client) -> dict:
    return client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]


def keyed_creation(client, key: str):
    return client.post("/combats", json=example(client), headers={"Idempotency-Key": key})


def lose_redis(url: str) -> None:
    connection = redis.Redis.from_url(url)
    connection.flushall()  # the test's own redis-server only
    connection.close()


def test_a_retry_through_a_new_worker_after_redis_lost_the_secret_shows_the_same_tokens(own_redis):
    first = worker(own_redis.url)
    assert keyed_creation(first, str(uuid.uuid4())).status_code == 201  # the first worker holds the secret
    lose_redis(own_redis.url)
    second = worker(own_redis.url)  # a worker that never read it (respawned, or new)

    key = str(uuid.uuid4())
    created = keyed_creation(first, key)
    retried = keyed_creation(second, key)
    assert created.status_code == 201
    assert retried.status_code == 201, retried.get_json()
    assert retried.get_json()["tokens"] == created.get_json()["tokens"]
    assert retried.headers["Idempotent-Replayed"] == "true"


def test_a_worker_that_held_the_lost_secret_opens_what_another_sealed_since(own_redis):
    holder = worker(own_redis.url)
    assert keyed_creation(holder, str(uuid.uuid4())).status_code == 201
    lose_redis(own_redis.url)
    newcomer = worker(own_redis.url)

    key = str(uuid.uuid4())
    created = keyed_creation(newcomer, key)  # sealed under the secret Redis holds now
    retried = keyed_creation(holder, key)  # the holder's own no longer opens it: it reads Redis again
    assert retried.status_code == 201, retried.get_json()
    assert retried.get_json()["tokens"] == created.get_json()["tokens"]


def test_workers_agree_whichever_seals_first_after_the_loss(own_redis):
    old, new = worker(own_redis.url), worker(own_redis.url)
    assert keyed_creation(old, str(uuid.uuid4())).status_code == 201
    lose_redis(own_redis.url)
    assert keyed_creation(new, str(uuid.uuid4())).status_code == 201  # the new worker stores a new secret

    key = str(uuid.uuid4())
    created = keyed_creation(old, key)  # the old worker takes the stored one to seal
    retried = keyed_creation(new, key)
    assert retried.status_code == 201, retried.get_json()
    assert retried.get_json()["tokens"] == created.get_json()["tokens"]
    stored = redis.Redis.from_url(own_redis.url)
    try:
        assert stored.get(SERVER_SECRET_KEY) is not None
    finally:
        stored.close()


def test_a_snapshot_saved_through_one_worker_restores_through_another_after_the_loss(own_redis):
    first = worker(own_redis.url)
    assert keyed_creation(first, str(uuid.uuid4())).status_code == 201  # the first worker holds the secret
    lose_redis(own_redis.url)
    second = worker(own_redis.url)
    assert keyed_creation(second, str(uuid.uuid4())).status_code == 201  # the second stores a new one

    created = first.post("/combats", json=example(first)).get_json()
    gm = {"Authorization": f"Bearer {created['tokens']['gm']}"}
    snapshot = first.get(f"/combats/{created['id']}/snapshot", headers=gm).get_json()["snapshot"]
    assert first.delete(f"/combats/{created['id']}", headers=gm).status_code == 204
    restored = second.post("/combats", json={"snapshot": snapshot})
    assert restored.status_code == 201, restored.get_json()
    assert second.get(f"/combats/{created['id']}", headers=gm).status_code == 200
