"""service/usecases/snapshots.py on the in-memory store: who takes a snapshot,
what a restore refuses, and that every refusal stores nothing."""

from __future__ import annotations

import copy
import time

import pytest

from service.crypto.snapshots import SnapshotSealer
from service.rules.engine import apply_action
from service.store.memory import MemoryCombats
from service.usecases.access import AccessDenied, authorize
from service.usecases.idempotency import KeyFence, KeyReused
from service.usecases.ports import SnapshotUnreadable
from service.usecases.snapshots import CombatLive, InvalidSnapshot, restore, take

from .conftest import COMBAT_ID

SEALER = SnapshotSealer(b"unit-test-secret")


class Clear:
    """Seals nothing (the snapshot itself, a copy): what the use case checks, apart from the crypto."""

    def seal(self, snapshot):
        self.sealed = copy.deepcopy(dict(snapshot))
        return "clear"

    def open(self, sealed, max_entries):
        if sealed != "clear":
            raise SnapshotUnreadable("was changed or cut after it was taken")
        return copy.deepcopy(self.sealed)


def played(combats: MemoryCombats, shown: dict) -> dict:
    state, _ = authorize(combats, COMBAT_ID, shown["gm"])
    after, entry = apply_action(state, {"type": "pass", "actor": "ana"})
    combats.commit(after, entry, expected_version=state["version"])
    return after


def test_only_the_game_master_takes_one(combats, shown):
    with pytest.raises(AccessDenied) as refused:
        take(combats, COMBAT_ID, shown["combatants"]["ana"], Clear())
    assert refused.value.status == 403
    with pytest.raises(AccessDenied) as unknown:
        take(combats, COMBAT_ID, "not-a-token", Clear())
    assert unknown.value.status == 401


def test_a_snapshot_restores_the_combat_its_log_and_its_grants(combats, shown):
    after = played(combats, shown)
    sealer = Clear()
    take(combats, COMBAT_ID, shown["gm"], sealer)
    assert sealer.sealed["format"] == 2 and sealer.sealed["state"]["dice_keys"] == after["dice_keys"]
    grants = combats.grants(COMBAT_ID)
    combats.delete(COMBAT_ID)
    restored = restore(combats, "clear", sealer)
    new_stream = {"stream": 1, "sha256": restored.state["dice_commitments"][1]["sha256"]}
    assert restored.state["dice_commitments"] == [*after["dice_commitments"], new_stream]
    assert len(restored.state["dice_keys"]) == 2 and restored.state["rng"] == {"stream": 1, "draw": 0}
    same = ("expires_at", "version", "dice_keys", "dice_commitments", "rng")
    assert {k: v for k, v in restored.state.items() if k not in same} == {
        k: v for k, v in after.items() if k not in same
    }
    assert restored.state["version"] == 3 and restored.combat == {
        "id": COMBAT_ID,
        "ruleset": after["ruleset"],
        "version": 3,
    }
    assert combats.grants(COMBAT_ID) == grants
    assert authorize(combats, COMBAT_ID, shown["combatants"]["ana"])[1].combatant == "ana"
    assert combats.log(COMBAT_ID, 0, 10)[1] == 3


def test_every_refusal_stores_nothing(combats, shown):
    sealer = Clear()
    take(combats, COMBAT_ID, shown["gm"], sealer)
    with pytest.raises(CombatLive):
        restore(combats, "clear", sealer)  # the combat is live
    assert combats.log(COMBAT_ID, 0, 10)[1] == 1
    combats.delete(COMBAT_ID)
    with pytest.raises(InvalidSnapshot, match="changed or cut"):
        restore(combats, "tampered", sealer)
    original = sealer.sealed
    for broken, why in (
        ({**original, "format": 3}, "another format"),
        ({**original, "taken_at": int(time.time()) - 31 * 86400}, "MAX_SNAPSHOT_AGE_DAYS"),
        ({**original, "state": {**original["state"], "ruleset": "chess"}}, "'chess'"),
        ({**original, "entries": []}, "whole log"),
        ({**original, "taken_at": int(time.time()) + 2 * 86400}, "has not come yet"),
        # Shapes the store never writes (only the server key could seal them): refused, not a failed import.
        ({**original, "state": []}, "another format"),
        ({**original, "state": {key: v for key, v in original["state"].items() if key != "id"}}, "another format"),
        ({**original, "state": {**original["state"], "ruleset": ["duel-2d6"]}}, "another format"),
        ({**original, "grants": []}, "another format"),
        ({**original, "grants": {"digest": 1}}, "another format"),
        ({**original, "history": {"first": original["state"]}}, "another format"),
        ({**original, "entries": [1] * len(original["entries"])}, "another format"),
    ):
        sealer.sealed = broken
        with pytest.raises(InvalidSnapshot, match=why):
            restore(combats, "clear", sealer)
    assert COMBAT_ID not in combats.states


def test_a_refused_restore_leaves_no_record_under_its_key(combats, shown):
    sealer = Clear()
    take(combats, COMBAT_ID, shown["gm"], sealer)
    combats.delete(COMBAT_ID)
    fence = KeyFence.new("creation:{k}", "restore-key-0001", "same", ttl=600, now=int(time.time()))
    with pytest.raises(InvalidSnapshot):
        restore(combats, "tampered", sealer, fence=fence)
    assert combats.records.get("creation:{k}", {}) == {}
    assert restore(combats, "clear", sealer, fence=fence).replayed is False
    again = restore(combats, "clear", sealer, fence=fence)
    assert again.replayed is True and again.state["id"] == COMBAT_ID
    other = KeyFence.new("creation:{k}", "restore-key-0001", "another body", ttl=600, now=int(time.time()))
    with pytest.raises(KeyReused):
        restore(combats, "clear", sealer, fence=other)


def test_the_sealer_opens_its_own_and_its_fallbacks_and_refuses_the_rest():
    entries = [{"seq": 1, "text": "a line\nbreak"}, {"seq": 2}]
    snapshot = {"format": 2, "state": {"id": "c"}, "entries": entries, "history": {}, "grants": {}}
    sealed = SEALER.seal(snapshot)
    assert SEALER.open(sealed, 2) == snapshot
    assert SnapshotSealer(b"new-secret", [b"unit-test-secret"]).open(sealed, 2) == snapshot
    with pytest.raises(SnapshotUnreadable, match="key this server does not hold"):
        SnapshotSealer(b"new-secret").open(sealed, 2)
    # Asked once, the secret stored now: another process wrote it back.
    assert SnapshotSealer(b"new-secret", reread=lambda: b"unit-test-secret").open(sealed, 2) == snapshot
    with pytest.raises(SnapshotUnreadable, match="more than 1 log entries"):
        SEALER.open(sealed, 1)
    body = sealed[len("msnap2.") :]
    for changed in (sealed[:-1], "msnap2." + body[:8] + ("A" if body[8] != "A" else "B") + body[9:], "msnap2.@@"):
        with pytest.raises(SnapshotUnreadable):
            SEALER.open(changed, 2)
    with pytest.raises(SnapshotUnreadable, match="changed or cut"):  # a second-format body under the first prefix
        SEALER.open("msnap1." + body, 2)
    assert "unit-test-secret" not in sealed and '"state"' not in sealed
