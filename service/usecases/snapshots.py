"""Save and resume a combat: ``GET /combats/{id}/snapshot`` and ``POST /combats``
with ``{"snapshot": ...}``.

A snapshot is the whole combat as the store holds it (its state with the
dice keys, the whole log, the states kept for undo, the grants: token
digests, never tokens), sealed by a ``SnapshotSealer``: encrypted and
authenticated under the server secret, so its holder can neither read nor
change it. Only the GM takes one. Restoring it writes the combat back under
its own id, with its log and its grants but for the tokens revoked since
(the store remembers them: ``CombatSnapshots.revocation_ttl_seconds``, and a
snapshot older than that is refused), and appends a ``restored`` log entry
(``engine.restored``): the combat draws its server dice from a new stream,
so whoever holds the snapshot cannot learn the next dice by restoring it
again. The answer shows the combat to the holder of one of its tokens as
``GET /combats/{id}`` does, and to anyone else only its id, ruleset and
version. A restore is refused (nothing written) when the snapshot does not
open or holds more than the store takes (``InvalidSnapshot``) or a combat
with its id is live (``CombatLive``). Under an Idempotency-Key a restore is
fenced like a creation (``KeyFence``): a retry gets the combat as restored.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..rules.dice import KEY_BYTES
from ..rules.engine import replay, restored
from ..rules.errors import refusal
from ..rules.registry import RULESETS
from .access import Grant, authorize, digest, require_gm
from .actions import stamp_expiry
from .idempotency import OLDER_FORMAT, CombatRestored, KeyFence, ReplayUnavailable, RequestInFlight
from .port_errors import ReservationLost, VersionConflict
from .ports import SnapshotSealer, SnapshotStore, SnapshotUnreadable
from .views import combat_view

FORMAT = 2
PARTS = ("state", "entries", "history", "grants")


ANOTHER_FORMAT = refusal("was taken by a version of the service that writes another format")


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
    """The combat as restored, and the grant of the caller's token (None: no token of this combat);
    ``replayed``: shown again for a retry under the same Idempotency-Key."""

    state: dict[str, Any]
    grant: Grant | None
    replayed: bool = False

    @property
    def combat(self) -> dict[str, Any]:
        """What the caller may see: the combat as its token shows it, else only which combat it is."""
        if self.grant is None:
            return {key: self.state[key] for key in ("id", "ruleset", "version")}
        return combat_view(self.state, self.grant.viewer)


def take(combats: SnapshotStore, combat_id: str, token: str | None, sealer: SnapshotSealer) -> str:
    """The GM's snapshot of the combat, sealed (a player's token: 403, before anything is read)."""
    _, grant = authorize(combats, combat_id, token)
    require_gm(grant, refusal("taking a snapshot of a combat needs the game master's token"))
    exported = combats.export_combat(combat_id)
    return sealer.seal({"format": FORMAT, "taken_at": int(time.time()), **exported})


def restore(
    combats: SnapshotStore,
    sealed: str,
    sealer: SnapshotSealer,
    token: str | None = None,
    *,
    fence: KeyFence | None = None,
) -> Restored:
    """The combat of ``sealed``, stored again under its id with a fresh TTL, a new
    dice stream and its ``restored`` entry, as the holder of ``token`` may see it.

    The snapshot is opened and checked before anything else, so a refused one
    leaves no record under the Idempotency-Key either."""
    now = int(time.time())
    exported = opened(combats, sealer, sealed, now)
    if fence is None:
        state = _import(combats, exported, now)
        return Restored(state, _grant(combats, state["id"], token))
    found = fence.reserve(combats, now)
    if found is not None:
        if not isinstance(found, CombatRestored):
            raise ReplayUnavailable(OLDER_FORMAT)
        return _replayed(combats, found, token)
    try:
        state = _import(combats, exported, now)
        if not fence.restore_done(combats, state["id"], state["version"]):
            combats.delete(state["id"])  # its reservation was taken over: the other request restores it
            raise ReservationLost()
        return Restored(state, _grant(combats, state["id"], token))
    except ReservationLost:
        raise RequestInFlight() from None
    except Exception:
        fence.abandon(combats)
        raise


def opened(combats: SnapshotStore, sealer: SnapshotSealer, sealed: str, now: int) -> dict[str, Any]:
    """What ``sealed`` holds, checked against what ``combats`` takes: InvalidSnapshot otherwise."""
    try:
        snapshot = sealer.open(sealed, max_entries=combats.max_actions)
    except SnapshotUnreadable as unreadable:
        raise InvalidSnapshot(unreadable.why) from None
    if snapshot.get("format") != FORMAT or not all(isinstance(snapshot.get(part), dict | list) for part in PARTS):
        raise InvalidSnapshot(ANOTHER_FORMAT)
    state = snapshot["state"]
    if state.get("ruleset") not in RULESETS:
        raise InvalidSnapshot(
            refusal(
                "is of a combat of the ruleset '{ruleset_id}', which this server lacks", ruleset_id=state.get("ruleset")
            )
        )
    if len(snapshot["entries"]) != state.get("version"):
        raise InvalidSnapshot(refusal("does not hold the whole log of its combat"))
    taken_at, max_age = snapshot.get("taken_at"), combats.revocation_ttl_seconds
    if not isinstance(taken_at, int):
        raise InvalidSnapshot(ANOTHER_FORMAT)
    if now - taken_at > max_age:
        # Past it, the store may have forgotten the tokens revoked since: they would work again.
        raise InvalidSnapshot(
            refusal(
                "was taken on {taken_at}, and this server restores a snapshot for "
                "{days:# day|# days} at most (MAX_SNAPSHOT_AGE_DAYS)",
                taken_at=_moment(taken_at),
                days=max_age // 86400,
            )
        )
    return snapshot


def _import(combats: SnapshotStore, exported: Mapping[str, Any], now: int) -> dict[str, Any]:
    """Store the snapshot's combat with its ``restored`` entry: at the next version, drawing new dice."""
    state, entry = restored(
        exported["state"],
        secrets.token_bytes(KEY_BYTES),
        taken_at=_moment(exported["taken_at"]),
        restored_at=_moment(now),
    )
    stamp_expiry(state, combats.ttl_seconds)
    try:
        combats.import_combat({**exported, "state": state, "entries": [*exported["entries"], entry]})
    except VersionConflict:
        raise CombatLive(state["id"]) from None
    return dict(state)


