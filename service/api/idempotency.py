"""Exactly-once POSTs with the ``Idempotency-Key`` header (IETF httpapi draft):
what HTTP adds to service/usecases/idempotency.py (the records and the fence).

A retry with the same key and body gets the first answer again: no new
dice, no change, and ``Idempotent-Replayed: true``. The same key with another
body is a 422; a retry while the first request is still in flight is a 409.

An action's record is written by the script that commits the action, so an
applied action and its record never exist one without the other. A refused
request keeps no record: it changed nothing, and its retry runs again. When
Redis does not confirm a write (OutcomeUnknown), the reservation is deleted
only if still this request's: the retry then finds the answer, or nothing.
"""

from __future__ import annotations

import time

from flask import Response, current_app, request

from ..proxied import current_request
from ..rules.errors import refusal
from ..store.keys import creation_key, idempotency_key
from ..usecases.idempotency import (  # noqa: F401  (key_digest, STALE_AFTER_SECONDS: re-exported)
    STALE_AFTER_SECONDS,
    KeyFence,
    KeyReused,
    ReplayUnavailable,
    RequestInFlight,
    fingerprint,
    key_digest,
)
from .problems import problem

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
MIN_LENGTH, MAX_LENGTH = 16, 255


def in_flight() -> Response:
    return problem(
        409,
        "request-in-flight",
        refusal("Request in flight"),
        refusal("a request with this {header} is still being processed; retry in a moment", header=HEADER),
        headers={"Retry-After": "1"},
    )


def replay_unavailable(why: str) -> Response:
    return problem(
        409,
        "replay-unavailable",
        refusal("Answer no longer available"),
        refusal(
            "the first request with this {header} {why}: its answer cannot be shown again; "
            "read the combat to see where it stands, and use a new key for a new request",
            header=HEADER,
            why=why,
        ),
    )


def refused(error: RequestInFlight | KeyReused | ReplayUnavailable) -> Response:
    """The problem a refused keyed request answers."""
    if isinstance(error, RequestInFlight):
        return in_flight()
    if isinstance(error, ReplayUnavailable):
        return replay_unavailable(error.why)
    return problem(
        422,
        "idempotency-key-reused",
        refusal("Idempotency-Key reused"),
        refusal(
            "this {header} was already used for a different request; use a new key for a new request", header=HEADER
        ),
    )


def replayed_response(body: dict, status: int, headers: dict) -> tuple[dict, int, dict]:
    """A first answer shown again: the same body, status and headers, with
    ``Idempotent-Replayed: true``, serialized as the first answer was (the
    view's response schema and the app's JSON), so that an action's replay
    is the first answer byte for byte."""
    return body, status, {**headers, REPLAYED: "true"}


def request_fence(records: str, ttl: int, key: str, body: dict) -> KeyFence:
    """The fence of this request: the caller's credentials are part of it,
    so another token or API key reusing the key is another request, not a retry."""
    credentials = f"{request.headers.get('Authorization', '')}\0{request.headers.get('X-API-Key', '')}"
    return KeyFence.new(records, key, fingerprint(request.path, body, credentials), ttl, int(time.time()))


def creation_fence(key: str, body: dict) -> KeyFence:
    ttl = current_app.extensions["melee.settings"].creation_replay_seconds
    return request_fence(creation_key(key_digest(key)), ttl, key, body)


def action_fence(combat_id: str, key: str, body: dict) -> KeyFence:
    """The fence of an action under ``key`` (usecases.actions.act_once)."""
    ttl = current_app.extensions["melee.settings"].idempotency_ttl_seconds
    return request_fence(idempotency_key(combat_id), ttl, key, body)


class Idempotency:
    """The ``Idempotency-Key`` header of the request."""

    @staticmethod
    def header() -> str | None:
        return current_request().headers.get(HEADER)

    @staticmethod
    def invalid_key(key: str) -> Response | None:
        if not (MIN_LENGTH <= len(key) <= MAX_LENGTH and key.isprintable()):
            return problem(
                400,
                "invalid-request",
                refusal("Invalid Idempotency-Key"),
                refusal(
                    "{header} must be {least} to {most} printable characters; a UUID is a good choice",
                    header=HEADER,
                    least=MIN_LENGTH,
                    most=MAX_LENGTH,
                ),
            )
        return None
