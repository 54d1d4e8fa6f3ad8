"""Combats in Redis.

A combat is five keys in one Cluster slot (see ``keys.py``): its state
(hash: version, json, snapshots and archived log chunks: ``history.py``),
its log (list; entry *n* has seq *n*), its Idempotency-Key records, its
access grants and its stream (the log entries again, for live listeners:
``stream.py``). Every write refreshes the TTL of all but the Idempotency-Key
records, which have their own (``idempotency.py``). A combat takes at most
``max_actions`` actions (its log at most that many entries after the
creation's). Appending an
entry and replacing the state is one Lua script
that first compares the stored version: two writers can never both commit on
the same version, and a write is never half done.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import codec
from ..usecases.port_errors import ActionLimitReached, CombatNotFound, ReservationLost, VersionConflict
from ..usecases.ports import KeyedWrite
from . import scripts
from .access import AccessGrants, grant_args
from .cluster import RedisClient
from .errors import retrying_read, unavailable_on_failure, write_outcome_unknown
from .history import History, snapshot_arg
from .idempotency import IdempotencyRecords, keyed_args
from .jobs import SimulationJobs
from .keys import combat_keys, dumps, state_key
from .snapshots import CombatSnapshots
from .stream import EventStreams

COMMITTED, CONFLICT, GONE, AT_LIMIT, NOT_RESERVED = 0, 1, 2, 3, 4
DEFAULT_MAX_ACTIONS = 1000
# How long a combat's revoked tokens are remembered after its last revocation,
# and so how old a snapshot may be to restore (MAX_SNAPSHOT_AGE_DAYS: docs/security.md).
DEFAULT_REVOCATION_TTL = 30 * 86400


class CombatStore(IdempotencyRecords, AccessGrants, History, EventStreams, CombatSnapshots):
    def __init__(
        self,
        client: RedisClient,
        ttl_seconds: int,
        max_actions: int = DEFAULT_MAX_ACTIONS,
        revocation_ttl_seconds: int = DEFAULT_REVOCATION_TTL,
    ):
        self.client = client
        self.ttl_seconds = ttl_seconds
        self.max_actions = max_actions
        self.revocation_ttl_seconds = revocation_ttl_seconds
        self._create = client.register_script(scripts.CREATE)
        self._commit = client.register_script(scripts.COMMIT)
        self._reserve = client.register_script(scripts.RESERVE)
        self._swap = client.register_script(scripts.SWAP)
        self._archive = client.register_script(scripts.ARCHIVE)
        self._export = client.register_script(scripts.EXPORT)
        self._import = client.register_script(scripts.IMPORT)
        self._revoke = client.register_script(scripts.REVOKE)

    def ping(self) -> bool:
        with unavailable_on_failure():
            return bool(self.client.ping())

    def create(
        self,
        state: Mapping[str, Any],
        entry: Mapping[str, Any],
        grants: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        """Store a new combat and its grants."""
        combat_id = state["id"]
        with write_outcome_unknown():
            created = self._create(
                keys=combat_keys(combat_id),
                args=[
                    state["version"],
                    dumps(state),
                    dumps(entry),
                    self.ttl_seconds,
                    snapshot_arg(state),
                    *grant_args(grants or {}),
                ],
            )
        if not created:
            raise VersionConflict(0)

    def load(self, combat_id: str) -> dict[str, Any]:
        with unavailable_on_failure():
            raw = retrying_read(lambda: self.client.hget(state_key(combat_id), "json"))
        if raw is None:
            raise CombatNotFound(combat_id)
        state: dict[str, Any] = codec.loads(raw)
        return state

    def commit(
        self, state: Mapping[str, Any], entry: Mapping[str, Any], expected_version: int, keyed: KeyedWrite | None = None
    ) -> None:
        """Replace the state and append the entry if the version is still
        ``expected_version`` (and, under an Idempotency-Key, the request's
        reservation is still there: ``KeyedWrite``)."""
        combat_id = state["id"]
        with write_outcome_unknown():
            outcome, current = self._commit(
                keys=combat_keys(combat_id),
                args=[
                    expected_version,
                    state["version"],
                    dumps(state),
                    dumps(entry),
                    self.ttl_seconds,
                    *keyed_args(keyed),
                    snapshot_arg(state),
                    self.max_actions + 1,
                ],
            )
        if outcome == GONE:
            raise CombatNotFound(combat_id)
        if outcome == CONFLICT:
            raise VersionConflict(int(current))
        if outcome == AT_LIMIT:
            raise ActionLimitReached(self.max_actions)
        if outcome == NOT_RESERVED:
            raise ReservationLost()
        self.archive_due(combat_id, state["version"])

    def simulation_jobs(self) -> SimulationJobs:
        """The simulation jobs, kept in the same Redis."""
        return SimulationJobs(self.client)

    def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """Entries with seq > ``after`` (at most ``limit``) and the newest seq."""
        return self.read_log(combat_id, after, limit)

    def delete(self, combat_id: str) -> bool:
        with unavailable_on_failure():
            return bool(self.client.delete(*combat_keys(combat_id)))
