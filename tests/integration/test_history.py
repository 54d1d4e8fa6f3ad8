"""Snapshots and the archived log: the whole log reads the same, and any
version is a snapshot plus fewer than SNAPSHOT_EVERY replayed entries."""

from __future__ import annotations

import uuid

from service.rules.engine import apply_action, create_combat, replay
from service.rules.errors import RulesError
from service.rules.registry import RULESETS
from service.simulation.tactics import RULESET_TACTICS, Tactic
from service.store.history import CHUNK, SNAPSHOT_EVERY
from service.store.keys import log_key, state_key

ACTIONS = 2 * CHUNK + 50


def endless_sistema_fight() -> dict:
    body = RULESETS["sistema-2d6"].example()["combat"]
    return {**body, "combatants": [{**c, "pv": 500} for c in body["combatants"]]}


def play(store, combat_id: str, actions: int) -> tuple[list[dict], list[dict]]:
    """Commit ``actions`` actions of the default tactic; return every state and entry stored."""
    state, entry = create_combat(endless_sistema_fight(), combat_id=combat_id, seed=3)
    store.create(state, entry)
    states, entries = [state], [entry]
    tactics = RULESET_TACTICS["sistema-2d6"]
    for _ in range(actions):
        waiting = state["awaiting"][0]
        actor = next(c for c in state["combatants"] if c["id"] == waiting["actor"])
        for body in tactics.candidates(state, actor, waiting, Tactic()):
            try:
                new_state, entry = apply_action(state, body)
                break
            except RulesError:
                continue
        store.commit(new_state, entry, expected_version=state["version"])
        state = new_state
        states.append(state)
        entries.append(entry)
    return states, entries


PAGES = [(0, 200), (0, 50), (95, 10), (99, 1), (150, 200), (199, 3), (240, 200)]
VERSIONS = [1, 2, 19, 20, 21, 99, 100, 101, 150, 199, 200, 201, ACTIONS]


def test_a_long_fight_reads_and_replays_from_snapshots_and_archived_chunks(store):
    combat_id = "history-" + uuid.uuid4().hex
    states, entries = play(store, combat_id, ACTIONS - 1)
    try:
        # Chunk 0 left the tail at version 200: archived; the tail stays whole.
        raw = store.client.lrange(log_key(combat_id), 0, -1)
        assert len(raw) == ACTIONS
        assert [i for i, item in enumerate(raw) if not item] == list(range(CHUNK))
        fields = {f.decode() for f in store.client.hkeys(state_key(combat_id))}
        # Archived history keeps a snapshot per chunk; the tail one per SNAPSHOT_EVERY.
        assert sorted(f for f in fields if f.startswith("snap:")) == sorted(
            ["snap:1", *(f"snap:{v}" for v in range(CHUNK, ACTIONS + 1, SNAPSHOT_EVERY))]
        )
        assert "log:0" in fields and "log:1" not in fields

        for after, limit in PAGES:  # every page reads as it was written
            page, last = store.log(combat_id, after, limit)
            assert last == ACTIONS
            assert page == entries[after : after + limit], (after, limit)

        for seq in VERSIONS:  # any version: a snapshot plus a short replay
            snapshot, tail = store.snapshot_before(combat_id, seq)
            assert len(tail) < (CHUNK if seq <= CHUNK else SNAPSHOT_EVERY)
            assert snapshot["version"] + len(tail) == seq
            assert replay(snapshot, tail) == states[seq - 1], seq
    finally:
        store.delete(combat_id)
