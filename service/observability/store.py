"""The combat store, observed: an adapter around the store that times every
Redis round trip (latency and unavailability metrics) and names, in the
request's log line and the action counter, what flows through it: the
combat, its ruleset, the applied action.

Observing the store rather than the HTTP handlers keeps the API code free
of logging calls: a combat loaded is a combat whose ruleset is known, a
commit that succeeds is an action applied (a lost compare-and-set raises,
an idempotent replay never commits, so neither is counted). What it does
not observe it hands to the store unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from flask import has_request_context

from ..store import CombatStore
from ..usecases.port_errors import StoreUnavailable
from ..usecases.ports import KeyedWrite
from . import metrics
from .logs import annotate

Result = TypeVar("Result")


class ObservedStore:
    """``store`` with the operations of ``metrics.STORE_OPERATIONS`` timed and observed."""

    def __init__(self, store: CombatStore):
        self.store = store
        self._meters = {
            operation: (
                metrics.REDIS_LATENCY.labels(operation=operation),
                metrics.REDIS_UNAVAILABLE.labels(operation=operation),
            )
            for operation in metrics.STORE_OPERATIONS
        }

    def __getattr__(self, name: str) -> Any:
        # Only called for what this class does not define: the store's own.
        if name == "store":  # not set yet (copy, pickle): no endless recursion
            raise AttributeError(name)
        return getattr(self.store, name)

    def _timed(self, operation: str, call: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
        latency, unavailable = self._meters[operation]
        started = time.perf_counter()
        try:
            return call(*args, **kwargs)
        except StoreUnavailable:
            unavailable.inc()
            raise
        finally:
            latency.observe(time.perf_counter() - started)

    # -- observed
    def load(self, combat_id: str) -> dict:
        state = self._timed("load", self.store.load, combat_id)
        _annotate(ruleset=state.get("ruleset"))
        return state

    def load_with_grant(self, combat_id: str, digest: str | None) -> tuple[dict, dict | None]:
        state, grant = self._timed("load_with_grant", self.store.load_with_grant, combat_id, digest)
        _annotate(ruleset=state.get("ruleset"))
        return state, grant

    def create(self, state: dict, entry: dict, grants: dict[str, dict] | None = None) -> None:
        self._timed("create", self.store.create, state, entry, grants)
        _annotate(combat_id=state.get("id"), ruleset=state.get("ruleset"))

    def commit(self, state: dict, entry: dict, expected_version: int, keyed: KeyedWrite | None = None) -> None:
        self._timed("commit", self.store.commit, state, entry, expected_version=expected_version, keyed=keyed)
        ruleset, action_type = state["ruleset"], entry["action"]["type"]
        metrics.action_applied(ruleset, action_type)
        _annotate(ruleset=ruleset, action_type=action_type)

    def export_combat(self, combat_id: str) -> dict:
        exported = self._timed("export_combat", self.store.export_combat, combat_id)
        _annotate(ruleset=exported["state"].get("ruleset"))
        return exported

    def import_combat(self, exported: dict) -> None:
        self._timed("import_combat", self.store.import_combat, exported)
        _annotate(combat_id=exported["state"].get("id"), ruleset=exported["state"].get("ruleset"))

    # -- timed only
    def ping(self) -> bool:
        return self._timed("ping", self.store.ping)

    def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict], int]:
        return self._timed("log", self.store.log, combat_id, after, limit)

    def delete(self, combat_id: str) -> bool:
        return self._timed("delete", self.store.delete, combat_id)

    def reserve(self, key: str, field: str, record: str, now: int, stale_after: int, ttl: int) -> str | None:
        return self._timed("reserve", self.store.reserve, key, field, record, now, stale_after, ttl)

    def grants(self, combat_id: str) -> dict[str, dict]:
        return self._timed("grants", self.store.grants, combat_id)

    def holds_grant(self, combat_id: str, digest: str) -> bool:
        return self._timed("holds_grant", self.store.holds_grant, combat_id, digest)

    def add_grant(self, combat_id: str, digest: str, grant: dict) -> None:
        self._timed("add_grant", self.store.add_grant, combat_id, digest, grant)

    def remove_grant(self, combat_id: str, digest: str) -> bool:
        return self._timed("remove_grant", self.store.remove_grant, combat_id, digest)


def observed(store: CombatStore | ObservedStore) -> ObservedStore:
    """The store, observed (once: an observed store is returned as it is)."""
    return store if isinstance(store, ObservedStore) else ObservedStore(store)


def _annotate(**fields: Any) -> None:
    if has_request_context():
        annotate(**fields)
