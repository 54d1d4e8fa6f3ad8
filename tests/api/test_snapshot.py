"""Save and resume: GET /combats/{id}/snapshot, POST /combats with {"snapshot": ...}.

Every test runs on fakeredis and, when REDIS_URL is set, on that real Redis
(the ``store`` fixture of tests/conftest.py).
"""

from __future__ import annotations

import base64
import uuid

import pytest

from service.app import create_app
from service.rules.registry import RULESETS
from service.settings import Settings
from service.store.history import CHUNK
from service.store.keys import combat_keys, idempotency_key, log_key, state_key

from ..conftest import TTL, GameMasterClient
from ..helpers import act, create, log, play

# What may differ between a combat and itself restored: when it expires.
BOOKKEEPING = ("expires_at",)


def comparable(combat: dict) -> dict:
    return {key: value for key, value in combat.items() if key not in BOOKKEEPING}


def example(client, ruleset="sistema-2d6"):
    return client.get(f"/rulesets/{ruleset}").get_json()["example"]


def snapshot_of(client, location: str) -> str:
    response = client.get(f"{location}/snapshot")
    assert response.status_code == 200, response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_json()["snapshot"]


def app_with(store, **settings) -> GameMasterClient:
    app = create_app(Settings(combat_ttl_seconds=TTL, rate_limit="", **settings), store=store)
    app.test_client_class = GameMasterClient
    return app.test_client()


def player(client, location: str, combatant: str) -> dict:
    token = client.tokens[location.rsplit("/", 1)[-1]]["combatants"][combatant]
    return {"Authorization": f"Bearer {token}"}


def without_new_stream(combat: dict) -> dict:
    """A restored combat as it was saved: without the restore's version and its new dice stream."""
    return {
        **comparable(combat),
        "version": combat["version"] - 1,
        "dice_commitments": combat["dice_commitments"][:-1],
    }


def gone(client, location: str) -> bool:
    return client.get(location).status_code == 404


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_a_fight_saved_midway_deleted_and_restored_goes_on_with_the_original_tokens(client, ruleset):
    body = example(client, ruleset)
    actions = body["actions"]
    half = len(actions) // 2
    location, _ = create(client, body["combat"])
    for action in actions[:half]:
        play(client, location, action)
    saved_state, saved_log = client.get(location).get_json(), log(client, location)
    snapshot = snapshot_of(client, location)

    assert client.delete(location).status_code == 204 and gone(client, location)
    gm = {"Authorization": f"Bearer {client.tokens[saved_state['id']]['gm']}"}
    restored = client.post("/combats", json={"snapshot": snapshot}, headers=gm)
    assert restored.status_code == 201, restored.get_json()
    assert restored.headers["Location"] == location
    version = saved_state["version"] + 1  # the restored entry's
    assert restored.headers["ETag"] == f'"{version}"'
    assert "tokens" not in restored.get_json()
    assert restored.get_json() == client.get(location).get_json()
    assert without_new_stream(restored.get_json()) == comparable(saved_state)
    assert log(client, location)[:-1] == saved_log
    assert log(client, location)[-1]["action"]["type"] == "restored"

    # Every token of the creation opens the combat again, and acts (tests/api/test_restore.py plays
    # actions after restores: new server dice, so the example's next dice may not fit).
    tokens = client.tokens[saved_state["id"]]
    for token in [tokens["gm"], *tokens["combatants"].values()]:
        assert client.get(location, headers={"Authorization": f"Bearer {token}"}).status_code == 200
    ended = act(client, location, {"type": "end_combat", "actor": "gm"})
    assert ended["combat"]["status"] == "over" and ended["combat"]["version"] == version + 1


def test_restoring_shows_nothing_the_snapshot_hid(client):
    body = {**example(client)["combat"], "hidden_sheets": ["capanga"]}
    location, _ = create(client, body)
    ana = player(client, location, "ana")
    play(client, location, {"type": "pass", "actor": "ana"})
    before_state = client.get(location, headers=ana).get_json()
    before_log = client.get(f"{location}/events", headers=ana).get_json()
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    assert client.post("/combats", json={"snapshot": snapshot}).status_code == 201

    after_state = client.get(location, headers=ana).get_json()
    assert without_new_stream(after_state) == comparable(before_state)
    after_log = client.get(f"{location}/events", headers=ana).get_json()
    assert after_log["items"][:-1] == before_log["items"]
    capanga = next(c for c in after_state["combatants"] if c["id"] == "capanga")
    assert "sheet" not in capanga  # still hidden from Ana's player
    for seen in (after_state, client.get(location).get_json()):  # the player's and the GM's
        assert not {"dice_keys", "rng", "dice_secrets"} & set(seen)  # the dice stay committed
    # The snapshot itself is opaque: nothing of the combat in clear, even once decoded.
    sealed = base64.urlsafe_b64decode(snapshot[len("msnap2.") :] + "==")
    assert b"capanga" not in sealed.lower() and b"sistema" not in sealed.lower()


