"""Live updates: ``GET /combats/<id>/stream`` (Server-Sent Events) and the
long-poll wait of ``GET /combats/<id>/events``.

Every committed log entry is also in the combat's Redis Stream (the commit
script adds it, see service/store/scripts.py), with its seq as the stream
id. The process's one reader (fanout.Hub) reads the streams of every
followed combat and hands each listener the new entries; each is sent as
one SSE event (``id`` = its seq), filtered for the caller like every read.
A client that reconnects with ``Last-Event-ID`` (browsers do it by
themselves) or ``?after=<seq>`` gets every entry it missed, from the stream
or, further back, from the log.

A client that leaves frees its slot at once under gunicorn's gevent
workers, which let disconnect.py watch its socket; elsewhere an idle stream
sends a one-line comment every ``HEARTBEAT_SECONDS``, the next write or the
one after fails once the client has gone, and the slot is free within about
two seconds. Listeners cost no thread of their own under gevent
(deploy/gunicorn.conf.py); stream_slots bounds how many a worker, a token
and an address hold.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from flask import Flask, Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from ..observability import shutdown
from ..observability.metrics import ACTIVE_STREAMS
from ..store import CombatNotFound, CombatStore, StoreUnavailable
from ..store.stream import MAX_ENTRIES_PER_READ
from . import schemas
from .access import bearer_token, digest, load_authorized
from .disconnect import watch
from .fanout import GONE, LEFT, STOP, UNAVAILABLE, Batch, Hub, Subscription
from .problems import problem
from .requests import store
from .stream_slots import WORKER, Slots
from .views import entry_view, narration_language

blp = Blueprint("stream", __name__, url_prefix="/combats", description="Live updates of a combat.")

# A comment line on an idle stream: every second when only a failed write
# can tell that the client has left, else every 15 s (proxies close
# connections that stay silent too long).
HEARTBEAT_SECONDS = 1.0
KEEPALIVE_SECONDS = 15.0
# How often an idle stream checks that its token still opens the combat
# (a busy one checks with every batch of entries).
GRANT_CHECK_SECONDS = 15.0
RETRY_MILLISECONDS = 2000
# Redis stream ids are 64-bit; a seq never comes near this.
MAX_SEQ = schemas.MAX_SEQ  # the bound every seq parameter shares


def init_app(app: Flask) -> None:
    settings = app.extensions["melee.settings"]
    app.extensions["melee.stream_slots"] = Slots(
        settings.max_streams_per_worker, settings.max_streams_per_token, settings.max_streams_per_address
    )
    # One XREAD wait: under the Redis read timeout, and short enough to notice new followers and a shutdown.
    app.extensions["melee.stream_hub"] = Hub(
        app.extensions["melee.store"], min(1.0, settings.redis_timeout_seconds / 2)
    )


def slots() -> Slots:
    return current_app.extensions["melee.stream_slots"]


def hub() -> Hub:
    return current_app.extensions["melee.stream_hub"]


def sse(event: str, data: dict, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'), ensure_ascii=False)}\n\n"


def long_poll(combat_id: str, after: int, seconds: float) -> bool:
    """GET /events?wait=: hold the request until an entry after ``after`` exists; False when no slot is free."""
    holder = (digest(bearer_token() or ""), request.remote_addr or "unknown")
    if slots().take(*holder) is not None:
        return False
    # Past the largest stream id Redis takes: no such entry will ever come, and the id
    # must not reach the process's one XREAD, which every listener shares.
    after = min(after, MAX_SEQ)
    subscription = hub().follow(combat_id, after)
    try:
        # An entry committed before we followed: the hub will not send it.
        if store().entries_after(combat_id, after):
            return True
        deadline = time.monotonic() + seconds
        while not shutdown.STOPPING.is_set() and (left := deadline - time.monotonic()) > 0:
            item = subscription.get(min(left, HEARTBEAT_SECONDS))
            if item in (GONE, UNAVAILABLE, STOP) or (isinstance(item, Batch) and item.entries[-1]["seq"] > after):
                return True
    finally:
        hub().leave(subscription)
        slots().give_back(*holder)
    return True


class StreamQuery(Schema):
    after = schemas.seq_query(
        load_default=None,
        metadata={
            "description": "Send the entries after this seq first (0: the whole log). Default: only new ones. "
            "Last-Event-ID, when sent, wins."
        },
    )
    access_token = fields.String(
        load_default=None,
        metadata={
            "description": "The bearer token, for clients that cannot send headers (browsers' EventSource). "
            "Accepted on this endpoint only; never logged."
        },
    )


@blp.route("/<combat_id>/stream")
class Stream(MethodView):
    @blp.doc(
        operationId="streamCombat",
        summary="Live updates (Server-Sent Events)",
        description=(
            "One `entry` event per log entry (`id` = its seq, `data` = the entry as GET /events shows it to the "
            "caller), in order, within a second of the commit; a `:` comment line every 15 s while idle. "
            "Reconnecting with Last-Event-ID (or ?after=) misses nothing. Events `gone` (the combat was deleted or "
            "expired), `revoked` (the token was) and `reconnect` (this server is stopping: reconnect at once) end "
            "the stream. 429 when this token or this address already holds as many streams as it may on this "
            "server; 503 when the server holds as many as it may: retry later or long-poll GET /events?wait=. "
            "See docs/vtt.md."
        ),
        security=[{"bearer": []}],
        # With the query's own: parameters given here replace those @blp.arguments documents.
        parameters=[
            {"in": "query", "schema": StreamQuery},
            {"in": "header", "name": "Last-Event-ID", "required": False, "schema": {"type": "string"}},
        ],
        responses={
            "200": {"description": "An event stream.", "content": {"text/event-stream": {"schema": {"type": "string"}}}}
        },
    )
    @blp.arguments(StreamQuery, location="query")
    def get(self, query, combat_id):
        token = query["access_token"] or bearer_token()
        state, grant = load_authorized(store(), combat_id, token=token)
        after = _resume_point(query["after"], state["version"])
        if after is None:
            return problem(
                422,
                "invalid-request",
                "Invalid request",
                f"Last-Event-ID must be a seq (a whole number from 0 to {MAX_SEQ})",
                errors=[{"pointer": "/Last-Event-ID", "detail": f"must be a whole number from 0 to {MAX_SEQ}"}],
            )
        holder, held = (digest(token), request.remote_addr or "unknown"), slots()
        refused = held.take(*holder)
        if refused is not None:
            return _refusal(refused)
        listener = Listener(
            store(),
            hub(),
            combat_id,
            holder[0],
            grant.viewer,
            after,
            state["version"],
            request.environ,
            request.accept_languages,
        )
        response = Response(listener.events(), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        response.call_on_close(lambda: held.give_back(*holder))
        return response


def _refusal(bound: str) -> Response:
    retry_after = {"Retry-After": str(current_app.extensions["melee.settings"].retry_after_seconds)}
    if bound == WORKER:
        return problem(
            503,
            "too-many-streams",
            "Too many streams",
            "this server holds as many event streams as it may; retry later or long-poll GET /events?wait=",
            headers=retry_after,
        )
    holder = "this token" if bound == "token" else "this address"
    return problem(
        429,
        "too-many-streams-per-client",
        "Too many streams for one client",
        f"{holder} already holds as many event streams on this server as it may; close one first",
        headers=retry_after,
    )


def _resume_point(after: int | None, version: int) -> int | None:
    last_event_id = request.headers.get("Last-Event-ID")
    if last_event_id is not None:
        return schemas.parse_seq(last_event_id)
    return version if after is None else after


class _End(Exception):
    """The stream ends with this last event."""

    def __init__(self, event: str, reason: str):
        super().__init__(reason)
        self.event = sse(event, {"reason": reason})


def _reconnect(reason: str) -> _End:
    return _End("reconnect", f"{reason}; reconnect with Last-Event-ID")


class Listener:
    """One open stream: sends what the client lacks, then what the hub brings, until told to stop."""

    def __init__(
        self,
        combat_store: CombatStore,
        combat_hub: Hub,
        combat_id: str,
        token_digest: str,
        viewer,
        after: int,
        version: int,
        environ: dict,
        accept=None,
    ):
        self.store, self.hub, self.combat_id, self.token_digest = combat_store, combat_hub, combat_id, token_digest
        self.viewer, self.after, self.version, self.environ = viewer, after, version, environ
        self.accept = accept  # the Accept-Language the stream was opened with: it narrates as the other reads do

    def events(self) -> Iterator[str]:
        ACTIVE_STREAMS.inc()
        subscription = self.hub.follow(self.combat_id, self.version)
        unregister = shutdown.on_shutdown(lambda: subscription.put(STOP))
        stop_watching = watch(self.environ, lambda: subscription.put(LEFT))
        try:
            yield f"retry: {RETRY_MILLISECONDS}\n: connected\n\n"
            yield from self._follow(subscription, KEEPALIVE_SECONDS if stop_watching else HEARTBEAT_SECONDS)
        except _End as end:
            yield end.event
        except CombatNotFound:
            yield sse("gone", {"reason": "the combat was deleted or has expired"})
        except StoreUnavailable:
            yield _reconnect("the store is unavailable").event
        finally:
            if stop_watching:
                stop_watching()
            unregister()
            self.hub.leave(subscription)
            ACTIVE_STREAMS.dec()

    def _follow(self, subscription: Subscription, heartbeat_seconds: float) -> Iterator[str]:
        yield from self._catch_up()
        checked = time.monotonic()
        while True:
            if shutdown.STOPPING.is_set():
                raise _reconnect("this server is stopping")
            item = subscription.get(heartbeat_seconds)
            if subscription.dropped:
                subscription.dropped = False
                yield from self._catch_up()
            if item is None:
                if time.monotonic() - checked >= GRANT_CHECK_SECONDS:
                    checked = time.monotonic()
                    self._check_grant(self.store.load_with_grant(self.combat_id, self.token_digest)[1])
                yield ":\n\n"
            elif item == STOP:
                raise _reconnect("this server is stopping")
            elif item == LEFT:
                return
            elif item == GONE:
                raise CombatNotFound(self.combat_id)
            elif item == UNAVAILABLE:
                raise StoreUnavailable()
            else:
                self._check_grant(item.grants.get(self.token_digest))
                checked = time.monotonic()
                if item.entries[0]["seq"] > self.after + 1:
                    yield from self._catch_up()  # a gap: this queue overflowed, or the hub read from further on
                yield from self._send(item.state, item.entries, item.shown)

    def _catch_up(self) -> Iterator[str]:
        """Send, from the store, every entry after the last one sent."""
        while entries := self.store.entries_after(self.combat_id, self.after):
            state, grant = self.store.load_with_grant(self.combat_id, self.token_digest)
            self._check_grant(grant)
            yield from self._send(state, entries)
            if len(entries) < MAX_ENTRIES_PER_READ:
                return

    def _send(self, state: dict, entries: list[dict], shown: dict | None = None) -> Iterator[str]:
        """The entries not sent yet, in one write; ``shown``: those already rendered for other followers (Batch.shown)."""
        shown, texts = {} if shown is None else shown, []
        for entry in entries:
            if entry["seq"] > self.after:
                key = (self.viewer, narration_language(state, self.accept), entry["seq"])
                if key not in shown:
                    shown[key] = sse("entry", entry_view(state, entry, self.viewer, self.accept), entry["seq"])
                texts.append(shown[key])
                self.after = entry["seq"]
        if texts:
            yield "".join(texts)

    @staticmethod
    def _check_grant(grant: dict | None) -> None:
        if grant is None:
            raise _End("revoked", "this token no longer opens this combat")