def _moment(timestamp: int) -> str:
    """A Unix time as ISO 8601 in UTC, to the second."""
    return datetime.fromtimestamp(timestamp, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _in_words(timestamp: int) -> str:
    """A Unix time as a reader writes it: "November 1, 2026, 10:00 UTC"."""
    moment = datetime.fromtimestamp(timestamp, UTC)
    return f"{moment:%B} {moment.day}, {moment.year}, {moment:%H:%M} UTC"


def _grant(combats: SnapshotStore, combat_id: str, token: str | None) -> Grant | None:
    """The grant of ``token`` in the combat as restored (None: no token, or not one of its own)."""
    return _loaded(combats, combat_id, token)[1] if token is not None else None


def _loaded(combats: SnapshotStore, combat_id: str, token: str | None) -> tuple[dict[str, Any], Grant | None]:
    state, record = combats.load_with_grant(combat_id, digest(token) if token else None)
    return state, Grant(record["role"], record.get("combatant")) if record is not None else None


def _replayed(combats: SnapshotStore, record: CombatRestored, token: str | None) -> Restored:
    """The first answer again: the combat at the version it was restored at."""
    current, grant = _loaded(combats, record.combat_id, token)
    if current["version"] == record.version:
        return Restored(current, grant, replayed=True)
    then = {**replay(*combats.snapshot_before(record.combat_id, record.version)), "expires_at": current["expires_at"]}
    return Restored(then, grant, replayed=True)
