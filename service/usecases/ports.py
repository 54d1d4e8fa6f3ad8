"""What the use cases need of the world outside the rules, as protocols (structural types).

The store: ``service.store.CombatStore`` (Redis or Redis Cluster, fakeredis
when embedded) satisfies ``Combats``, ``Grants`` and ``IdempotencyRecords``;
``service.store.jobs.SimulationJobs`` satisfies ``Jobs``
(``CombatStore.simulation_jobs()``); ``service.store.memory`` has a
plain-Python stand-in for each, for the use cases' unit tests.
tests/unit/usecases/ checks them against these protocols.

The rest the HTTP layer hands in: ``Sealer`` (``Sealing``, service/adapters/sealing.py),
``SnapshotSealer`` (service/crypto/snapshots.py, built by ``Sealing``),
``EntryWait`` (the long poll of service/api/stream.py), ``JobRunner`` (the
worker processes' queue, service/jobs/queue.py, or a thread of the serving
process, service/jobs/threads.py) and ``Compute`` (the CPU budget of
service/api/budget.py, counted by service/adapters/compute.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

from ..rules.errors import refusal


class KeyedWrite(NamedTuple):
    """A commit made under an Idempotency-Key: it applies only while the
    request's own reservation ``reserved`` is still in field ``field`` of the
    combat's records, and replaces it with ``answer`` (TTL ``ttl``)."""

    field: str
    reserved: str
    answer: str
    ttl: int


