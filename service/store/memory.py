"""A plain-Python combat store, in one process, for the use cases' unit tests.

It keeps the contract of ``CombatStore`` that the use cases rely on (the
ports of ``service/usecases/ports.py``): compare-and-set commits fenced by
an Idempotency-Key reservation, the log, the state at any version, grants,
records with stale reservations taken over, revocations that outlive a
deletion. It keeps no TTLs, no streams and no action cap (``max_actions``
bounds only what a restore takes): the Redis store (fakeredis in the API tests) is the one
the service runs on. ``MemoryJobs`` does the same for the simulation jobs.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from typing import Any, cast

from ..usecases.port_errors import CombatNotFound, ReservationLost, VersionConflict
from ..usecases.ports import KeyedWrite
from .combats import DEFAULT_MAX_ACTIONS, DEFAULT_REVOCATION_TTL
from .keys import idempotency_key

JSON = dict[str, Any]


def _copied(value: Mapping[str, Any]) -> JSON:
    """A deep copy, kept as the plain JSON object the store holds."""
    return cast(JSON, copy.deepcopy(value))


class MemoryCombats:
    def __init__(self, ttl_seconds: int = 3600, max_actions: int = DEFAULT_MAX_ACTIONS):
        self.ttl_seconds = ttl_seconds
        self.max_actions = max_actions
        self.revocation_ttl_seconds = DEFAULT_REVOCATION_TTL
        self.revoked: dict[str, set[str]] = {}  # combat id -> digests of its revoked tokens (kept on delete)
        self.states: dict[str, list[JSON]] = {}  # combat id -> its state at each version (index version - 1)
        self.logs: dict[str, list[JSON]] = {}
        self.access: dict[str, dict[str, JSON]] = {}
        self.records: dict[str, dict[str, str]] = {}  # records key -> field -> record

    # -- Combats
    def create(
        self, state: Mapping[str, Any], entry: Mapping[str, Any], grants: Mapping[str, Mapping[str, Any]] | None = None
    ) -> None:
        if state["id"] in self.states:
            raise VersionConflict(0)
        self.states[state["id"]] = [_copied(state)]
        self.logs[state["id"]] = [_copied(entry)]
        self.access[state["id"]] = cast("dict[str, JSON]", dict(grants or {}))

    def load_with_grant(self, combat_id: str, digest: str | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        versions = self._versions(combat_id)
        return copy.deepcopy(versions[-1]), self.access[combat_id].get(digest or "-")

    def commit(
        self, state: Mapping[str, Any], entry: Mapping[str, Any], expected_version: int, keyed: KeyedWrite | None = None
    ) -> None:
        versions = self._versions(state["id"])
        if versions[-1]["version"] != expected_version:
            raise VersionConflict(versions[-1]["version"])
        if keyed is not None:
            records = self.records.setdefault(idempotency_key(state["id"]), {})
            if records.get(keyed.field) != keyed.reserved:
                raise ReservationLost()
            records[keyed.field] = keyed.answer
        versions.append(_copied(state))
        self.logs[state["id"]].append(_copied(entry))

    def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        self._versions(combat_id)
        entries = self.logs[combat_id]
        return copy.deepcopy(entries[after : after + limit]), len(entries)

    def snapshot_before(self, combat_id: str, seq: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The state at version ``seq`` itself, with no entries to replay."""
        return copy.deepcopy(self._versions(combat_id)[seq - 1]), []

    def delete(self, combat_id: str) -> bool:
        self.logs.pop(combat_id, None)
        self.access.pop(combat_id, None)
        self.records.pop(idempotency_key(combat_id), None)
        return self.states.pop(combat_id, None) is not None

    # -- CombatSnapshots
    def export_combat(self, combat_id: str) -> dict[str, Any]:
        """Every version is kept here: the history holds them all."""
        versions = self._versions(combat_id)
        return copy.deepcopy(
            {
                "state": versions[-1],
                "entries": self.logs[combat_id],
                "history": {str(state["version"]): state for state in versions},
                "grants": self.access.get(combat_id, {}),
            }
        )

    def import_combat(self, exported: Mapping[str, Any]) -> None:
        state = exported["state"]
        if state["id"] in self.states:
            raise VersionConflict(0)
        # A memory export holds every version. (A Redis one holds one in SNAPSHOT_EVERY: the state at a
        # version between is then the one kept before it, not replayed: good enough for the unit tests.)
        history = {int(version): kept for version, kept in exported["history"].items()}
        versions, kept = [], history[1]
        for version in range(1, state["version"]):
            kept = history.get(version, kept)
            versions.append(_copied(kept))
        self.states[state["id"]] = [*versions, _copied(state)]
        self.logs[state["id"]] = [_copied(entry) for entry in exported["entries"]]
        revoked = self.revoked.get(state["id"], set())
        grants = {digest: grant for digest, grant in exported["grants"].items() if digest not in revoked}
        self.access[state["id"]] = cast("dict[str, JSON]", copy.deepcopy(grants))

    def _versions(self, combat_id: str) -> list[dict[str, Any]]:
        if combat_id not in self.states:
            raise CombatNotFound(combat_id)
        return self.states[combat_id]

    # -- Grants
    def add_grant(self, combat_id: str, digest: str, grant: Mapping[str, Any]) -> None:
        self.access.setdefault(combat_id, {})[digest] = dict(grant)

    def grants(self, combat_id: str) -> dict[str, dict[str, Any]]:
        return copy.deepcopy(self.access.get(combat_id, {}))

    def remove_grant(self, combat_id: str, digest: str) -> bool:
        self.revoked.setdefault(combat_id, set()).add(digest)
        return self.access.get(combat_id, {}).pop(digest, None) is not None

    # -- IdempotencyRecords: ``key`` names the records, as in Redis (keys.py)
    def reserve(self, key: str, field: str, record: str, now: int, stale_after: int, ttl: int) -> str | None:
        records = self.records.setdefault(key, {})
        found = records.get(field)
        if found is not None and not (found.startswith("F ") and now - int(found.split(" ")[2]) >= stale_after):
            return found
        records[field] = record
        return None

    def swap(self, key: str, field: str, expected: str, record: str, ttl: int | None = None) -> bool:
        records = self.records.setdefault(key, {})
        if records.get(field) != expected:
            return False
        if record:
            records[field] = record
        else:
            del records[field]
        return True


