"""What the sync and the async clients share: requests, the retry rules, the SSE parser."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any
from urllib.parse import quote

import httpx

from ._version import __version__
from .errors import MeleeProblem

USER_AGENT = f"melee-client-python/{__version__}"
#: The server sends a comment line at least every 15 s on an idle stream.
STREAM_READ_TIMEOUT = 45.0
#: How long one long poll of the fallback waits for a new entry (the server's bound is 30 s).
LONG_POLL_SECONDS = 20
#: Consecutive failed stream connections before falling back to the long poll.
STREAM_ATTEMPTS = 3


class Kind(Enum):
    """How safe a request is to send again after a failure."""

    #: A read, or a computation that changes nothing (odds): retried on any network error, 503 and 429.
    SAFE = "safe"
    #: A change sent with an Idempotency-Key: a retry returns the first answer, never acts twice, so it is
    #: retried on network errors, 503 (outcome-unknown too), 429 and 409 request-in-flight / version-conflict.
    KEYED = "keyed"
    #: A change without a key (undo, redo): retried only when it cannot have been applied
    #: (no connection made, 503 store-unavailable, 429, 409 request-in-flight / version-conflict).
    UNKEYED = "unkeyed"


#: Both SDKs' default: RetryPolicy() (4 retries from 0.25 s).
DEFAULT_RETRIES = 4
RETRIED_CONFLICTS = frozenset({"/problems/request-in-flight", "/problems/version-conflict"})


@dataclass(frozen=True)
class RetryPolicy:
    """Up to ``retries`` more attempts, after jittered exponential waits: the TypeScript SDK's rule too.

    Retry ``n`` (from 0) waits half of ``min(max_delay, backoff * 2**n)`` plus a random part of
    the other half ("equal jitter": clients who collided do not collide again), and never less
    than the answer's ``Retry-After``. 4 retries from 0.25 s, at most 8 s (docs/vtt.md).
    """

    retries: int = 4
    backoff: float = 0.25
    max_delay: float = 8.0

    def delay(self, attempt: int, retry_after: float | None) -> float:
        ceiling = min(self.max_delay, self.backoff * 2.0**attempt)
        return max(retry_after or 0.0, ceiling / 2) + random.uniform(0.0, ceiling / 2)


def retryable(kind: Kind, failure: BaseException) -> bool:
    """Whether ``failure`` (a MeleeProblem or an httpx transport error) is worth another attempt."""
    if isinstance(failure, httpx.TransportError):
        if kind is Kind.UNKEYED:
            return isinstance(failure, httpx.ConnectError | httpx.ConnectTimeout)  # never reached the server
        return True
    if not isinstance(failure, MeleeProblem):
        return False
    if failure.status == 503:
        return kind is not Kind.UNKEYED or failure.type != "/problems/outcome-unknown"
    if failure.status == 429:
        return True  # too many requests: refused before anything was done
    return failure.status == 409 and failure.type in RETRIED_CONFLICTS and kind is not Kind.SAFE


def new_idempotency_key() -> str:
    return str(uuid.uuid4())


@dataclass
class Request:
    method: str
    path: str
    kind: Kind
    params: dict[str, Any] = field(default_factory=dict)
    json: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float | None = None


def segment(value: str) -> str:
    return quote(value, safe="")


def base_headers(token: str | None, api_key: str | None, lang: str | None) -> dict[str, str]:
    headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if api_key:
        headers["X-API-Key"] = api_key
    if lang:
        headers["Accept-Language"] = lang
    return headers


def action_request(
    combat_id: str, action: Mapping[str, Any], idempotency_key: str | None, if_match: str | int | None
) -> Request:
    headers = {"Idempotency-Key": idempotency_key or new_idempotency_key()}
    if if_match is not None:
        headers["If-Match"] = if_match if isinstance(if_match, str) else f'"{if_match}"'
    return Request("POST", f"/combats/{segment(combat_id)}/actions", Kind.KEYED, json=dict(action), headers=headers)


def restore_request(snapshot: str, token: str | None, idempotency_key: str | None) -> Request:
    """``POST /combats {"snapshot"}`` with its Idempotency-Key; ``token`` (a token of that combat), when given,
    is the bearer: a server that shows the restored combat only to its own tokens answers it."""
    headers = {"Idempotency-Key": idempotency_key or new_idempotency_key()}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return Request("POST", "/combats", Kind.KEYED, json={"snapshot": snapshot}, headers=headers)


def combat_request(method: str, combat_id: str, tail: str = "", kind: Kind = Kind.SAFE, body: Any = None) -> Request:
    """A request on ``/combats/{id}{tail}`` (the id escaped)."""
    return Request(method, f"/combats/{segment(combat_id)}{tail}", kind, json=body)


def history_request(combat_id: str, which: str, if_match: str | int | None) -> Request:
    headers = {} if if_match is None else {"If-Match": if_match if isinstance(if_match, str) else f'"{if_match}"'}
    return Request("POST", f"/combats/{segment(combat_id)}/{which}", Kind.UNKEYED, headers=headers)


def events_request(combat_id: str, after: int | None, limit: int | None, wait: int | None) -> Request:
    params = {name: value for name, value in (("after", after), ("limit", limit), ("wait", wait)) if value is not None}
    # A long poll holds the request up to `wait` seconds: read for longer than that.
    timeout = None if wait is None else wait + 30.0
    return Request("GET", f"/combats/{segment(combat_id)}/events", Kind.SAFE, params=params, timeout=timeout)


def odds_body(action: Mapping[str, Any], answers: list[Mapping[str, Any]] | None, extra: dict[str, Any]) -> Any:
    body: dict[str, Any] = {"action": dict(action), **extra}
    if answers is not None:
        body["answers"] = [dict(answer) for answer in answers]
    return body


def decode(response: httpx.Response) -> Any:
    """The JSON of a success; a MeleeProblem otherwise."""
    if response.is_success:
        return None if response.status_code == 204 or not response.content else response.json()
    raise MeleeProblem.from_response(response)


def stream_headers(last_seq: int | None) -> dict[str, str]:
    headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
    if last_seq is not None:
        headers["Last-Event-ID"] = str(last_seq)
    return headers


@dataclass
class SseEvent:
    event: str
    data: str
    id: str | None


class SseParser:
    """Server-Sent Events, one line at a time (the WHATWG rules Melee's stream needs)."""

    def __init__(self) -> None:
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None

    def feed(self, line: str) -> SseEvent | None:
        """The event a blank line completes; None otherwise."""
        line = line.rstrip("\r")
        if line == "":
            if not self._data and not self._event:
                return None
            done = SseEvent(self._event or "message", "\n".join(self._data), self._id)
            self._event, self._data, self._id = "", [], None
            return done
        if line.startswith(":"):
            return None  # a comment: the keep-alive
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "id":
            self._id = value
        return None


def is_event_stream(response: httpx.Response) -> bool:
    return response.status_code == 200 and response.headers.get("Content-Type", "").startswith("text/event-stream")


def stream_reason(data: str) -> str:
    try:
        parsed = json.loads(data)
    except ValueError:
        return data
    return str(parsed.get("reason", data)) if isinstance(parsed, dict) else data
