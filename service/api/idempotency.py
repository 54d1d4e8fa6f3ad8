"""Exactly-once POSTs with the ``Idempotency-Key`` header (IETF httpapi draft).

A retry with the same key and body gets the first answer again: no new
dice, no change. The same key with another body is a 422; a retry while the
first request is still in flight is a 409.

Records are small strings (the key's digest -> one line), never answers:

- ``F <fingerprint> <time> <nonce>``: in flight. The nonce makes it this
  request's own: the commit applies only while it is still there (a write
  that reaches a stalled Redis late, after the reservation was released or
  taken over, is refused), and the clean-up after a failure deletes only it.
- ``A <fingerprint> <seq>``: the action was applied as log entry ``seq``; a
  replay rebuilds the answer from that entry and the state at that seq.
- ``C <fingerprint> <combat id> <sealed tokens>``: a creation; its record
  lasts CREATION_REPLAY_SECONDS, and the tokens are sealed (sealing.py).

An action's record is written by the script that commits the action, so an
applied action and its record never exist one without the other. A refused
request keeps no record: it changed nothing, and its retry runs again. When
Redis does not confirm a write (OutcomeUnknown), the reservation is deleted
only if still this request's: the retry then finds the answer, or nothing.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time

from flask import Response, current_app, request

from ..store import CombatStore, StoreUnavailable
from ..store.idempotency import KeyedWrite
from ..store.keys import creation_key, idempotency_key
from .problems import problem

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
MIN_LENGTH, MAX_LENGTH = 16, 255
# An in-flight record older than this belonged to a worker that died or
# stalled: another request with the key may take over. Short is safe: the
# fenced commit refuses the first worker's write if it comes after that.
STALE_AFTER_SECONDS = 15
IN_FLIGHT, ACTION, CREATION = "F", "A", "C"


def key_digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]  # 128 bits


def in_flight() -> Response:
    return problem(
        409,
        "request-in-flight",
        "Request in flight",
        f"a request with this {HEADER} is still being processed; retry in a moment",
        headers={"Retry-After": "1"},
    )


def replay_unavailable(why: str) -> Response:
    return problem(
        409,
        "replay-unavailable",
        "Answer no longer available",
        f"the first request with this {HEADER} {why}: its answer cannot be shown again; "
        "read the combat to see where it stands, and use a new key for a new request",
    )


class Idempotency:
    """One request made under an Idempotency-Key, recorded in field
    ``digest`` of the hash ``records`` for ``ttl`` seconds."""

    def __init__(self, store: CombatStore, records: str, ttl: int, key: str, body: dict):
        self.store = store
        self.records = records
        self.ttl = ttl
        self.key = key
        self.digest = key_digest(key)
        # The caller's credentials are part of the request: another token or
        # API key reusing the key is another request, not a retry.
        caller = key_digest(f"{request.headers.get('Authorization', '')}\0{request.headers.get('X-API-Key', '')}")
        canonical = json.dumps({"path": request.path, "body": body, "caller": caller}, sort_keys=True, separators=(",", ":"))
        self.fingerprint = key_digest(canonical)
        self.reservation = f"{IN_FLIGHT} {self.fingerprint} {int(time.time())} {secrets.token_hex(8)}"

    @classmethod
    def for_action(cls, store: CombatStore, combat_id: str, key: str, body: dict) -> Idempotency:
        ttl = current_app.extensions["melee.settings"].idempotency_ttl_seconds
        return cls(store, idempotency_key(combat_id), ttl, key, body)

    @classmethod
    def for_creation(cls, store: CombatStore, key: str, body: dict) -> Idempotency:
        ttl = current_app.extensions["melee.settings"].creation_replay_seconds
        return cls(store, creation_key(key_digest(key)), ttl, key, body)

    @staticmethod
    def header() -> str | None:
        return request.headers.get(HEADER)

    @staticmethod
    def invalid_key(key: str) -> Response | None:
        if not (MIN_LENGTH <= len(key) <= MAX_LENGTH and key.isprintable()):
            return problem(
                400,
                "invalid-request",
                "Invalid Idempotency-Key",
                f"{HEADER} must be {MIN_LENGTH} to {MAX_LENGTH} printable characters; a UUID is a good choice",
            )
        return None

    def begin(self, replay) -> Response | None:
        """None to go on; else the response to send instead (replay, 409, 422).

        ``replay(fields)`` rebuilds the first answer, ``(body, status,
        headers)``, from the stored record's fields after the fingerprint."""
        found = self.store.reserve(self.records, self.digest, self.reservation, int(time.time()), STALE_AFTER_SECONDS, self.ttl)
        if found is None:
            return None
        kind, fingerprint, *fields = found.split(" ")
        if kind not in (IN_FLIGHT, ACTION, CREATION):
            return replay_unavailable("was answered before this version of the service")
        if fingerprint != self.fingerprint:
            return problem(
                422,
                "idempotency-key-reused",
                "Idempotency-Key reused",
                f"this {HEADER} was already used for a different request; use a new key for a new request",
            )
        if kind == IN_FLIGHT:
            return in_flight()
        replayed = replay(fields)
        if isinstance(replayed, Response):
            return replayed
        body, status, headers = replayed
        response = Response(json.dumps(body, ensure_ascii=False), status=status, mimetype="application/json")
        for name, value in headers.items():
            response.headers[name] = value
        response.headers[REPLAYED] = "true"
        return response

    def action_applied(self, seq: int) -> KeyedWrite:
        """What the commit script checks (the reservation) and writes instead."""
        return KeyedWrite(self.digest, self.reservation, f"{ACTION} {self.fingerprint} {seq}", self.ttl)

    def creation_done(self, combat_id: str, sealed_tokens: str) -> bool:
        """Record the creation; False if the reservation was taken over meanwhile."""
        record = f"{CREATION} {self.fingerprint} {combat_id} {sealed_tokens}"
        return self.store.swap(self.records, self.digest, self.reservation, record, self.ttl)

    def abandon(self) -> None:
        """Delete this request's reservation, and only it, so that a retry runs again."""
        try:
            self.store.swap(self.records, self.digest, self.reservation, "")
        except StoreUnavailable:
            pass  # the reservation goes stale by itself and is then taken over