@runtime_checkable
class Combats(Protocol):
    """A combat's state, its log and its history, behind a compare-and-set."""

    ttl_seconds: int

    def load_with_grant(self, combat_id: str, digest: str | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The combat (CombatNotFound when gone), a copy of its own that the
        caller may change, and the grant of the token with this digest, or None."""
        ...

    def create(
        self, state: Mapping[str, Any], entry: Mapping[str, Any], grants: Mapping[str, Mapping[str, Any]] | None = None
    ) -> None: ...

    def commit(
        self, state: Mapping[str, Any], entry: Mapping[str, Any], expected_version: int, keyed: KeyedWrite | None = None
    ) -> None:
        """Write ``state`` and append ``entry`` if the stored version is still
        ``expected_version`` (VersionConflict otherwise, with the current one)."""
        ...

    def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int]: ...

    def snapshot_before(self, combat_id: str, seq: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A state at or before version ``seq`` and the entries after it up to ``seq`` (engine.replay)."""
        ...

    def delete(self, combat_id: str) -> bool: ...


@runtime_checkable
class Grants(Protocol):
    """Token digest -> what its holder may do, per combat."""

    def add_grant(self, combat_id: str, digest: str, grant: Mapping[str, Any]) -> None: ...

    def grants(self, combat_id: str) -> dict[str, dict[str, Any]]: ...

    def remove_grant(self, combat_id: str, digest: str) -> bool:
        """Revoke for good: a restored snapshot does not bring the grant back (RevocationLimitReached when
        the combat's record of revocations is full)."""
        ...


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

    def chunk_played(
        self, job_id: str, chunk: int, done: int, counts: Mapping[str, Any]
    ) -> list[dict[str, Any]] | None:
        """Record a chunk's counts: every chunk's counts, in order, once all are in, else None."""
        ...

    def retried(self, job_id: str) -> None: ...

    def finish(self, job_id: str, result: Mapping[str, Any]) -> None: ...

    def fail(self, job_id: str, message: str) -> None: ...

    def get(self, job_id: str) -> dict[str, Any] | None: ...


@runtime_checkable
class CombatSnapshots(Protocol):
    """A whole combat, out of the store and back in (a snapshot: usecases/snapshots.py).

    ``max_actions``: the most actions a combat takes (MAX_ACTIONS_PER_COMBAT);
    ``revocation_ttl_seconds``: how long the store remembers a combat's revoked
    tokens after the last one, so the oldest snapshot it may restore."""

    max_actions: int
    revocation_ttl_seconds: int

    def export_combat(self, combat_id: str) -> dict[str, Any]:
        """In one consistent read: ``state``, ``entries`` (the whole log, in order),
        ``history`` (version -> the state kept then, as text keys) and ``grants``
        (token digest -> grant). CombatNotFound when it is gone."""
        ...

    def import_combat(self, exported: Mapping[str, Any]) -> None:
        """Store what ``export_combat`` gave, as it was, with a fresh TTL, but for the
        grants of the tokens revoked since (``Grants.remove_grant`` records them);
        VersionConflict (nothing written) when a combat with its id is live."""
        ...


class CombatStore(Combats, Grants, Protocol):
    """What an action needs: the combat and, for a join, new grants."""


class CreationStore(Combats, IdempotencyRecords, Protocol):
    """What a creation needs: the combat, and the records of its Idempotency-Key."""


class SnapshotStore(Combats, CombatSnapshots, IdempotencyRecords, Protocol):
    """What taking and restoring a snapshot needs: the combat whole, and the records of an Idempotency-Key."""


class KeyedActionStore(Combats, Grants, IdempotencyRecords, Protocol):
    """What an action under an Idempotency-Key needs: the combat, new grants, the key's records."""


class Sealer(Protocol):
    """Seals the tokens a retried creation shows again (AES-GCM under the server
    secret and the client's key): None when a sealed record no longer opens."""

    def seal(self, idempotency_key: str, combat_id: str, tokens: dict[str, Any]) -> str: ...

    def unseal(self, idempotency_key: str, combat_id: str, sealed: str) -> dict[str, Any] | None: ...


class SnapshotUnreadable(Exception):
    """A sealed snapshot that does not open; ``why`` completes "the snapshot ...": one of these
    refusals (the sealer imports no rules), said in the reader's language."""

    CHANGED = refusal("was changed or cut after it was taken")
    UNREADABLE = refusal("does not hold a snapshot this version of the service reads")
    UNKNOWN_KEY = refusal(
        "was sealed by a key this server does not hold (another deployment's, or a secret since changed "
        "and not listed in SECRET_KEY_FALLBACKS)"
    )
    FIRST_FORMAT = refusal(
        "was taken by an earlier version of the service, whose snapshots this one no longer restores"
    )
    NOT_A_SNAPSHOT = refusal("is not a snapshot of this service (it does not start with 'msnap2.')")
    NOT_BASE64 = refusal("is not valid URL-safe base64 after 'msnap2.'")
    TOO_SHORT = refusal("is too short to be one: it was cut")

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why

    @classmethod
    def too_many_entries(cls, max_entries: int) -> SnapshotUnreadable:
        return cls(
            refusal(
                "holds more than {limit} log entries: restored, it would pass this server's limit of "
                "{limit} actions a combat (MAX_ACTIONS_PER_COMBAT)",
                limit=format(max_entries, ","),
            )
        )

    @classmethod
    def too_large(cls, limit: int, max_entries: int) -> SnapshotUnreadable:
        return cls(
            refusal(
                "holds more than {size} bytes once uncompressed, more than a combat of "
                "{limit} actions (MAX_ACTIONS_PER_COMBAT) holds on this server",
                size=format(limit, ","),
                limit=format(max_entries, ","),
            )
        )


class SnapshotSealer(Protocol):
    """Seals a combat's snapshot under the server secret (service/crypto/snapshots.py);
    ``open`` raises SnapshotUnreadable for one altered, cut, sealed by another key, or
    holding more than ``max_entries`` log entries (found out before they are read)."""

    def seal(self, snapshot: Mapping[str, Any]) -> str: ...

    def open(self, sealed: str, max_entries: int) -> dict[str, Any]: ...


class EntryWait(Protocol):
    """Waits up to ``seconds`` for a log entry after ``after``; False when it could not wait at all."""

    def __call__(self, combat_id: str, after: int, seconds: float) -> bool: ...


class RunnerBusy(Exception):
    """The job runner takes no more jobs now (503, Retry-After)."""


class QueueFull(RunnerBusy):
    """The queue holds ``queued`` chunks: ``more`` more would pass its ``limit`` (every client together)."""

    def __init__(self, queued: int, more: int, limit: int):
        super().__init__(f"{queued} chunks queued, {more} more would pass {limit}")
        self.queued, self.more, self.limit = queued, more, limit


class JobRunner(Protocol):
    """Plays a simulation job's chunks somewhere, writing to ``Jobs``; RunnerBusy when it cannot take it."""

    def submit(self, job_id: str, asked: dict[str, Any]) -> None: ...


Result = TypeVar("Result")


class Compute(Protocol):
    """Where a costly computation runs: ``limited(cost)`` around it (refuses when
    the process or the client has no budget left for ``cost`` units,
    usecases/budget.py), ``run`` to play it."""

    def limited(self, cost: int) -> AbstractContextManager[None]: ...

    def run(self, function: Callable[..., Result], *args: Any, **kwargs: Any) -> Result: ...
