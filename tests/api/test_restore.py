"""A restore is fair, shows nothing hidden, keeps revocations and stays bounded (issue 36).

- every restore draws the server's dice from a new committed stream and logs a ``restored``
  entry; the documented dice audit still recomputes every die across restores;
- the answer shows the combat only to the holder of one of its tokens, as GET does;
- a token revoked after the snapshot stays refused once it is restored;
- a snapshot holding more than the action cap, or a decompression bomb, is refused with
  bounded memory (measured with tracemalloc), and an old snapshot past MAX_SNAPSHOT_AGE_DAYS.

Every test runs on fakeredis and, when REDIS_URL is set, on that real Redis.
"""

from __future__ import annotations

import base64
import lzma
import time
import tracemalloc
import uuid

import pytest

from service.app import create_app
from service.crypto.aead import cipher, seal
from service.crypto.snapshots import ASSOCIATED, PREFIX, SnapshotSealer, key_id, plaintext_limit
from service.rules.registry import RULESETS
from service.settings import Settings
from service.store import CombatStore
from service.store.access import MAX_REVOKED
from service.store.keys import combat_keys, revoked_key
from service.usecases.port_errors import RevocationLimitReached

from ..conftest import TTL, GameMasterClient
from ..helpers import log
from .test_dice_audit import _audit

SECRET = "restore-test-secret"
SEALER = SnapshotSealer(SECRET.encode())
SERVER_ONLY = ("id", "ruleset", "version")


def app_with(store: CombatStore, **settings) -> GameMasterClient:
    app = create_app(Settings(combat_ttl_seconds=TTL, rate_limit="", secret_key=SECRET, **settings), store=store)
    app.test_client_class = GameMasterClient
    return app.test_client()


@pytest.fixture
def client(store):
    return app_with(store)


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def tokens_of(client, location: str) -> dict:
    return client.tokens[location.rsplit("/", 1)[-1]]


def unseeded(client, ruleset: str) -> tuple[dict, list[dict]]:
    """The ruleset's example without its seed and without the actions' dice (the server rolls them);
    the creation's dice stay, so that the same side starts."""
    example = client.get(f"/rulesets/{ruleset}").get_json()["example"]
    body = {key: value for key, value in example["combat"].items() if key != "seed"}
    return body, [{key: value for key, value in action.items() if key != "dice"} for action in example["actions"]]


def created(client, body: dict) -> str:
    response = client.post("/combats", json=body)
    assert response.status_code == 201, response.get_json()
    return response.headers["Location"]


def snapshot_of(client, location: str) -> str:
    response = client.get(f"{location}/snapshot")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["snapshot"]