def test_one_byte_changed_anywhere_is_an_invalid_snapshot_and_creates_nothing(client):
    location, _ = create(client, example(client)["combat"])
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    for at in (0, 7, 12, len(snapshot) // 2, len(snapshot) - 1):  # the prefix, the key id, the nonce, the body, the tag
        changed = snapshot[:at] + ("B" if snapshot[at] == "A" else "A") + snapshot[at + 1 :]
        refused = client.post("/combats", json={"snapshot": changed})
        assert refused.status_code == 422, at
        assert refused.get_json()["type"] == "/problems/invalid-snapshot"
        assert refused.get_json()["errors"][0]["pointer"] == "/snapshot"
        assert gone(client, location)
    for cut in (
        snapshot[:-1],
        snapshot[: len(snapshot) // 2],
        "msnap2.",
        "msnap2.!!!",
        "msnap1.AAAA",
        "not a snapshot",
    ):
        refused = client.post("/combats", json={"snapshot": cut})
        assert refused.status_code == 422 and refused.get_json()["type"] == "/problems/invalid-snapshot"
        assert gone(client, location)
    # The refusals changed nothing: the snapshot itself still restores.
    assert client.post("/combats", json={"snapshot": snapshot}).status_code == 201


def test_another_server_key_refuses_the_snapshot_and_the_old_key_as_fallback_restores_it(store):
    first = app_with(store, secret_key="the-first-secret")
    location, created = create(first, example(first)["combat"])
    snapshot = snapshot_of(first, location)
    assert first.delete(location).status_code == 204

    rotated = app_with(store, secret_key="the-second-secret")
    refused = rotated.post("/combats", json={"snapshot": snapshot})
    assert refused.status_code == 422 and refused.get_json()["type"] == "/problems/invalid-snapshot"
    assert "SECRET_KEY_FALLBACKS" in refused.get_json()["detail"]
    assert gone(first, location)

    fallback = app_with(store, secret_key="the-second-secret", secret_key_fallbacks=("the-first-secret",))
    restored = fallback.post("/combats", json={"snapshot": snapshot})
    assert restored.status_code == 201
    # No token of the combat sent: which combat it is, nothing more.
    assert restored.get_json() == {"id": created["id"], "ruleset": created["ruleset"], "version": 2}
    # The new snapshot is sealed under the new key alone.
    again = fallback.get(
        f"{location}/snapshot", headers={"Authorization": f"Bearer {first.tokens[created['id']]['gm']}"}
    )
    assert (
        fallback.delete(location, headers={"Authorization": f"Bearer {first.tokens[created['id']]['gm']}"}).status_code
        == 204
    )
    assert rotated.post("/combats", json=again.get_json()).status_code == 201


def test_a_generated_secret_opens_its_own_snapshots_and_another_deployment_does_not(store):
    client = app_with(store)  # no SECRET_KEY: the generated one, kept in this Redis
    location, _ = create(client, example(client)["combat"])
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    other = app_with(make_other_store())
    refused = other.post("/combats", json={"snapshot": snapshot})
    assert refused.status_code == 422 and refused.get_json()["type"] == "/problems/invalid-snapshot"
    assert client.post("/combats", json={"snapshot": snapshot}).status_code == 201


def make_other_store():
    from service.store import CombatStore

    from ..conftest import make_client

    return CombatStore(make_client("fakeredis"), TTL)


def test_only_the_game_master_takes_a_snapshot(client):
    location, _ = create(client, example(client)["combat"])
    refused = client.get(f"{location}/snapshot", headers=player(client, location, "ana"))
    assert refused.status_code == 403 and refused.get_json()["type"] == "/problems/forbidden"
    assert "snapshot" not in refused.get_json()
    anonymous = client.get(f"{location}/snapshot", headers={"Authorization": "Bearer nope"})
    assert anonymous.status_code == 401
    assert client.get("/combats/nosuchcombat/snapshot").status_code == 404


def test_a_live_combat_is_not_overwritten_by_its_snapshot(client):
    location, _ = create(client, example(client)["combat"])
    snapshot = snapshot_of(client, location)
    play(client, location, {"type": "pass", "actor": "ana"})
    before, entries = client.get(location).get_json(), log(client, location)
    refused = client.post("/combats", json={"snapshot": snapshot})
    assert refused.status_code == 409 and refused.get_json()["type"] == "/problems/combat-live"
    assert client.get(location).get_json() == before and log(client, location) == entries


def test_a_restore_takes_the_snapshot_alone(client):
    location, _ = create(client, example(client)["combat"])
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    for body, pointer in (
        ({"snapshot": snapshot, "lang": "fr"}, "/lang"),
        ({"snapshot": 7}, "/snapshot"),
        ({"snapshot": ""}, "/snapshot"),
    ):
        refused = client.post("/combats", json=body)
        assert refused.status_code == 422 and refused.get_json()["errors"][0]["pointer"] == pointer
    assert gone(client, location)


def test_a_retried_restore_under_an_idempotency_key_answers_the_same(client):
    location, _ = create(client, example(client)["combat"])
    play(client, location, {"type": "pass", "actor": "ana"})
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    headers = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post("/combats", json={"snapshot": snapshot}, headers=headers)
    again = client.post("/combats", json={"snapshot": snapshot}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    # Without the key, or after the combat moved on, the id is live.
    assert client.post("/combats", json={"snapshot": snapshot}).status_code == 409
    play(client, location, {"type": "pass", "actor": "capanga"})
    later = client.post("/combats", json={"snapshot": snapshot}, headers=headers)
    assert later.status_code == 201 and comparable(later.get_json()) == comparable(first.get_json())
    # A refused restore leaves no record under its key: its retry runs again.
    refused_key = {"Idempotency-Key": str(uuid.uuid4())}
    assert client.post("/combats", json={"snapshot": snapshot[:-2]}, headers=refused_key).status_code == 422
    assert client.post("/combats", json={"snapshot": snapshot}, headers=refused_key).status_code == 409


def test_a_restore_needs_an_api_key_where_creating_does(store):
    keyed = app_with(store, api_keys=("the-key",))
    location, _ = create_with_key(keyed)
    snapshot = snapshot_of(keyed, location)
    assert keyed.delete(location).status_code == 204
    assert keyed.post("/combats", json={"snapshot": snapshot}).status_code == 401
    assert gone(keyed, location)
    assert keyed.post("/combats", json={"snapshot": snapshot}, headers={"X-API-Key": "the-key"}).status_code == 201


def create_with_key(client):
    response = client.post("/combats", json=example(client)["combat"], headers={"X-API-Key": "the-key"})
    assert response.status_code == 201
    return response.headers["Location"], response.get_json()


def test_the_size_of_a_restore_and_of_a_creation_are_bounded_apart(store):
    client = app_with(store, max_body_bytes=2048, max_snapshot_bytes=64 * 1024)
    location, _ = create(client, example(client)["combat"])
    for turn in range(40):
        play(client, location, {"type": "pass", "actor": "ana" if turn % 2 == 0 else "capanga"})
    snapshot = snapshot_of(client, location)
    assert 2048 < len(snapshot) < 64 * 1024, "a snapshot larger than the creation limit restores"
    assert client.delete(location).status_code == 204
    assert client.post("/combats", json={"snapshot": snapshot}).status_code == 201
    too_large = client.post("/combats", json={"snapshot": "x" * (64 * 1024)})
    assert too_large.status_code == 413 and too_large.get_json()["max_bytes"] == 64 * 1024
    creation = client.post("/combats", json={**example(client)["combat"], "padding": "x" * 4096})
    assert creation.status_code == 413 and creation.get_json()["max_bytes"] == 2048


def test_a_long_fight_restores_whole_with_a_fresh_ttl_and_its_history(client, store):
    location, created = create(client, example(client)["combat"])
    combat_id = created["id"]
    for turn in range(2 * CHUNK + 30):  # archived chunks, snapshots dropped with them, a live tail
        play(client, location, {"type": "pass", "actor": "ana" if turn % 2 == 0 else "capanga"})
    saved_log, saved_state = log(client, location), client.get(location).get_json()
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    assert client.post("/combats", json={"snapshot": snapshot}).status_code == 201
    assert log(client, location)[:-1] == saved_log
    assert without_new_stream(client.get(location).get_json()) == comparable(saved_state)
    for key in combat_keys(combat_id):
        if key != idempotency_key(combat_id):
            assert store.client.ttl(key) > TTL - 60, key
    assert store.client.hexists(state_key(combat_id), "log:0") and store.client.lindex(log_key(combat_id), 0) == b""
    # The history restored too: undo rebuilds the state before the last action played before the save.
    undone = client.post(f"{location}/undo")
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["combat"]["version"] == saved_state["version"] + 2
    assert undone.get_json()["events"][0]["params"]["seq"] == saved_state["version"]
    # And a listener resuming from the last seq it saw gets what follows: the restore, the undo.
    after = saved_state["version"]
    assert [e["seq"] for e in store.entries_after(combat_id, after)] == [after + 1, after + 2]


def test_only_a_snapshot_may_be_larger_than_a_creation(store):
    client = app_with(store, max_body_bytes=1024, max_snapshot_bytes=64 * 1024)
    for body, content_type in (
        ("x" * 5000, "application/json"),  # no JSON at all
        ('["' + "x" * 5000 + '"]', "application/json"),  # JSON, no object
        ('{"lang": "' + "x" * 5000 + '"}', "application/json"),  # an object without a snapshot
        ("x" * 5000, "text/plain"),
    ):
        refused = client.post("/combats", data=body, content_type=content_type)
        assert refused.status_code == 413 and refused.get_json()["max_bytes"] == 1024, body[:12]
