"""Live updates: ``GET /combats/<id>/stream`` (Server-Sent Events) and the
long-poll wait of ``GET /combats/<id>/events``.

Every committed log entry is also in the combat's Redis Stream (the commit
script adds it, see service/store/scripts.py), with its seq as the stream
id; a listener blocks on XREAD for at most ``block`` seconds at a time, so
it notices within a second both new entries and a worker shutting down.
Each entry is sent as one SSE event (``id`` = its seq), filtered for the
caller like every read. A client that reconnects with ``Last-Event-ID``
(browsers do it by themselves) or ``?after=<seq>`` gets every entry it
missed, from the stream or, further back, from the log.

Each open stream (and each waiting long poll) holds one gunicorn thread:
at most ``MAX_STREAMS_PER_WORKER`` do at once, the other threads stay free
for ordinary requests, and one more listener gets a 503 with Retry-After.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from ..observability import shutdown
from ..observability.metrics import ACTIVE_STREAMS
from ..store import CombatNotFound, CombatStore, StoreUnavailable
from .access import bearer_token, digest, load_authorized
from .problems import problem
from .requests import store
from .views import entry_view

blp = Blueprint("stream", __name__, url_prefix="/combats", description="Live updates of a combat.")

KEEPALIVE_SECONDS = 15.0
RETRY_MILLISECONDS = 2000


class Slots:
    """How many long-lived requests this worker holds at once."""

    def __init__(self, limit: int):
        self.limit = limit
        self.used = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self.used >= self.limit:
                return False
            self.used += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.used -= 1


def slots() -> Slots:
    return current_app.extensions["melee.stream_slots"]


def block_seconds() -> float:
    """One XREAD wait: under the Redis read timeout, and short enough to notice a shutdown."""
    return min(1.0, current_app.extensions["melee.settings"].redis_timeout_seconds / 2)


def sse(event: str, data: dict, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n"


def wait_for_entries(combat_store: CombatStore, combat_id: str, after: int, seconds: float, block: float) -> None:
    """Return once an entry with seq > ``after`` exists, ``seconds`` pass, or the worker stops."""
    deadline = time.monotonic() + seconds
    while not shutdown.STOPPING.is_set():
        left = deadline - time.monotonic()
        if left <= 0:
            return
        if combat_store.entries_after(combat_id, after, max(1, int(min(left, block) * 1000))):
            return


def long_poll(combat_id: str, after: int, seconds: float) -> bool:
    """GET /events?wait=: hold the request until an entry after ``after`` exists; False when no slot is free."""
    if not slots().take():
        return False
    try:
        wait_for_entries(store(), combat_id, after, seconds, block_seconds())
    finally:
        slots().give_back()
    return True


class StreamQuery(Schema):
    after = fields.Integer(
        validate=validate.Range(min=0), load_default=None,
        metadata={"description": "Send the entries after this seq first (0: the whole log). Default: only new ones. "
                  "Last-Event-ID, when sent, wins."},
    )
    access_token = fields.String(
        load_default=None,
        metadata={"description": "The bearer token, for clients that cannot send headers (browsers' EventSource). "
                  "Accepted on this endpoint only; never logged."},
    )


@blp.route("/<combat_id>/stream")
class Stream(MethodView):
    @blp.doc(
        operationId="streamCombat",
        summary="Live updates (Server-Sent Events)",
        description=(
            "One `entry` event per log entry (`id` = its seq, `data` = the entry as GET /events shows it to the "
            "caller), in order, within a second of the commit; `: keep-alive` comments every 15 s. Reconnecting "
            "with Last-Event-ID (or ?after=) misses nothing. Events `gone` (the combat was deleted or expired), "
            "`revoked` (the token was) and `reconnect` (this server is stopping: reconnect at once) end the stream. "
            "503 when this server holds as many streams as it may: retry later or long-poll GET /events?wait=. "
            "See docs/vtt.md."
        ),
        security=[{"bearer": []}],
        parameters=[{"in": "header", "name": "Last-Event-ID", "required": False, "schema": {"type": "string"}}],
        responses={"200": {"description": "An event stream.", "content": {"text/event-stream": {"schema": {"type": "string"}}}}},
    )
    @blp.arguments(StreamQuery, location="query")
    def get(self, query, combat_id):
        token = query["access_token"] or bearer_token()
        state, grant = load_authorized(store(), combat_id, token=token)
        after = _resume_point(query["after"], state["version"])
        if after is None:
            return problem(422, "invalid-request", "Invalid request", "Last-Event-ID must be a seq (a whole number)",
                           errors=[{"pointer": "/Last-Event-ID", "detail": "must be a whole number"}])
        if not slots().take():
            return problem(503, "too-many-streams", "Too many streams",
                           "this server holds as many event streams as it may; retry later or long-poll GET /events?wait=",
                           headers={"Retry-After": str(current_app.extensions["melee.settings"].retry_after_seconds)})
        listener = Listener(store(), combat_id, digest(token), grant.viewer, after, block_seconds())
        response = Response(listener.events(), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        response.call_on_close(slots().give_back)
        return response


def _resume_point(after: int | None, version: int) -> int | None:
    last_event_id = request.headers.get("Last-Event-ID")
    if last_event_id is not None:
        return int(last_event_id) if last_event_id.strip().isdigit() else None
    return version if after is None else after


class Listener:
    """One open stream: waits for entries and sends them, until told to stop."""

    def __init__(self, combat_store: CombatStore, combat_id: str, token_digest: str, viewer, after: int, block: float):
        self.store, self.combat_id, self.token_digest = combat_store, combat_id, token_digest
        self.viewer, self.after, self.block = viewer, after, block
        self.stop = threading.Event()

    def events(self) -> Iterator[str]:
        ACTIVE_STREAMS.inc()
        unregister = shutdown.on_shutdown(self.stop.set)
        try:
            yield f"retry: {RETRY_MILLISECONDS}\n: connected\n\n"
            yield from self._follow()
        finally:
            unregister()
            ACTIVE_STREAMS.dec()

    def _follow(self) -> Iterator[str]:
        quiet_since = time.monotonic()
        while True:
            if self.stop.is_set() or shutdown.STOPPING.is_set():
                yield sse("reconnect", {"reason": "this server is stopping; reconnect with Last-Event-ID"})
                return
            try:
                entries = self.store.entries_after(self.combat_id, self.after, int(self.block * 1000))
                keepalive_due = time.monotonic() - quiet_since >= KEEPALIVE_SECONDS
                if not entries and not keepalive_due:
                    continue
                # The current state, to show the entries as this viewer may see them; and
                # the token, checked again so that a revoked one stops listening.
                state, grant = self.store.load_with_grant(self.combat_id, self.token_digest)
            except CombatNotFound:
                yield sse("gone", {"reason": "the combat was deleted or has expired"})
                return
            except StoreUnavailable:
                yield sse("reconnect", {"reason": "the store is unavailable; reconnect with Last-Event-ID"})
                return
            if grant is None:
                yield sse("revoked", {"reason": "this token no longer opens this combat"})
                return
            for entry in entries:
                yield sse("entry", entry_view(state, entry, self.viewer), entry["seq"])
                self.after = entry["seq"]
            if not entries:
                yield ": keep-alive\n\n"
            quiet_since = time.monotonic()