def acted(client, location: str, action: dict) -> dict:
    tokens = tokens_of(client, location)
    token = tokens["gm"] if action["actor"] == "gm" else tokens["combatants"][action["actor"]]
    response = client.post(f"{location}/actions", json=action, headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def server_dice(result: dict) -> list[int]:
    return [roll["value"] for roll in result["rolls"] if roll["source"] == "server"]


def restored(client, snapshot: str, headers: dict | None = None):
    response = client.post("/combats", json={"snapshot": snapshot}, headers=headers or {})
    assert response.status_code == 201, response.get_json()
    return response


def untouched(store: CombatStore, combat_id: str) -> bool:
    return store.client.exists(*combat_keys(combat_id)) == 0


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_twenty_restores_each_draw_new_dice_and_the_audit_passes_across_them(client, ruleset, tmp_path):
    body, actions = unseeded(client, ruleset)
    location = created(client, body)
    gm = bearer(tokens_of(client, location)["gm"])
    # The first action that rolls server dice: the ones before it roll none, so they go the same every time.
    for action in actions:
        snapshot = snapshot_of(client, location)
        first = acted(client, location, action)
        if server_dice(first):
            break
    else:
        pytest.fail(f"no action of the {ruleset} example rolls a server die")
    saved = SEALER.open(snapshot, 1000)["state"]
    seen_keys = {c["sha256"] for c in client.get(location).get_json()["dice_commitments"]}

    sequences = []
    for _ in range(20):
        assert client.delete(location).status_code == 204
        answer = restored(client, snapshot, gm).get_json()
        assert answer["version"] == saved["version"] + 1
        commitments = answer["dice_commitments"]
        assert len(commitments) == len(saved["dice_commitments"]) + 1
        assert commitments[-1]["sha256"] not in seen_keys, "a restore drew from a key used before"
        seen_keys.add(commitments[-1]["sha256"])
        again = acted(client, location, action)
        assert all(roll["stream"] == commitments[-1]["stream"] for roll in again["rolls"] if roll["source"] == "server")
        sequences.append(server_dice(again))
    # 20 new keys: every sequence the same as the first would be a 1 in 6^20 chance at the very least.
    assert any(dice != server_dice(first) for dice in sequences)

    entries = log(client, location)
    restore_entry = entries[saved["version"]]
    assert restore_entry["action"]["type"] == "restored" and restore_entry["action"]["actor"] == "gm"
    (event,) = restore_entry["events"]
    assert event["code"] == "combat_restored" and event["params"]["version"] == saved["version"]
    assert "restored_state" not in restore_entry
    assert client.post(f"{location}/actions", json={"type": "end_combat", "actor": "gm"}, headers=gm).status_code == 200
    combat, entries = client.get(location).get_json(), log(client, location)
    assert len(combat["dice_secrets"]) == len(saved["dice_commitments"]) + 1  # the last restore's stream
    passed = _audit(tmp_path, combat, entries)
    assert passed.returncode == 0, passed.stdout + passed.stderr


def test_the_restored_entry_says_when_and_from_which_version_in_every_language(client):
    body, actions = unseeded(client, "sistema-2d6")
    location = created(client, body)
    acted(client, location, actions[0])
    snapshot = snapshot_of(client, location)
    taken_at = SEALER.open(snapshot, 1000)["taken_at"]
    assert client.delete(location).status_code == 204
    restored(client, snapshot)
    gm = bearer(tokens_of(client, location)["gm"])
    (entry,) = client.get(f"{location}/events?after=2", headers=gm).get_json()["items"]
    params = entry["events"][0]["params"]
    assert params["version"] == 2 and params["taken_at"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(taken_at))
    assert params["restored_at"] >= params["taken_at"]
    year = params["taken_at"][:4]
    texts = {
        lang: client.get(f"{location}/events?after=2", headers={**gm, "Accept-Language": lang}).get_json()["items"][0][
            "events"
        ][0]["text"]
        for lang in ("en", "fr", "pt-BR")
    }
    assert texts["en"].startswith("The game master resumes the fight on ") and "(version 2)" in texts["en"]
    assert texts["fr"].startswith("Le meneur de jeu reprend le combat le ") and "(version 2)" in texts["fr"]
    assert texts["pt-BR"].startswith("O mestre retoma o combate em ") and "(versão 2)" in texts["pt-BR"]
    assert all(year in text and "T" + params["taken_at"][11:] not in text for text in texts.values())


def test_undo_after_a_restore_takes_back_the_last_action_before_the_save(client):
    body, actions = unseeded(client, "sistema-2d6")
    location = created(client, body)
    acted(client, location, actions[0])
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    restored(client, snapshot)
    undone = client.post(f"{location}/undo")
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["action"]["type"] == "undo" and undone.get_json()["combat"]["version"] == 4
    assert undone.get_json()["events"][0]["params"]["seq"] == 2


def dark_earth_split(client) -> tuple[str, str]:
    """A dark-earth fight with a hidden sheet and a pending split (the GM's secrets), saved and deleted."""
    body, actions = unseeded(client, "dark-earth")
    hidden = body["combatants"][1]["id"]
    location = created(client, {**body, "hidden_sheets": [hidden]})
    acted(client, location, actions[0])  # one side's split, waiting for the other's
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    return location, snapshot


def test_a_restore_without_a_token_of_the_combat_shows_only_which_combat_it_is(store):
    client = app_with(store, api_keys=("the-api-key",))
    key = {"X-API-Key": "the-api-key"}
    body, _ = unseeded(client, "sistema-2d6")
    other = client.post("/combats", json=body, headers=key)
    other_token = other.get_json()["tokens"]["gm"]
    location = client.post("/combats", json=unseeded(client, "dark-earth")[0], headers=key).headers["Location"]
    tokens = tokens_of(client, location)
    acted(client, location, unseeded(client, "dark-earth")[1][0])
    snapshot = snapshot_of(client, location)
    combat_id = location.rsplit("/", 1)[-1]

    answers = []
    for headers in (key, {"Authorization": "Bearer the-api-key"}, {**key, **bearer(other_token)}):
        assert client.delete(location, headers=bearer(tokens["gm"])).status_code == 204
        response = restored(client, snapshot, headers)
        assert response.headers["Location"] == location
        answers.append(response.get_json())
    assert all(list(answer) == list(SERVER_ONLY) for answer in answers)
    assert answers[0] == {"id": combat_id, "ruleset": "dark-earth", "version": 3}


@pytest.mark.parametrize("whose", ["gm", "player"])
def test_a_restore_with_a_token_of_the_combat_answers_what_get_shows_that_token(client, whose):
    location, snapshot = dark_earth_split(client)
    tokens = tokens_of(client, location)
    token = tokens["gm"] if whose == "gm" else next(iter(tokens["combatants"].values()))
    answer = restored(client, snapshot, bearer(token)).get_json()
    assert answer == client.get(location, headers=bearer(token)).get_json()
    if whose == "player":
        assert answer != client.get(location, headers=bearer(tokens["gm"])).get_json()  # the GM sees more


def test_the_unauthenticated_answer_hides_what_the_gm_sees(client):
    location, snapshot = dark_earth_split(client)
    answer = restored(client, snapshot).get_json()
    assert list(answer) == list(SERVER_ONLY)
    gm_view = client.get(location).get_json()
    assert "combatants" in gm_view and "sheet" in gm_view["combatants"][1]  # what the answer left out


def test_a_retried_restore_answers_the_same_for_the_same_credentials(client):
    location, snapshot = dark_earth_split(client)
    gm = tokens_of(client, location)["gm"]
    for headers in ({}, bearer(gm)):
        key = {"Idempotency-Key": str(uuid.uuid4()), **headers}
        first = client.post("/combats", json={"snapshot": snapshot}, headers=key)
        again = client.post("/combats", json={"snapshot": snapshot}, headers=key)
        assert first.status_code == again.status_code == 201
        assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
        assert again.headers["Location"] == first.headers["Location"] == location
        assert ("combatants" in first.get_json()) == bool(headers)
        assert client.delete(location, headers=bearer(gm)).status_code == 204


def test_a_token_revoked_after_the_save_stays_refused_after_the_restore(client, store):
    body, _ = unseeded(client, "sistema-2d6")
    location = created(client, body)
    tokens = tokens_of(client, location)
    ana, capanga = tokens["combatants"]["ana"], tokens["combatants"]["capanga"]
    snapshot = snapshot_of(client, location)
    listed = client.get(f"{location}/tokens").get_json()
    ana_id = next(t["id"] for t in listed if t["combatant"] == "ana")
    assert client.delete(f"{location}/tokens/{ana_id}").status_code == 204
    assert client.get(location, headers=bearer(ana)).status_code == 401
    assert client.delete(location).status_code == 204
    combat_id = location.rsplit("/", 1)[-1]
    assert store.client.ttl(revoked_key(combat_id)) > 29 * 86400  # it outlives the combat

    # Ana's revoked token sent along shows nothing either.
    assert list(restored(client, snapshot, bearer(ana)).get_json()) == list(SERVER_ONLY)
    refused = client.get(location, headers=bearer(ana))
    assert refused.status_code == 401 and refused.get_json()["type"] == "/problems/unauthorized"
    assert client.get(location, headers=bearer(capanga)).status_code == 200
    assert ana_id not in {t["id"] for t in client.get(f"{location}/tokens").get_json()}
    store.client.delete(revoked_key(combat_id))  # a real Redis keeps it a month otherwise


def resealed(snapshot: str, **changes) -> str:
    opened = SEALER.open(snapshot, 1000)
    return SEALER.seal({**opened, **changes})


def test_a_snapshot_older_than_max_snapshot_age_days_is_refused(client, store):
    body, _ = unseeded(client, "sistema-2d6")
    location = created(client, body)
    snapshot = snapshot_of(client, location)
    assert client.delete(location).status_code == 204
    month = 30 * 86400
    old = resealed(snapshot, taken_at=int(time.time()) - month - 60)
    refused = client.post("/combats", json={"snapshot": old})
    assert refused.status_code == 422 and refused.get_json()["type"] == "/problems/invalid-snapshot"
    assert "30 days" in refused.get_json()["detail"] and "MAX_SNAPSHOT_AGE_DAYS" in refused.get_json()["detail"]
    assert untouched(store, location.rsplit("/", 1)[-1])
    assert client.post("/combats", json={"snapshot": resealed(snapshot, taken_at=int(time.time()) - month + 60)})


def peak_of(call) -> tuple[object, int]:
    """What ``call`` returns, and the most memory Python allocated meanwhile (tracemalloc, in bytes)."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_snapshot_of_more_entries_than_the_action_cap_is_refused_before_they_are_read(store):
    client = app_with(store, max_snapshot_bytes=16 * 1024 * 1024)
    body, actions = unseeded(client, "sistema-2d6")
    location = created(client, body)
    acted(client, location, actions[0])
    opened = SEALER.open(snapshot_of(client, location), 1000)
    entry = opened["entries"][-1]
    entries = [{**entry, "seq": seq} for seq in range(1, 100_004)]
    oversized = SEALER.seal({**opened, "state": {**opened["state"], "version": 100_003}, "entries": entries})
    assert client.delete(location).status_code == 204
    del entries, opened

    refused, peak = peak_of(lambda: client.post("/combats", json={"snapshot": oversized}))
    assert refused.status_code == 422, refused.get_json()
    assert "more than 1,000 log entries" in refused.get_json()["detail"]
    assert "MAX_ACTIONS_PER_COMBAT" in refused.get_json()["detail"]
    # Counted as they are decompressed: refused after the first thousand, never read as Python objects
    # (the 624 MB of issue 36).
    assert peak < 8 * 1024 * 1024, f"{peak:,} bytes"
    assert untouched(store, location.rsplit("/", 1)[-1])


def bomb(megabytes: int) -> str:
    """A small sealed snapshot that decompresses to ``megabytes`` MB of spaces (sealed with the server key)."""
    packer, parts = lzma.LZMACompressor(preset=1), []
    for _ in range(megabytes):
        parts.append(packer.compress(b" " * 1024 * 1024))
    plaintext = b"".join([*parts, packer.flush()])
    kid = key_id(SECRET.encode())
    sealed = seal(cipher(SECRET.encode(), ASSOCIATED), plaintext, ASSOCIATED + kid)
    return PREFIX + base64.urlsafe_b64encode(kid + sealed).decode().rstrip("=")


@pytest.mark.parametrize("cap", [10, 1000])
def test_a_decompression_bomb_costs_at_most_what_the_action_cap_allows_before_its_refusal(store, cap):
    store = CombatStore(store.client, TTL, max_actions=cap)
    client = app_with(store, max_actions_per_combat=cap)
    sealed = bomb(100)
    assert len(sealed) < 64 * 1024
    refused, peak = peak_of(lambda: client.post("/combats", json={"snapshot": sealed}))
    assert refused.status_code == 422 and refused.get_json()["type"] == "/problems/invalid-snapshot"
    limit = plaintext_limit(cap)
    assert f"more than {limit:,} bytes" in refused.get_json()["detail"]
    # The bytes up to the limit (704 KiB for 10 actions, 64 MiB for 1,000), and little more; 526 MB before.
    assert peak < limit + 4 * 1024 * 1024, f"{peak:,} bytes"


def test_a_combat_keeps_a_bounded_record_of_its_revocations(store):
    combat_id = f"revocations-{uuid.uuid4().hex}"
    try:
        for number in range(MAX_REVOKED):
            store.remove_grant(combat_id, f"digest-{number}")
        assert store.client.scard(revoked_key(combat_id)) == MAX_REVOKED
        assert store.remove_grant(combat_id, "digest-0") is False  # revoked already: recorded, nothing to remove
        with pytest.raises(RevocationLimitReached):
            store.remove_grant(combat_id, "one-too-many")
        assert not store.client.sismember(revoked_key(combat_id), "one-too-many")
    finally:
        store.client.delete(revoked_key(combat_id))