class MemoryJobs:
    """The ``Jobs`` port in plain Python: the fields of service/store/jobs.py's
    hash in a dict[str, Any] per job, read back the same way (no TTL)."""

    def __init__(self, clock: Callable[[], float] = time.time):
        self.clock = clock
        self.hashes: dict[str, dict[str, Any]] = {}

    def _write(self, job_id: str, **fields: Any) -> None:
        self.hashes.setdefault(job_id, {}).update(fields, updated_at=int(self.clock()))

    def create(self, job_id: str, total: int, chunks: int, runner: str) -> None:
        self._write(job_id, total=total, chunks=chunks, runner=runner, created_at=int(self.clock()))

    def progress(self, job_id: str, chunk: int, done: int) -> None:
        self._write(job_id, **{f"done:{chunk}": done})

    def chunk_played(self, job_id: str, chunk: int, done: int, counts: dict[str, Any]) -> list[dict[str, Any]] | None:
        self._write(job_id, **{f"done:{chunk}": done, f"part:{chunk}": copy.deepcopy(counts)})
        fields = self.hashes[job_id]
        parts = {int(name[5:]): value for name, value in fields.items() if name.startswith("part:")}
        if len(parts) < fields["chunks"]:
            return None
        return [copy.deepcopy(parts[index]) for index in sorted(parts)]

    def retried(self, job_id: str) -> None:
        self._write(job_id, retries=self.hashes.get(job_id, {}).get("retries", 0) + 1)

    def finish(self, job_id: str, result: dict[str, Any]) -> None:
        self._write(job_id, result=copy.deepcopy(result))
        for name in [name for name in self.hashes[job_id] if name.startswith("part:")]:
            del self.hashes[job_id][name]

    def fail(self, job_id: str, message: str) -> None:
        self._write(job_id, error=message)

    def get(self, job_id: str) -> dict[str, Any] | None:
        fields = self.hashes.get(job_id)
        if not fields:
            return None
        progress = [value for name, value in fields.items() if name.startswith("done:")]
        job = {
            "status": "failed"
            if "error" in fields
            else "done"
            if "result" in fields
            else "running"
            if progress
            else "queued",
            "done": sum(progress),
            "runner": fields.get("runner"),
        }
        for name in ("total", "chunks", "retries", "created_at", "updated_at"):
            job[name] = fields.get(name)
        if "result" in fields:
            job["result"] = copy.deepcopy(fields["result"])
            job["done"] = job["total"]
        if "error" in fields:
            job["error"] = fields["error"]
        return job
