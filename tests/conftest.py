"""Shared fixtures.

``store`` runs every storage-facing test twice when REDIS_URL is set: once
on fakeredis (the embedded default) and once on that real Redis. Combat ids
are random, so tests never step on each other's keys, and no test flushes or
stops the shared server.
"""

from __future__ import annotations

import os

import fakeredis
import pytest
import redis

from service.app import create_app
from service.settings import Settings
from service.store import CombatStore

REDIS_URL = os.environ.get("REDIS_URL")
TTL = 3600

STORE_KINDS = ["fakeredis"] + (["redis"] if REDIS_URL else [])


def make_client(kind: str) -> redis.Redis:
    if kind == "redis":
        return redis.Redis.from_url(REDIS_URL, socket_timeout=5)
    return fakeredis.FakeRedis(server=fakeredis.FakeServer())


@pytest.fixture(params=STORE_KINDS)
def store(request) -> CombatStore:
    client = make_client(request.param)
    yield CombatStore(client, TTL)
    client.close()


@pytest.fixture
def app(store):
    return create_app(Settings(combat_ttl_seconds=TTL, rate_limit=""), store=store)


@pytest.fixture
def client(app):
    return app.test_client()
