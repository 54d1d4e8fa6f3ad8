"""Save and resume a combat: ``GET /combats/{id}/snapshot`` and ``POST /combats``
with ``{"snapshot": ...}``.

A snapshot is the whole combat as the store holds it (its state with the
dice keys, the whole log, the states kept for undo, the grants: token
digests, never tokens), sealed by a ``SnapshotSealer``: encrypted and
authenticated under the server secret, so its holder can neither read nor
change it. Only the GM takes one. Restoring it writes the combat back under
its own id, with its version, its log and its grants: the tokens shown at
creation (or minted since) work again, and every read is filtered as before,
so nothing the snapshot hid is shown. A restore is refused (nothing
written) when the snapshot does not open (``InvalidSnapshot``) or a combat
with its id is live (``CombatLive``). Under an Idempotency-Key a restore is
fenced like a creation (``KeyFence``): a retry gets the combat as restored.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rules.engine import replay
from ..rules.registry import RULESETS
from ..rules.viewer import GM_VIEWER
from .access import authorize, require_gm
from .actions import stamp_expiry
from .idempotency import OLDER_FORMAT, CombatRestored, KeyFence, ReplayUnavailable, RequestInFlight
from .port_errors import ReservationLost, VersionConflict
from .ports import SnapshotSealer, SnapshotStore, SnapshotUnreadable
from .views import combat_view

FORMAT = 1
PARTS = ("state", "entries", "history", "grants")


class InvalidSnapshot(Exception):
    """The snapshot does not open, or this service cannot restore it (422); ``why``
    completes "the snapshot ..."."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


class CombatLive(Exception):
    """A combat with the snapshot's id is live (409): delete it first, or let it expire."""

    def __init__(self, combat_id: str):
        super().__init__(combat_id)
        self.combat_id = combat_id


@dataclass(frozen=True)
class Restored:
    """The combat as restored; ``replayed``: shown again for a retry under the same Idempotency-Key."""

    state: dict[str, Any]
    replayed: bool = False

    @property
    def combat(self) -> dict[str, Any]:
        """The combat as the GM sees it (without tokens: its own work again)."""
        return combat_view(self.state, GM_VIEWER)


def take(combats: SnapshotStore, combat_id: str, token: str | None, sealer: SnapshotSealer) -> str:
    """The GM's snapshot of the combat, sealed (a player's token: 403, before anything is read)."""
    _, grant = authorize(combats, combat_id, token)
    require_gm(grant, "taking a snapshot of a combat")
    exported = combats.export_combat(combat_id)
    return sealer.seal({"format": FORMAT, "taken_at": int(time.time()), **exported})


def restore(combats: SnapshotStore, sealed: str, sealer: SnapshotSealer, *, fence: KeyFence | None = None) -> Restored:
    """The combat of ``sealed``, stored again under its id with a fresh TTL.

    The snapshot is opened and checked before anything else, so a refused one
    leaves no record under the Idempotency-Key either."""
    exported = opened(sealer, sealed)
    if fence is None:
        return Restored(_import(combats, exported))
    found = fence.reserve(combats, int(time.time()))
    if found is not None:
        if not isinstance(found, CombatRestored):
            raise ReplayUnavailable(OLDER_FORMAT)
        return _replayed(combats, found)
    try:
        state = _import(combats, exported)
        if not fence.restore_done(combats, state["id"], state["version"]):
            combats.delete(state["id"])  # its reservation was taken over: the other request restores it
            raise ReservationLost()
        return Restored(state)
    except ReservationLost:
        raise RequestInFlight() from None
    except Exception:
        fence.abandon(combats)
        raise


def opened(sealer: SnapshotSealer, sealed: str) -> dict[str, Any]:
    """What ``sealed`` holds, checked: InvalidSnapshot otherwise."""
    try:
        snapshot = sealer.open(sealed)
    except SnapshotUnreadable as unreadable:
        raise InvalidSnapshot(unreadable.why) from None
    if snapshot.get("format") != FORMAT or not all(isinstance(snapshot.get(part), dict | list) for part in PARTS):
        raise InvalidSnapshot("was taken by a version of the service that writes another format")
    state = snapshot["state"]
    if state.get("ruleset") not in RULESETS:
        raise InvalidSnapshot(f"is of a combat of the ruleset {state.get('ruleset')!r}, which this server lacks")
    if len(snapshot["entries"]) != state.get("version"):
        raise InvalidSnapshot("does not hold the whole log of its combat")
    return snapshot


def _import(combats: SnapshotStore, exported: Mapping[str, Any]) -> dict[str, Any]:
    state = dict(exported["state"])
    stamp_expiry(state, combats.ttl_seconds)
    try:
        combats.import_combat({**exported, "state": state})
    except VersionConflict:
        raise CombatLive(state["id"]) from None
    return state


def _replayed(combats: SnapshotStore, record: CombatRestored) -> Restored:
    """The first answer again: the combat at the version it was restored at."""
    current, _ = combats.load_with_grant(record.combat_id, None)
    if current["version"] == record.version:
        return Restored(current, replayed=True)
    then = {**replay(*combats.snapshot_before(record.combat_id, record.version)), "expires_at": current["expires_at"]}
    return Restored(then, replayed=True)
