"""Lost races without If-Match (jittered retries, defect 10 of issue 15) and
the cap on a combat's actions (defect 6)."""

from __future__ import annotations

import random

import pytest

from service.app import create_app
from service.settings import Settings
from service.store import connect
from service.usecases import retry
from service.usecases.port_errors import VersionConflict

from ..conftest import GameMasterClient
from ..helpers import create, log

ADJUST = {"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": -1}}


def example(client):
    return client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]


@pytest.fixture
def waits(monkeypatch):
    """The waits between attempts, recorded instead of slept."""
    slept = []
    monkeypatch.setattr(retry, "sleep", slept.append)
    return slept


def lose_races(store, monkeypatch, times: int):
    """The next ``times`` commits lose their race, as when other writers commit first."""
    real, lost = store.commit, []

    def commit(state, *args, **kwargs):
        if len(lost) < times:
            lost.append(state["version"])
            raise VersionConflict(state["version"] - 1)
        return real(state, *args, **kwargs)

    monkeypatch.setattr(store, "commit", commit)
    return lost


def test_an_action_that_loses_eight_races_in_a_row_still_applies(client, store, monkeypatch, waits):
    location, _ = create(client, example(client))
    lose_races(store, monkeypatch, times=8)
    response = client.post(f"{location}/actions", json=ADJUST)
    assert response.status_code == 200, response.get_json()
    assert len(waits) == 8
    assert len(log(client, location)) == 2


def test_the_waits_double_their_cap_are_jittered_and_bounded(client, store, monkeypatch, waits):
    location, _ = create(client, example(client))
    lose_races(store, monkeypatch, times=10**6)
    response = client.post(f"{location}/actions", json=ADJUST)
    assert response.status_code == 409
    assert response.get_json()["type"] == "/problems/version-conflict"
    assert response.headers["Retry-After"] == "1"
    assert client.get(location).get_json()["version"] == 1, "nothing applied"
    assert 1 <= len(waits) <= retry.MAX_ATTEMPTS - 1
    # Caps 5, 10, 20, 40, 80, 160, 200, 200... ms (5 ms doubling, at most 200 ms).
    caps = [0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.2, 0.2, 0.2, 0.2, 0.2]
    # Fewer waits than caps when the time budget runs out first (their number is bounded above).
    assert all(0 <= wait <= cap for wait, cap in zip(waits, caps, strict=False))
    assert sum(waits) <= retry.TOTAL_WAIT_SECONDS


def test_conflict_waits_are_random_not_lockstep():
    first, second = list(retry.conflict_waits(random.Random(1))), list(retry.conflict_waits(random.Random(2)))
    assert first != second
    assert sum(first) <= 1.0 and sum(second) <= 1.0


def test_with_if_match_a_lost_race_is_412_at_once(client, store, monkeypatch, waits):
    location, _ = create(client, example(client))
    lose_races(store, monkeypatch, times=1)
    response = client.post(f"{location}/actions", json=ADJUST, headers={"If-Match": '"1"'})
    assert response.status_code == 412 and waits == []


@pytest.mark.parametrize("write", ["actions", "undo", "redo"])
def test_every_write_shares_one_conflict_policy(client, store, monkeypatch, waits, write):
    """Issue 19: undo and redo answered 412 "If-Match names another version"
    to a client that sent no If-Match. Now act, undo and redo all retry a lost
    race without If-Match, end in 409 when it keeps being lost, and answer
    412 only to a stale If-Match."""
    location, _ = create(client, example(client))

    def post(**headers):
        return client.post(f"{location}/{write}", json=ADJUST, headers=headers)

    def prepare():
        """Something for ``write`` to do: an action to undo, an undo to redo."""
        assert client.post(f"{location}/actions", json=ADJUST).status_code == 200
        if write == "redo":
            assert client.post(f"{location}/undo").status_code == 200
        return client.get(location).get_json()["version"]

    prepare()
    lose_races(store, monkeypatch, times=2)
    assert post().status_code == 200, "two lost races, then it applies"
    assert len(waits) == 2

    monkeypatch.undo()
    monkeypatch.setattr(retry, "sleep", waits.append)
    version = prepare()
    lose_races(store, monkeypatch, times=10**6)
    persisted = post()
    assert persisted.status_code == 409 and persisted.get_json()["type"] == "/problems/version-conflict"
    assert persisted.headers["Retry-After"] == "1"
    stale = post(**{"If-Match": '"1"'})
    assert stale.status_code == 412 and stale.get_json()["current_version"] == version
    assert client.get(location).get_json()["version"] == version, "neither refusal changed anything"


def test_a_combat_takes_at_most_its_cap_of_actions():
    app = create_app(Settings(rate_limit="", max_actions_per_combat=3), store=connect(None, 3600, max_actions=3))
    app.test_client_class = GameMasterClient
    client = app.test_client()
    location, _ = create(client, example(client))
    for _ in range(3):
        assert client.post(f"{location}/actions", json=ADJUST).status_code == 200
    refused = client.post(f"{location}/actions", json=ADJUST)
    assert refused.status_code == 409
    problem = refused.get_json()
    assert problem["type"] == "/problems/action-limit-reached" and problem["limit"] == 3
    assert "3 actions" in problem["detail"]
    assert client.get(location).get_json()["version"] == 4, "the refusal changed nothing"
    assert len(log(client, location)) == 4
    # Undo is an entry too: the cap holds for every write.
    undo = client.post(f"{location}/undo")
    assert undo.status_code == 409 and undo.get_json()["type"] == "/problems/action-limit-reached"
    assert client.get(location).get_json()["version"] == 4


def test_the_cap_is_a_setting():
    assert Settings.from_env({}).max_actions_per_combat == 1000
    assert Settings.from_env({"MAX_ACTIONS_PER_COMBAT": "250"}).max_actions_per_combat == 250
    assert Settings.from_env({"IDEMPOTENCY_TTL_SECONDS": "600"}).idempotency_ttl_seconds == 600
    assert Settings.from_env({"CREATION_REPLAY_SECONDS": "60"}).creation_replay_seconds == 60
