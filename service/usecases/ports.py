"""What the use cases need of the store, as protocols (structural types).

``service.store.CombatStore`` (Redis or Redis Cluster, fakeredis when
embedded) satisfies all but ``Jobs``, which ``service.store.jobs.SimulationJobs``
does (``CombatStore.simulation_jobs()``); ``service.store.memory.MemoryCombats``
is a plain-Python stand-in for the use cases' unit tests. tests/unit/usecases/
checks both against these protocols.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from ..store.idempotency import KeyedWrite


@runtime_checkable
class Combats(Protocol):
    """A combat's state, its log and its history, behind a compare-and-set."""

    ttl_seconds: int

    def load_with_grant(self, combat_id: str, digest: str | None) -> tuple[dict, dict | None]:
        """The combat (CombatNotFound when gone), a copy of its own that the
        caller may change, and the grant of the token with this digest, or None."""
        ...

    def create(self, state: dict, entry: dict, grants: dict[str, dict] | None = None) -> None: ...

    def commit(self, state: dict, entry: dict, expected_version: int, keyed: KeyedWrite | None = None) -> None:
        """Write ``state`` and append ``entry`` if the stored version is still
        ``expected_version`` (VersionConflict otherwise, with the current one)."""
        ...

    def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict], int]: ...

    def snapshot_before(self, combat_id: str, seq: int) -> tuple[dict, list[dict]]:
        """A state at or before version ``seq`` and the entries after it up to ``seq`` (engine.replay)."""
        ...

    def delete(self, combat_id: str) -> bool: ...


@runtime_checkable
class Grants(Protocol):
    """Token digest -> what its holder may do, per combat."""

    def add_grant(self, combat_id: str, digest: str, grant: dict) -> None: ...

    def grants(self, combat_id: str) -> dict[str, dict]: ...

    def remove_grant(self, combat_id: str, digest: str) -> bool: ...


@runtime_checkable
class IdempotencyRecords(Protocol):
    """Idempotency-Key records: reserved, then swapped for the answer, atomically."""

    def reserve(self, key: str, field: str, record: str, now: int, stale_after: int, ttl: int) -> str | None: ...

    def swap(self, key: str, field: str, expected: str, record: str, ttl: int | None = None) -> bool: ...


@runtime_checkable
class Jobs(Protocol):
    """Simulation jobs: what was asked, each chunk's progress and counts, the result."""

    def create(self, job_id: str, total: int, chunks: int, runner: str) -> None: ...

    def progress(self, job_id: str, chunk: int, done: int) -> None: ...

    def chunk_played(self, job_id: str, chunk: int, done: int, counts: dict) -> list[dict] | None:
        """Record a chunk's counts: every chunk's counts, in order, once all are in, else None."""
        ...

    def retried(self, job_id: str) -> None: ...

    def finish(self, job_id: str, result: dict) -> None: ...

    def fail(self, job_id: str, message: str) -> None: ...

    def get(self, job_id: str) -> dict | None: ...


class CombatStore(Combats, Grants, Protocol):
    """What an action needs: the combat and, for a join, new grants."""
