"""The Redis store, on fakeredis and (with REDIS_URL) on a real Redis."""

import threading
import uuid

import pytest

from service.rules.engine import apply_action, create_combat
from service.rules.registry import get_ruleset
from service.store import CombatStore, connect, scripts
from service.store.keys import combat_keys, idempotency_key, log_key, state_key, stream_key
from service.usecases.port_errors import CombatNotFound, StoreUnavailable, VersionConflict
from service.usecases.ports import KeyedWrite

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


def combat_key_ttls(store, combat_id: str) -> dict[str, int]:
    """The TTL of every key of the combat, found by its hash tag whatever the
    key's name (-1: no expiry)."""
    keys = store.client.scan_iter(match=f"*{{{combat_id}}}*", count=1000)
    return {key.decode().rsplit(":", 1)[-1]: store.client.ttl(key) for key in keys}


def stale_ttls(store, combat_id: str, expected: dict[str, int]) -> dict[str, int]:
    """The keys whose TTL is not (within 5 s) the expected one for its name."""
    return {
        name: ttl
        for name, ttl in combat_key_ttls(store, combat_id).items()
        if not expected[name] - 5 < ttl <= expected[name]
    }


def create_then_expire_soon(store) -> tuple[dict, dict]:
    """A combat with a grant and a reserved Idempotency-Key, every key of
    which is then set to expire in 100 s, as after a long pause in a fight."""
    state, entry = new_combat()
    store.create(state, entry, grants={"gm-digest": {"role": "gm"}})
    assert stale_ttls(store, state["id"], dict.fromkeys(["state", "log", "access", "stream"], TTL)) == {}
    store.reserve(idempotency_key(state["id"]), "key-digest", "reserved-1", 0, 60, 50)
    for key in combat_keys(state["id"]):
        store.client.expire(key, 100)
    return apply_action(state, get_ruleset("sistema-2d6").example()["actions"][0])


def commit_keyed(store, state: dict, entry: dict) -> None:
    store.commit(state, entry, expected_version=1, keyed=KeyedWrite("key-digest", "reserved-1", "answer", 77))


def test_every_key_has_a_ttl_refreshed_on_write(store):
    state, entry = create_then_expire_soon(store)
    commit_keyed(store, state, entry)
    # The scan finds every key the combat owns: a new key without a TTL, or
    # one the commit stops refreshing, fails here (a fight longer than the
    # TTL would lose its grants or its stream).
    expected = {"state": TTL, "log": TTL, "access": TTL, "stream": TTL, "idempotency": 77}
    assert set(combat_key_ttls(store, state["id"])) == set(expected)
    assert stale_ttls(store, state["id"], expected) == {}


def test_the_ttl_check_catches_a_commit_that_stops_refreshing_grants_and_stream(store):
    # Mutant: the commit script refreshes only the state and the log.
    mutated = scripts.COMMIT.replace("if i ~= 3 then redis.call('EXPIRE'", "if i <= 2 then redis.call('EXPIRE'")
    assert mutated != scripts.COMMIT
    store._commit = store.client.register_script(mutated)
    state, entry = create_then_expire_soon(store)
    commit_keyed(store, state, entry)
    expected = {"state": TTL, "log": TTL, "access": TTL, "stream": TTL, "idempotency": 77}
    assert set(stale_ttls(store, state["id"], expected)) == {"access", "stream"}


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


def test_a_reader_behind_the_trimmed_stream_gets_every_entry_from_the_log(store):
    # The stream keeps about the last STREAM_MAXLEN entries; a reader further
    # behind (a listener back after a long gap) reads the log list instead.
    state, entry = new_combat()
    store.create(state, entry)
    commits = 3 * scripts.STREAM_MAXLEN  # 300 entries after the first: the stream is trimmed
    for version in range(1, commits + 1):
        state = {**state, "version": version + 1}
        store.commit(state, {"seq": version + 1, "action": {"type": "note"}, "rolls": [], "events": []}, version)
    kept = store.client.xlen(stream_key(state["id"]))
    assert kept < commits + 1  # trimmed (approximately: whole nodes of entries at a time)
    # 5 is far behind the stream's first entry: the next 100 (MAX_ENTRIES_PER_READ) come from the log, in order.
    assert [e["seq"] for e in store.entries_after(state["id"], 5)] == list(range(6, 106))
    assert [e["seq"] for e in store.read_streams({state["id"]: 5}, block_ms=10)[state["id"]]] == list(range(6, 106))
    # At the tail the stream serves the reader itself.
    assert [e["seq"] for e in store.entries_after(state["id"], commits - 1)] == [commits, commits + 1]  # 300, 301
