"""Exactly-once writes under an ``Idempotency-Key`` (IETF httpapi draft): the
records, typed, and the fence that reserves a key before a write.

A record is a small string in the store (the key's digest -> one line),
never an answer:

- ``F <fingerprint> <time> <nonce>``: in flight. The nonce makes it this
  request's own: the commit applies only while it is still there (a write
  that reaches a stalled Redis late, after the reservation was released or
  taken over, is refused), and the clean-up after a failure deletes only it.
- ``A <fingerprint> <seq> <expires_at>``: the action was applied as log
  entry ``seq``, and its answer said the combat expired at ``expires_at``;
  a replay rebuilds the answer from that entry, the state at that seq and
  that expiry, so that it is the first answer byte for byte. (A record
  without ``expires_at``, of an earlier version, is replayed with the
  expiry of the state read.)
- ``C <fingerprint> <combat id> <sealed tokens>``: a creation; its record
  lasts as long as creations may be replayed, and the tokens are sealed
  (service/adapters/sealing.py).
- ``R <fingerprint> <combat id> <version>``: a snapshot restored at that
  version (usecases/snapshots.py); a replay shows the combat as it was then.

``KeyFence.reserve`` parses what it finds into one of the record types
below, so that no caller splits strings or tells results apart by type
checks on raw values. The fingerprint is the request as the HTTP layer
sees it (path, body, credentials): another body or another caller under
the same key is another request (``KeyReused``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass

from ..rules.errors import refusal
from .port_errors import StoreUnavailable
from .ports import IdempotencyRecords, KeyedWrite

IN_FLIGHT, ACTION, CREATION, RESTORE = "F", "A", "C", "R"
# An in-flight record older than this belonged to a worker that died or
# stalled: another request with the key may take over. Short is safe: the
# fenced commit refuses the first worker's write if it comes after that.
STALE_AFTER_SECONDS = 15


def key_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]  # 128 bits


def fingerprint(path: str, body: object, credentials: str) -> str:
    """What makes two requests the same one: the path, the body and the caller's credentials."""
    canonical = json.dumps(
        {"path": path, "body": body, "caller": key_digest(credentials)}, sort_keys=True, separators=(",", ":")
    )
    return key_digest(canonical)


@dataclass(frozen=True, slots=True)
class InFlight:
    """Another request with the key is being processed."""


@dataclass(frozen=True, slots=True)
class ActionApplied:
    seq: int
    expires_at: str | None = None  # as the first answer said it; None in an earlier version's record


@dataclass(frozen=True, slots=True)
class CombatCreated:
    combat_id: str
    sealed_tokens: str


@dataclass(frozen=True, slots=True)
class CombatRestored:
    combat_id: str
    version: int


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A record this version of the service does not read (an older format)."""


Record = InFlight | ActionApplied | CombatCreated | CombatRestored | Unreadable


@dataclass(frozen=True, slots=True)
class Found:
    """The record already under the key: whose request (fingerprint) and what it says."""

    fingerprint: str
    record: Record


def parse(text: str) -> Found:
    kind, _, rest = text.partition(" ")
    fingerprint, _, tail = rest.partition(" ")
    fields = tail.split(" ") if tail else []
    if kind == IN_FLIGHT:
        return Found(fingerprint, InFlight())
    if kind == ACTION and len(fields) in (1, 2) and fields[0].isdigit():
        return Found(fingerprint, ActionApplied(int(fields[0]), fields[1] if len(fields) == 2 else None))
    if kind == CREATION and len(fields) == 2:
        return Found(fingerprint, CombatCreated(fields[0], fields[1]))
    if kind == RESTORE and len(fields) == 2 and fields[1].isdigit():
        return Found(fingerprint, CombatRestored(fields[0], int(fields[1])))
    return Found(fingerprint, Unreadable())


class RequestInFlight(Exception):
    """A request with this key is still being processed (409, Retry-After)."""


class KeyReused(Exception):
    """The key was already used for a different request (422)."""


class ReplayUnavailable(Exception):
    """The first request's answer cannot be shown again (409); ``why`` completes
    "the first request with this Idempotency-Key ..."."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


OLDER_FORMAT = refusal("was answered before this version of the service")


@dataclass(frozen=True)
class KeyFence:
    """One request made under an Idempotency-Key: its record is field
    ``digest`` of the store's hash ``records``, kept ``ttl`` seconds."""

    records: str
    key: str
    digest: str
    fingerprint: str
    reservation: str
    ttl: int

    @classmethod
    def new(cls, records: str, key: str, fingerprint: str, ttl: int, now: int) -> KeyFence:
        reservation = f"{IN_FLIGHT} {fingerprint} {now} {secrets.token_hex(8)}"
        return cls(records, key, key_digest(key), fingerprint, reservation, ttl)

    def reserve(self, store: IdempotencyRecords, now: int) -> Record | None:
        """None when the key is now this request's; else what the first request
        with the key left (its answer to replay). ``ReplayUnavailable`` for a
        record of a format this version does not read, ``KeyReused`` when it
        was another request, ``RequestInFlight`` while it is still running."""
        text = store.reserve(self.records, self.digest, self.reservation, now, STALE_AFTER_SECONDS, self.ttl)
        if text is None:
            return None
        found = parse(text)
        if isinstance(found.record, Unreadable):
            raise ReplayUnavailable(OLDER_FORMAT)
        if found.fingerprint != self.fingerprint:
            raise KeyReused()
        if isinstance(found.record, InFlight):
            raise RequestInFlight()
        return found.record

    def action_applied(self, seq: int, expires_at: str) -> KeyedWrite:
        """What the commit script checks (the reservation) and writes instead:
        the log entry and the expiry the answer shows."""
        return KeyedWrite(self.digest, self.reservation, f"{ACTION} {self.fingerprint} {seq} {expires_at}", self.ttl)

    def creation_done(self, store: IdempotencyRecords, combat_id: str, sealed_tokens: str) -> bool:
        """Record the creation; False if the reservation was taken over meanwhile."""
        record = f"{CREATION} {self.fingerprint} {combat_id} {sealed_tokens}"
        return store.swap(self.records, self.digest, self.reservation, record, self.ttl)

    def restore_done(self, store: IdempotencyRecords, combat_id: str, version: int) -> bool:
        """Record the restore of a snapshot; False if the reservation was taken over meanwhile."""
        return store.swap(
            self.records, self.digest, self.reservation, f"{RESTORE} {self.fingerprint} {combat_id} {version}", self.ttl
        )

    def abandon(self, store: IdempotencyRecords) -> None:
        """Delete this request's reservation, and only it, so that a retry runs again."""
        try:
            store.swap(self.records, self.digest, self.reservation, "")
        except StoreUnavailable:
            pass  # the reservation goes stale by itself and is then taken over
