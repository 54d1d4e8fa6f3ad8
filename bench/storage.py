"""Bytes Redis holds per combat, and what reading it costs, as the log grows.

    .venv/bin/python -m bench.storage

A two-combatant sistema-2d6 fight (500 PV each, so it lasts) is committed
through CombatStore exactly as the API does (without the access grants and
Idempotency-Key answers, reported apart), with MEMORY USAGE per key after
creation and after 10, 100 and 1,000 actions, and the median time to read
the state, a page of the log, and the state at the current version from its
newest snapshot.
"""

from __future__ import annotations

import json
import statistics
import time
import uuid

import redis

from service.rules.engine import apply_action, create_combat, replay
from service.rules.errors import RulesError
from service.rules.registry import RULESETS
from service.simulation.tactics import RULESET_TACTICS, Tactic
from service.store import CombatStore
from service.store.keys import combat_keys

from .redis_server import redis_url

CHECKPOINTS = (10, 100, 1000)


def long_fight(actions: int) -> tuple[list[dict], list[dict]]:
    """Every state and log entry of a sistema-2d6 fist fight that lasts ``actions`` actions."""
    body = RULESETS["sistema-2d6"].example()["combat"]
    body = {**body, "combatants": [{**c, "pv": 500, "weapons": []} for c in body["combatants"]]}
    state, entry = create_combat(body, combat_id="bench-" + uuid.uuid4().hex, seed=3)
    states, entries = [state], [entry]
    tactics = RULESET_TACTICS["sistema-2d6"]
    while len(states) < actions:
        waiting = state["awaiting"][0]
        actor = next(c for c in state["combatants"] if c["id"] == waiting["actor"])
        for body in tactics.candidates(state, actor, waiting, Tactic()):
            try:
                state, entry = apply_action(state, body)
                break
            except RulesError:
                continue
        states.append(state)
        entries.append(entry)
    return states, entries


def median_us(function, repeat: int = 200) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def measure(store: CombatStore, states: list[dict], entries: list[dict], version: int) -> dict:
    combat_id = states[0]["id"]
    client = store.client
    usage = {key.split(":")[-1]: client.memory_usage(key, samples=0) or 0 for key in combat_keys(combat_id)}
    return {
        "version": version,
        "state_json_bytes": len(json.dumps(states[version - 1], separators=(",", ":"), ensure_ascii=False).encode()),
        "redis_bytes": usage,
        "redis_total": sum(usage.values()),
        "read_state_us": median_us(lambda: store.load(combat_id)),
        "read_first_page_us": median_us(lambda: store.log(combat_id, 0, 50)),
        "read_last_page_us": median_us(lambda: store.log(combat_id, max(0, version - 50), 50)),
        "state_from_snapshot_us": median_us(lambda: replay(*store.snapshot_before(combat_id, version))),
    }


def main() -> None:
    states, entries = long_fight(max(CHECKPOINTS))
    entry_bytes = statistics.mean(len(json.dumps(e, separators=(",", ":")).encode()) for e in entries[1:])
    print(f"sistema-2d6, 2 combatants; mean log entry {entry_bytes:.0f} bytes of JSON")
    with redis_url() as url:
        store = CombatStore(redis.Redis.from_url(url), 600)
        combat_id = states[0]["id"]
        try:
            store.create(states[0], entries[0])
            rows = [measure(store, states, entries, 1)]
            for version in range(2, max(CHECKPOINTS) + 1):
                store.commit(states[version - 1], entries[version - 1], expected_version=version - 1)
                if version in CHECKPOINTS:
                    rows.append(measure(store, states, entries, version))
        finally:
            store.delete(combat_id)
    print(
        f"{'version':>8} {'state JSON':>11} {'state hash':>11} {'log list':>9} {'total':>8} "
        f"{'read state':>11} {'page 1':>8} {'last page':>10} {'replay':>8}"
    )
    for row in rows:
        b = row["redis_bytes"]
        print(
            f"{row['version']:>8} {row['state_json_bytes']:>10}B "
            f"{b['state']:>10}B {b['log']:>8}B {row['redis_total']:>7}B "
            f"{row['read_state_us']:>9.0f}us {row['read_first_page_us']:>6.0f}us {row['read_last_page_us']:>8.0f}us "
            f"{row['state_from_snapshot_us']:>6.0f}us"
        )


if __name__ == "__main__":
    main()
