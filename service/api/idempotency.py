"""Exactly-once POSTs with the ``Idempotency-Key`` header (IETF httpapi draft).

A retry with the same key and body gets the stored answer: no new dice, no
change. The same key with another body is a 422; a retry while the first
request is still in flight is a 409. The answer is stored by the same Lua
script that commits the action, so a stored answer and an applied action
never exist one without the other. A refused request stores nothing: it
changed nothing, and its retry is simply processed again.
"""

from __future__ import annotations

import hashlib
import json
import time

from flask import Response, request

from ..store import CombatStore, StoreUnavailable
from .problems import problem

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
MIN_LENGTH, MAX_LENGTH = 16, 255


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


class Idempotency:
    def __init__(self, store: CombatStore, combat_id: str, key: str, body: dict):
        self.store = store
        self.combat_id = combat_id
        self.digest = _digest(key)
        self._key = key
        # The caller's credential is part of the request: another token reusing
        # the key is another request, not a retry.
        caller = _digest(request.headers.get("Authorization", ""))
        canonical = json.dumps({"path": request.path, "body": body, "caller": caller}, sort_keys=True, separators=(",", ":"))
        self.fingerprint = _digest(canonical)

    @property
    def token_seed(self) -> str:
        """What a retried creation's tokens derive from: the client's key (Redis
        keeps only its digest) and the request; the same in every process."""
        return f"{self._key}\0{self.fingerprint}"

    @staticmethod
    def key() -> str | None:
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

    @staticmethod
    def combat_id_for(key: str) -> str:
        """A combat created with a key gets an id derived from it: a retry finds it."""
        return _digest("combat:" + key)[:32]

    def begin(self, on_replay=None) -> Response | None:
        """None to go on; else the response to send instead (replay, 409, 422).

        ``on_replay`` may add to a replayed body what was not stored (tokens)."""
        found = self.store.reserve(self.combat_id, self.digest, self.fingerprint, int(time.time()))
        if found is None:
            return None
        stored_fingerprint = found["fingerprint"] if isinstance(found, dict) else found
        if stored_fingerprint != self.fingerprint:
            return problem(
                422,
                "idempotency-key-reused",
                "Idempotency-Key reused",
                f"this {HEADER} was already used for a different request; use a new key for a new request",
            )
        if not isinstance(found, dict):
            return problem(
                409,
                "request-in-flight",
                "Request in flight",
                f"a request with this {HEADER} is still being processed; retry in a moment",
                headers={"Retry-After": "1"},
            )
        body = on_replay(found["body"]) if on_replay else found["body"]
        response = Response(json.dumps(body, ensure_ascii=False), status=found["status"], mimetype="application/json")
        for name, value in found["headers"].items():
            response.headers[name] = value
        response.headers[REPLAYED] = "true"
        return response

    def answer(self, status: int, headers: dict, body: dict) -> tuple[str, dict]:
        """What the store keeps, atomically with the change, for replays."""
        return self.digest, {"fingerprint": self.fingerprint, "status": status, "headers": headers, "body": body}

    def abandon(self) -> None:
        try:
            self.store.forget(self.combat_id, self.digest)
        except StoreUnavailable:
            pass  # the reservation goes stale by itself and is then taken over
