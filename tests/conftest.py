"""Shared fixtures.

``store`` runs every storage-facing test twice when REDIS_URL is set: once
on fakeredis (the embedded default) and once on that real Redis. Combat ids
are random, so tests never step on each other's keys, and no test flushes or
stops the shared server.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import tempfile

import fakeredis
import pytest
import redis
from flask.testing import FlaskClient

from service.app import create_app
from service.settings import Settings
from service.store import CombatStore

# The embedded default keeps its generated server secret in MELEE_DATA_DIR (service/adapters/secret_file.py):
# a folder of the suite's own, which the servers it starts inherit, so that no test writes to the real home.
os.environ["MELEE_DATA_DIR"] = tempfile.mkdtemp(prefix="melee-test-data-")
atexit.register(shutil.rmtree, os.environ["MELEE_DATA_DIR"], True)

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


COMBAT_PATH = re.compile(r"^/combats/([^/?]+)")


class GameMasterClient(FlaskClient):
    """A test client that keeps the tokens of every combat it creates and,
    unless a test sends its own Authorization header, acts as the GM.

    Tests of authorization itself send their headers explicitly."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.tokens: dict[str, dict] = {}

    def open(self, *args, **kwargs):
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        headers = dict(kwargs.pop("headers", None) or {})
        match = COMBAT_PATH.match(path)
        if match and match.group(1) in self.tokens and "Authorization" not in headers:
            headers["Authorization"] = f"Bearer {self.tokens[match.group(1)]['gm']}"
        response = super().open(*args, headers=headers, **kwargs)
        if path.rstrip("/") == "/combats" and response.status_code == 201:
            body = response.get_json()
            if "tokens" in body:  # a restored snapshot shows none: the first ones work again
                self.tokens[body["id"]] = body["tokens"]
        return response


@pytest.fixture
def app(store):
    app = create_app(Settings(combat_ttl_seconds=TTL, rate_limit=""), store=store)
    app.test_client_class = GameMasterClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()
