"""A fight saved by Melee 0.1.0 (snapshot format ``msnap1.``) resumes on this version.

The fixture holds one snapshot per ruleset, taken by the 0.1.0 release (commit c885334)
from its example after a few actions, sealed under ``secret_key``: they were made by
that release's own code, so a change that stops them opening fails here.
"""

from __future__ import annotations

import base64
import json
import lzma
import tracemalloc
from pathlib import Path

import pytest

from service.app import create_app
from service.crypto.aead import cipher, seal
from service.crypto.snapshots import FIRST_ASSOCIATED, FIRST_FORMAT_LIMIT, FIRST_PREFIX, key_id
from service.settings import Settings
from service.store import CombatStore

from ..conftest import TTL, GameMasterClient

FIXTURE = json.loads((Path(__file__).parent.parent / "fixtures" / "snapshots-0.1.0.json").read_text())
# The fixture was taken on 2026-12-04; a long age limit keeps it restorable whenever the suite runs.
OLD_ENOUGH = 365


def app_with(store: CombatStore, **settings) -> GameMasterClient:
    app = create_app(
        Settings(
            combat_ttl_seconds=TTL,
            rate_limit="",
            secret_key=FIXTURE["secret_key"],
            max_snapshot_age_days=OLD_ENOUGH,
            **settings,
        ),
        store=store,
    )
    app.test_client_class = GameMasterClient
    return app.test_client()


NOW = 1_796_357_000  # 2026-12-04, the day the fixture was taken


@pytest.mark.parametrize("ruleset", sorted(FIXTURE["snapshots"]))
def test_a_snapshot_of_melee_0_1_0_restores_and_the_fight_goes_on(store, ruleset, monkeypatch):
    monkeypatch.setattr("time.time", lambda: NOW)
    saved = FIXTURE["snapshots"][ruleset]
    client = app_with(store)
    gm = {"Authorization": f"Bearer {saved['gm']}"}
    location = f"/combats/{saved['id']}"
    client.delete(location, headers=gm)  # the fixture's ids are fixed: one restored by an earlier run may live on
    answer = client.post("/combats", json={"snapshot": saved["snapshot"]}, headers=gm)
    assert answer.status_code == 201, answer.get_json()
    combat = answer.get_json()
    assert combat["id"] == saved["id"] and combat["ruleset"] == ruleset
    assert combat["version"] == saved["version"] + 1  # its log, then the restored entry
    entries = client.get(f"{location}/events?after=0&limit=200", headers=gm).get_json()["items"]
    assert len(entries) == saved["version"] + 1 and entries[-1]["action"]["type"] == "restored"
    # The fight goes on: the rules list what the awaited may do on the old state and resolve an action
    # of the example (the first that fits where the fight stands), and the GM's token of 0.1.0 ends it.
    awaited = client.get(location, headers=gm).get_json()["awaiting"][0]
    assert client.get(f"{location}/options?actor={awaited['actor']}", headers=gm).status_code == 200
    example = client.get(f"/rulesets/{ruleset}").get_json()["example"]["actions"]
    if "pass" in awaited["actions"]:  # sistema-2d6's example goes on with the other side's attack
        example = [{"type": "pass", "actor": awaited["actor"]}, *example]
    answers = (client.post(f"{location}/actions", json=action, headers=gm) for action in example)
    assert any(answer.status_code == 200 for answer in answers), "no action of the example resolves"
    ended = client.post(f"{location}/actions", json={"type": "end_combat", "actor": "gm"}, headers=gm)
    assert ended.status_code == 200, ended.get_json()
    assert client.get(location, headers=gm).get_json()["status"] == "over"
    assert client.delete(location, headers=gm).status_code == 204


def test_a_first_format_snapshot_past_the_action_cap_is_refused(store, monkeypatch):
    monkeypatch.setattr("time.time", lambda: NOW)
    saved = FIXTURE["snapshots"]["space-opera-d100"]  # 4 log entries
    small = CombatStore(store.client, TTL, max_actions=3)
    refused = app_with(small, max_actions_per_combat=3).post("/combats", json={"snapshot": saved["snapshot"]})
    assert refused.status_code == 422 and refused.get_json()["type"] == "/problems/invalid-snapshot"
    assert "more than 3 log entries" in refused.get_json()["detail"]


def first_format_bomb(megabytes: int) -> str:
    """A small snapshot of the first format that decompresses to ``megabytes`` MB of spaces."""
    packer, parts = lzma.LZMACompressor(preset=1), []
    for _ in range(megabytes):
        parts.append(packer.compress(b" " * 1024 * 1024))
    plaintext = b"".join([*parts, packer.flush()])
    secret = FIXTURE["secret_key"].encode()
    kid = key_id(secret)
    sealed = seal(cipher(secret, FIRST_ASSOCIATED), plaintext, FIRST_ASSOCIATED + kid)
    return FIRST_PREFIX + base64.urlsafe_b64encode(kid + sealed).decode().rstrip("=")


def test_a_first_format_bomb_costs_at_most_its_limit_before_its_refusal(store):
    client = app_with(store)
    sealed = first_format_bomb(100)
    assert len(sealed) < 64 * 1024
    tracemalloc.start()
    try:
        refused = client.post("/combats", json={"snapshot": sealed})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert refused.status_code == 422 and refused.get_json()["type"] == "/problems/invalid-snapshot"
    assert "more than 33,554,432 bytes" in refused.get_json()["detail"]  # 32 MiB = 33,554,432 bytes
    assert peak < FIRST_FORMAT_LIMIT + 4 * 1024 * 1024, f"{peak:,} bytes"
