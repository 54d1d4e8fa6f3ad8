"""Many clients, one combat, a real gunicorn with several workers and a real
Redis: every accepted action is in the log exactly once, versions go up by
exactly one, and the losers are told the current version.

A loaded machine makes the requests slower, never the verdict different:
HTTP timeouts are generous, and the set-up and the keyed requests retry
(409 in flight, 503) with their Idempotency-Key, as a client would."""

import os
import threading
import time
import uuid

import pytest
import requests

from ..redis_server import AVAILABLE, OwnRedis
from .conftest import start_gunicorn, stop

pytestmark = pytest.mark.e2e
CLIENTS = 12
ATTEMPTS = 8
TIMEOUT = 60  # seconds: an HTTP request's, met only by a server that hangs


@pytest.fixture(scope="module")
def cluster_of_workers(tmp_path_factory):
    """Three workers on REDIS_URL, or on a private redis-server without it."""
    own = None
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        if not AVAILABLE:
            pytest.skip("needs REDIS_URL or redis-server")
        own = OwnRedis(tmp_path_factory.mktemp("redis"))
        own.start()
        redis_url = own.url
    process, base = start_gunicorn({"REDIS_URL": redis_url, "WEB_CONCURRENCY": "3", "RATE_LIMIT": ""})
    yield base
    stop(process)
    if own:
        own.stop()


def until_answered(url, body, headers, ok=200):
    """POST under the Idempotency-Key of ``headers`` until it is answered
    ``ok``, retrying a 409 (in flight) or a 503 as a client does (at most 100 times)."""
    for _ in range(100):
        response = requests.post(url, json=body, headers=headers, timeout=TIMEOUT)
        if response.status_code == ok:
            return response
        assert response.status_code in (409, 503), response.text
        time.sleep(float(response.headers.get("Retry-After", "1")) / 10)
    raise AssertionError(f"POST {url} kept failing: {response.text}")


def new_fight(base):
    example = requests.get(f"{base}/rulesets/sistema-2d6", timeout=TIMEOUT).json()["example"]
    created = until_answered(f"{base}/combats", example["combat"], {"Idempotency-Key": str(uuid.uuid4())}, 201).json()
    return f"{base}/combats/{created['id']}", {"Authorization": f"Bearer {created['tokens']['gm']}"}


def full_log(location, headers):
    entries, after = [], 0
    while after is not None:
        page = requests.get(
            f"{location}/events", params={"after": after, "limit": 200}, headers=headers, timeout=TIMEOUT
        ).json()
        entries.extend(page["items"])
        after = page["next_after"]
    return entries


@pytest.mark.parametrize("conditional", [True, False])
def test_many_clients_posting_to_one_combat(cluster_of_workers, conditional):
    location, gm = new_fight(cluster_of_workers)
    accepted, refused = [], []
    lock = threading.Lock()

    def player():
        session = requests.Session()
        for _ in range(ATTEMPTS):
            combat = session.get(location, headers=gm, timeout=TIMEOUT).json()
            actor = combat["awaiting"][0]["actor"]
            headers = {**gm, "If-Match": f'"{combat["version"]}"'} if conditional else gm
            response = session.post(
                f"{location}/actions", json={"type": "pass", "actor": actor}, headers=headers, timeout=TIMEOUT
            )
            with lock:
                (accepted if response.ok else refused).append(response)

    threads = [threading.Thread(target=player) for _ in range(CLIENTS)]
    [t.start() for t in threads]
    [t.join() for t in threads]

    entries = full_log(location, gm)
    final = requests.get(location, headers=gm, timeout=TIMEOUT).json()
    assert [e["seq"] for e in entries] == list(range(1, final["version"] + 1)), "versions go up by exactly one"
    assert len(accepted) == final["version"] - 1 >= 1
    seqs = sorted(r.json()["action"]["seq"] for r in accepted)
    assert seqs == list(range(2, final["version"] + 1)), "each accepted action is in the log exactly once"
    for response in accepted:
        body = response.json()
        assert entries[body["action"]["seq"] - 1]["events"] == body["events"]
    assert len(accepted) + len(refused) == CLIENTS * ATTEMPTS
    for response in refused:
        problem = response.json()
        assert response.status_code in (409, 412), problem
        if response.status_code == 412:
            assert problem["current_version"] >= 2


def test_the_same_idempotency_key_many_times_at_once_applies_once(cluster_of_workers):
    location, gm = new_fight(cluster_of_workers)
    headers = {**gm, "Idempotency-Key": str(uuid.uuid4())}
    action = {"type": "attack", "actor": "ana", "target": "capanga", "defense": {}}
    barrier, results, lock = threading.Barrier(CLIENTS), [], threading.Lock()

    def retry():
        barrier.wait()
        # Each client retries until answered (a 409 while the first is in
        # flight, a 503 when Redis was slow to confirm), as a client would.
        response = until_answered(f"{location}/actions", action, headers)
        with lock:
            results.append(response)

    threads = [threading.Thread(target=retry) for _ in range(CLIENTS)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert len(results) == CLIENTS
    answers = [r.content for r in results]
    assert all(a == answers[0] for a in answers), "every answer is the first one, byte for byte"
    final = requests.post(f"{location}/actions", json=action, headers=headers, timeout=TIMEOUT)
    assert final.content == answers[0] and final.headers["Idempotent-Replayed"] == "true"
    assert len(full_log(location, gm)) == 2
