"""The Redis store, on fakeredis and (with REDIS_URL) on a real Redis."""

import threading
import uuid

import pytest

from service.rules.engine import apply_action, create_combat
from service.rules.registry import get_ruleset
from service.store import CombatNotFound, CombatStore, StoreUnavailable, VersionConflict, connect
from service.store.keys import log_key, state_key

from ..conftest import TTL


def new_combat():
    body = get_ruleset("sistema-2d6").example()["combat"]
    return create_combat(body, combat_id=uuid.uuid4().hex, seed=7)


def test_create_load_commit_and_log(store):
    state, entry = new_combat()
    store.create(state, entry)
    assert store.load(state["id"]) == state
    action = get_ruleset("sistema-2d6").example()["actions"][0]
    new_state, new_entry = apply_action(state, action)
    store.commit(new_state, new_entry, expected_version=1)
    assert store.load(state["id"])["version"] == 2
    entries, last = store.log(state["id"], after=0, limit=10)
    assert [e["seq"] for e in entries] == [1, 2] and last == 2
    assert store.log(state["id"], after=1, limit=10)[0] == [new_entry]


def test_all_keys_of_a_combat_share_one_hash_tag():
    assert state_key("abc") == "combat:{abc}:state"
    assert log_key("abc") == "combat:{abc}:log"


def test_stale_commit_is_refused_and_changes_nothing(store):
    state, entry = new_combat()
    store.create(state, entry)
    action = get_ruleset("sistema-2d6").example()["actions"][0]
    first, first_entry = apply_action(state, action)
    store.commit(first, first_entry, expected_version=1)
    second, second_entry = apply_action(state, {**action, "dice": [1, 2]})
    with pytest.raises(VersionConflict) as conflict:
        store.commit(second, second_entry, expected_version=1)
    assert conflict.value.current == 2
    assert store.load(state["id"]) == first
    assert store.log(state["id"], 0, 10)[1] == 2


def test_every_key_has_a_ttl_refreshed_on_write(store):
    state, entry = new_combat()
    store.create(state, entry)
    keys = [state_key(state["id"]), log_key(state["id"])]
    store.client.expire(keys[0], 100)
    new_state, new_entry = apply_action(state, get_ruleset("sistema-2d6").example()["actions"][0])
    store.commit(new_state, new_entry, expected_version=1)
    for key in keys:
        assert TTL - 5 < store.client.ttl(key) <= TTL


def test_delete_removes_every_key(store):
    state, entry = new_combat()
    store.create(state, entry)
    assert store.delete(state["id"]) is True
    assert store.client.exists(state_key(state["id"]), log_key(state["id"])) == 0
    with pytest.raises(CombatNotFound):
        store.load(state["id"])
    assert store.delete(state["id"]) is False


def test_commit_on_a_vanished_combat_is_not_found(store):
    state, entry = new_combat()
    store.create(state, entry)
    store.delete(state["id"])
    new_state, new_entry = apply_action(state, get_ruleset("sistema-2d6").example()["actions"][0])
    with pytest.raises(CombatNotFound):
        store.commit(new_state, new_entry, expected_version=1)
    assert store.client.exists(log_key(state["id"])) == 0


def test_concurrent_commits_on_one_version_only_one_wins(store):
    state, entry = new_combat()
    store.create(state, entry)
    action = get_ruleset("sistema-2d6").example()["actions"][0]
    candidates = [apply_action(state, {**action, "dice": [d, d]}) for d in range(1, 7)]
    outcomes, barrier = [], threading.Barrier(len(candidates))

    def commit(candidate):
        barrier.wait()
        try:
            store.commit(*candidate, expected_version=1)
            outcomes.append("ok")
        except VersionConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=commit, args=(c,)) for c in candidates]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(outcomes) == ["conflict"] * 5 + ["ok"]
    entries, last = store.log(state["id"], 0, 10)
    assert last == 2 and [e["seq"] for e in entries] == [1, 2]


def test_unreachable_redis_is_store_unavailable():
    store = connect("redis://127.0.0.1:1/0", ttl_seconds=60, timeout_seconds=0.2)
    with pytest.raises(StoreUnavailable):
        store.ping()
    with pytest.raises(StoreUnavailable):
        store.load("x")


def test_embedded_store_without_redis_url(caplog):
    store = connect(None, ttl_seconds=60)
    assert isinstance(store, CombatStore) and store.ping()
    assert "embedded store" in caplog.text


def test_waiting_for_entries_of_a_deleted_combat_is_not_found(store):
    # Listeners learn at their next idle wait that the combat is gone.
    state, entry = new_combat()
    store.create(state, entry)
    assert store.entries_after(state["id"], 1, block_ms=10) == []
    store.delete(state["id"])
    with pytest.raises(CombatNotFound):
        store.entries_after(state["id"], 1, block_ms=10)
