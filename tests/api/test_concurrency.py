"""Two actions on one combat version can never both apply."""

import threading

from ..helpers import create, log

WORKERS = 8


def race(client, location, action, headers=None):
    barrier = threading.Barrier(WORKERS)
    results = []

    def post():
        barrier.wait()
        response = client.post(f"{location}/actions", json=action, headers=headers or {})
        results.append((response.status_code, response.get_json()))

    threads = [threading.Thread(target=post) for _ in range(WORKERS)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    return results


def pass_fight(client):
    # Two combatants who only pass: every pass is legal for whoever's turn it is.
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    return create(client, body)


def test_same_action_from_many_clients_applies_once(client):
    location, _ = pass_fight(client)
    results = race(client, location, {"type": "pass", "actor": "ana"})
    statuses = sorted(status for status, _ in results)
    # One pass by Ana is accepted; the others are re-resolved on the new
    # version, where it is no longer Ana's turn: 409 not-your-turn.
    assert statuses == [200] + [409] * (WORKERS - 1)
    refusals = [body for status, body in results if status == 409]
    assert all(body["type"] == "/problems/not-your-turn" for body in refusals)
    entries = log(client, location)
    assert [e["seq"] for e in entries] == [1, 2]
    assert client.get(location).get_json()["version"] == 2


def test_if_match_losers_get_412_with_the_current_version(client):
    location, _ = pass_fight(client)
    results = race(client, location, {"type": "pass", "actor": "ana"}, headers={"If-Match": '"1"'})
    statuses = sorted(status for status, _ in results)
    assert statuses == [200] + [412] * (WORKERS - 1)
    assert all(body["current_version"] == 2 for status, body in results if status == 412)
    assert len(log(client, location)) == 2


def test_interleaved_legal_actions_are_serialised(client):
    # Both combatants pass at once, each on its own turn: without If-Match
    # the loser is resolved again on the new version and may then succeed.
    location, _ = pass_fight(client)
    barrier, results = threading.Barrier(2), []

    def post(actor):
        barrier.wait()
        results.append(client.post(f"{location}/actions", json={"type": "pass", "actor": actor}).status_code)

    threads = [threading.Thread(target=post, args=(a,)) for a in ("ana", "capanga")]
    [t.start() for t in threads]
    [t.join() for t in threads]
    entries = log(client, location)
    accepted = results.count(200)
    assert len(entries) == 1 + accepted
    assert [e["seq"] for e in entries] == list(range(1, 2 + accepted))
    actors = [e["action"]["actor"] for e in entries[1:]]
    assert actors[0] == "ana" and len(set(actors)) == len(actors)
