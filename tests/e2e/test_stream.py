"""Live updates over a real gunicorn: SSE delivery, resume after reconnect, streams not starving requests."""

from __future__ import annotations

import os
import time

import pytest
import requests

from service.rules.registry import get_ruleset

from .conftest import start_gunicorn, stop
from .sse import SseReader

pytestmark = pytest.mark.e2e

SISTEMA = get_ruleset("sistema-2d6").example()
PLAY = [*SISTEMA["actions"][:2], {"type": "pass", "actor": "capanga"}]


def create(base: str) -> tuple[str, dict]:
    created = requests.post(f"{base}/combats", json=SISTEMA["combat"], timeout=10)
    assert created.status_code == 201, created.text
    return base + created.headers["Location"], created.json()["tokens"]


def post(location: str, action: dict, token: str) -> None:
    response = requests.post(
        f"{location}/actions", json=action, headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert response.status_code == 200, response.text


def test_every_listener_gets_every_entry_in_order_and_resumes_after_reconnect(server):
    location, tokens = create(server)
    gm = {"Authorization": f"Bearer {tokens['gm']}"}
    # Two listeners (with two workers, likely on different ones): the GM by header, a player by query parameter.
    as_gm = SseReader(f"{location}/stream", gm)
    as_ana = SseReader(f"{location}/stream?access_token={tokens['combatants']['ana']}")
    post(location, PLAY[0], tokens["combatants"]["ana"])
    post(location, PLAY[1], tokens["combatants"]["capanga"])
    for reader in (as_gm, as_ana):
        first, second = reader.next_event(), reader.next_event()
        assert [first["id"].split(":")[0], second["id"].split(":")[0]] == ["2", "3"]
        assert [first["data"]["action"]["type"], second["data"]["action"]["type"]] == ["attack", "defend"]
    as_ana.close()  # the player's connection drops; an action happens meanwhile
    post(location, PLAY[2], tokens["combatants"]["capanga"])
    assert as_gm.next_event()["id"].split(":")[0] == "4"
    resumed = SseReader(f"{location}/stream?access_token={tokens['combatants']['ana']}", {"Last-Event-ID": "3"})
    assert resumed.next_event()["id"].split(":")[0] == "4"
    resumed.close()
    as_gm.close()


def test_open_streams_leave_threads_for_ordinary_requests(server):
    location, tokens = create(server)
    gm = {"Authorization": f"Bearer {tokens['gm']}"}
    readers = [SseReader(f"{location}/stream", gm) for _ in range(8)]
    try:
        for _ in range(5):
            assert requests.get(f"{location}", headers=gm, timeout=5).status_code == 200
        page = requests.get(f"{location}/events?after=1&wait=1", headers=gm, timeout=10).json()
        assert page["items"] == []
    finally:
        for reader in readers:
            reader.close()


def test_the_long_poll_answers_with_the_next_entry(server):
    location, tokens = create(server)
    gm = {"Authorization": f"Bearer {tokens['gm']}"}
    post(location, PLAY[0], tokens["combatants"]["ana"])
    page = requests.get(f"{location}/events?after=1&wait=5", headers=gm, timeout=10).json()
    assert [item["seq"] for item in page["items"]] == [2]


def test_sigterm_tells_open_streams_to_reconnect():
    process, base = start_gunicorn({"REDIS_URL": None, "WEB_CONCURRENCY": "1"})
    try:
        location, tokens = create(base)
        reader = SseReader(f"{location}/stream", {"Authorization": f"Bearer {tokens['gm']}"})
        process.terminate()
        event = reader.next_event()
        assert event["event"] == "reconnect"
        with pytest.raises((EOFError, requests.RequestException)):
            reader.next_event()
        reader.close()
    finally:
        output = stop(process)
    assert "closing 1 event stream(s)" in output


def test_a_client_that_leaves_frees_its_slot():
    """The stream of a client that closed its connection ends: at once under the gevent worker, which
    watches the socket (disconnect.py). The bound here is generous: speed is not what this test checks."""
    process, base = start_gunicorn({"REDIS_URL": None, "WEB_CONCURRENCY": "1", "MAX_STREAMS_PER_TOKEN": "1"})
    try:
        location, tokens = create(base)
        gm = {"Authorization": f"Bearer {tokens['gm']}"}
        reader = SseReader(f"{location}/stream", gm)
        refused = requests.get(f"{location}/stream", headers=gm, stream=True, timeout=5)
        assert refused.status_code == 429 and refused.headers["Retry-After"]
        reader.close()  # the client goes away without a word
        deadline = time.monotonic() + 10
        while (again := requests.get(f"{location}/stream", headers=gm, stream=True, timeout=5)).status_code == 429:
            assert time.monotonic() < deadline, "the slot of a closed stream was not given back"
            time.sleep(0.2)
        assert again.status_code == 200
        again.close()
    finally:
        stop(process)


def test_two_hundred_viewers_of_ten_combats_get_the_same_entries_in_order():
    """Many listeners on a real gunicorn (two workers on REDIS_URL, else one):
    each gets every entry of its combat, in order."""
    redis_url = os.environ.get("REDIS_URL")
    process, base = start_gunicorn(
        {
            "REDIS_URL": redis_url,
            "WEB_CONCURRENCY": "2" if redis_url else "1",
            # Every viewer here comes from 127.0.0.1 with the GM's token.
            "MAX_STREAMS_PER_TOKEN": "100",
            "MAX_STREAMS_PER_ADDRESS": "500",
        }
    )
    try:
        combats = [create(base) for _ in range(10)]
        viewers = [
            [SseReader(f"{location}/stream", {"Authorization": f"Bearer {tokens['gm']}"}) for _ in range(20)]
            for location, tokens in combats
        ]
        for location, tokens in combats:
            post(location, PLAY[0], tokens["combatants"]["ana"])
            post(location, PLAY[1], tokens["combatants"]["capanga"])
            post(location, PLAY[2], tokens["combatants"]["capanga"])
        for readers in viewers:
            seen = [[reader.next_event() for _ in range(3)] for reader in readers]
            assert [e["id"].split(":")[0] for e in seen[0]] == ["2", "3", "4"]
            assert [e["data"]["action"]["type"] for e in seen[0]] == ["attack", "defend", "pass"]
            assert all(events == seen[0] for events in seen)
            for reader in readers:
                reader.close()
    finally:
        stop(process)
