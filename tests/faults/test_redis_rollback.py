"""Redis loses acknowledged writes (issue 29, item 4): a restart from an older
snapshot, the second AOF everysec may lose, a failover to a lagging replica.
New actions then take seqs clients already saw; a stream resumed from such a
position gets a ``reset`` event (reload from scratch), never a silent skip.
This test starts its own redis-server (RDB snapshots, no append-only file)
and never touches the shared one."""

from __future__ import annotations

import shutil

import pytest
import redis as redis_lib

from service.app import create_app
from service.settings import Settings

from ..conftest import GameMasterClient
from ..helpers import create
from ..redis_server import AVAILABLE, OwnRedis

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="needs redis-server")


def adjust(client, location: str, pv: int) -> dict:
    answer = client.post(
        f"{location}/actions", json={"type": "adjust", "actor": "gm", "target": "capanga", "set": {"pv": pv}}
    )
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def stream(client, location: str, last_event_id: str, entries: int = 4) -> list[dict]:
    """The events a stream resumed at ``last_event_id`` sends: up to its end, or its first ``entries`` entries."""
    response = client.get(f"{location}/stream", headers={"Last-Event-ID": last_event_id}, buffered=False)
    assert response.status_code == 200
    events, text = [], ""
    for chunk in response.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in text:
            block, text = text.split("\n\n", 1)
            fields = dict(
                line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":")
            )
            if "event" in fields:
                events.append(fields)
        if events and (events[-1]["event"] != "entry" or len(events) >= entries):
            break
    response.close()
    return events


def test_a_stream_resumed_past_a_rollback_gets_a_reset(tmp_path):
    server = OwnRedis(tmp_path, snapshots=True)
    server.start()
    try:
        app = create_app(Settings(redis_url=server.url, redis_timeout_seconds=1, rate_limit="", compute_limit=""))
        app.test_client_class = GameMasterClient
        client = app.test_client()
        example = client.get("/rulesets/sistema-2d6").get_json()["example"]
        location, _ = create(client, example["combat"])
        for pv in (9, 8):
            adjust(client, location, pv)  # versions 2 and 3

        redis = redis_lib.Redis.from_url(server.url)
        redis.save()
        shutil.copy(tmp_path / "dump.rdb", tmp_path / "older.rdb")
        # Four more actions the client follows: it last saw version 7.
        for pv in (7, 6, 5, 4):
            seen = adjust(client, location, pv)
        assert seen["combat"]["version"] == 7
        followed = stream(client, location, "3")
        assert [e["event"] for e in followed] == ["entry"] * 4
        last_id = followed[-1]["id"]
        assert last_id.startswith("7:")
        # Redis comes back from the older snapshot: versions 4 to 7 are lost.
        redis.shutdown(nosave=True)
        server.process.wait(timeout=10)
        shutil.copy(tmp_path / "older.rdb", tmp_path / "dump.rdb")
        server.start()
        assert client.get(location).get_json()["version"] == 3
        # Past the head (3 < 7): reset, with the plain seq too (old clients) and on the long poll.
        assert [e["event"] for e in stream(client, location, last_id)] == ["reset"]
        assert [e["event"] for e in stream(client, location, "7")] == ["reset"]
        page = client.get(f"{location}/events?after=7").get_json()
        assert page["reset"] is True and page["items"] == []
        # Four new actions take the seqs 4 to 7 again: the head is back at 7, the history is not the one seen.
        for pv in (1, 2, 3, 10):
            adjust(client, location, pv)
        assert client.get(location).get_json()["version"] == 7
        assert [e["event"] for e in stream(client, location, last_id)] == ["reset"]
        # A client that saw the new history resumes as usual.
        fresh = stream(client, location, "3")
        assert [e["event"] for e in fresh] == ["entry"] * 4 and fresh[-1]["id"] != last_id
        assert stream(client, location, fresh[-2]["id"], entries=1)[0]["id"] == fresh[-1]["id"]
        assert client.get(f"{location}/events?after=3").get_json()["reset"] is False
    finally:
        server.stop()
