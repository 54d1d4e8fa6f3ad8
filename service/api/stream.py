"""Live updates: ``GET /combats/<id>/stream`` (Server-Sent Events) and the
long-poll wait of ``GET /combats/<id>/events``.

Every committed log entry is also in the combat's Redis Stream (the commit
script adds it, see service/store/scripts.py), with its seq as the stream
id. The process's one reader (service/adapters/fanout.py, ``Hub``) reads the streams of every
followed combat and hands each listener the new entries; each is sent as
one SSE event (``id`` = its seq), filtered for the caller like every read,
and a batch of them is rendered and encoded once per kind of viewer
(``Listener._frames``): every listener of that kind writes the same bytes.
A client that reconnects with ``Last-Event-ID`` (browsers do it by
themselves) or ``?after=<seq>`` gets every entry it missed, from the stream
or, further back, from the log.

A client that leaves frees its slot at once under gunicorn's gevent
workers, which let disconnect.py watch its socket; elsewhere an idle stream
sends a one-line comment at the hub's every tick (``HEARTBEAT_SECONDS``,
about a second), the next write or the one after fails once the client has
gone, and the slot is free within two or three seconds. Listeners cost no thread of their own under gevent
(deploy/gunicorn.conf.py); stream_slots bounds how many a worker, a token
and an address hold.
"""

from __future__ import annotations

import time
from collections.abc import Generator, Iterator
from dataclasses import astuple

from flask import Flask, Response, current_app, request
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from .. import codec
from ..adapters.fanout import GONE, LEFT, STOP, TICK, TICK_SECONDS, UNAVAILABLE, Batch, Hub, Subscription
from ..observability import shutdown
from ..observability.metrics import ACTIVE_STREAMS
from ..rules.errors import refusal
from ..store.stream import MAX_ENTRIES_PER_READ
from ..usecases.port_errors import CombatNotFound, StoreUnavailable
from ..usecases.stream import EventStreams, Revoked, catch_up, entry_tag, rewritten, still_opens
from ..usecases.views import entries_shown_alike, entry_view, narration_language
from . import schemas
from .access import bearer_token, digest, load_authorized
from .disconnect import watch
from .problems import problem
from .requests import store
from .stream_slots import WORKER, Slots
from .views import accepted_languages

blp = Blueprint("stream", __name__, url_prefix="/combats", description="Live updates of a combat.")

# A comment line on an idle stream: at every tick of the hub (about every
# second) when only a failed write can tell that the client has left, else
# every 15 s (proxies close connections that stay silent too long).
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


def sse(event: str, data: dict, event_id: str | None = None) -> bytes:
    """One SSE event, as the bytes written to the socket.

    ``data`` encoded by the project's codec (orjson), as GET /events encodes its answer: the
    same compact UTF-8 JSON as the standard library's, about 14 times faster for an entry
    (measured on 2026-11-30: ``git log -p -- docs/performance.md``). Compact JSON has no
    line break: the event's one ``data:`` line.
    """
    head = b"id: %s\n" % event_id.encode() if event_id is not None else b""
    return b"%sevent: %s\ndata: %s\n\n" % (head, event.encode(), codec.dumps(data))


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
            "One `entry` event per log entry (`id` = `<seq>:<tag>`, `data` = the entry as GET /events shows it to the "
            "caller), in order, within a second of the commit; a `:` comment line every 15 s while idle. "
            "Reconnecting with Last-Event-ID (or ?after=) misses nothing; when the store lost entries since that "
            "position (a rollback), one `reset` event ends the stream: reload the combat and its log. "
            "Events `gone` (the combat was deleted or "
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
        resumed = _resume_point(query["after"], state["version"])
        if resumed is None:
            return problem(
                422,
                "invalid-request",
                refusal("Invalid request"),
                refusal("Last-Event-ID must be an event id or a seq (a whole number from 0 to {limit})", limit=MAX_SEQ),
                errors=[
                    {
                        "pointer": "/Last-Event-ID",
                        "detail": refusal("must be a whole number from 0 to {limit}", limit=MAX_SEQ),
                    }
                ],
            )
        after, tag = resumed
        if rewritten(store(), combat_id, state["version"], after, tag):
            return _reset(state["version"])
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
            accepted_languages(),
        )
        # Passed through as is: each write is the listener's own bytes, with no
        # wrapper iterator (encoding, closing) between it and the server.
        response = Response(
            _Body(listener.events(), lambda: held.give_back(*holder)),
            mimetype="text/event-stream",
            direct_passthrough=True,
        )
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        return response


class _Body:
    """The stream's WSGI body: iterating it iterates the listener's generator itself; ``close()``
    (the server calls it, iterated or not) ends the generator and gives the slot back, once."""

    def __init__(self, events: Generator[bytes, None, None], on_close):
        self._events, self._on_close = events, on_close

    def __iter__(self) -> Iterator[bytes]:
        return self._events

    def close(self) -> None:
        try:
            self._events.close()
        finally:
            on_close, self._on_close = self._on_close, None
            if on_close is not None:
                on_close()


def _refusal(bound: str) -> Response:
    retry_after = {"Retry-After": str(current_app.extensions["melee.settings"].retry_after_seconds)}
    if bound == WORKER:
        return problem(
            503,
            "too-many-streams",
            refusal("Too many streams"),
            refusal("this server holds as many event streams as it may; retry later or long-poll GET /events?wait="),
            headers=retry_after,
        )
    if bound == "token":
        detail = refusal("this token already holds as many event streams on this server as it may; close one first")
    else:
        detail = refusal("this address already holds as many event streams on this server as it may; close one first")
    return problem(
        429,
        "too-many-streams-per-client",
        refusal("Too many streams for one client"),
        detail,
        headers=retry_after,
    )


def _resume_point(after: int | None, version: int) -> tuple[int, str | None] | None:
    """Where the stream starts, and the tag of the entry there when the client sent one:
    Last-Event-ID (``<seq>:<tag>``, or a plain seq as before), else ``?after=``, else the head."""
    last_event_id = request.headers.get("Last-Event-ID")
    if last_event_id is not None:
        seq, _, tag = last_event_id.strip().partition(":")
        parsed = schemas.parse_seq(seq)
        if parsed is None or (tag and not (len(tag) <= 16 and tag.isascii() and tag.isalnum())):
            return None
        return parsed, tag or None
    return (version if after is None else after), None


def _reset(head: int) -> Response:
    """The stream of a reader whose history is no longer the combat's: one ``reset`` event, then the end."""
    body = f"retry: {RETRY_MILLISECONDS}\n: connected\n\n".encode() + sse(
        "reset",
        {
            "reason": "the combat's history changed since this position (the store lost acknowledged writes): "
            "reload the combat and its log from the start",
            "last_seq": head,
        },
    )
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    return response


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
        combat_store: EventStreams,
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
        # The combat's language -> (viewer, the language this listener reads): the key of Batch.frames.
        self._kinds: dict[str, tuple] = {}

    def events(self) -> Iterator[bytes]:
        ACTIVE_STREAMS.inc()
        subscription = self.hub.follow(self.combat_id, self.version)
        unregister = shutdown.on_shutdown(lambda: subscription.put(STOP))
        stop_watching = watch(self.environ, lambda: subscription.put(LEFT))
        # The hub's TICK is this stream's heartbeat: every 15 s when its socket is watched, else every second.
        subscription.tick_seconds = KEEPALIVE_SECONDS if stop_watching else HEARTBEAT_SECONDS
        try:
            yield f"retry: {RETRY_MILLISECONDS}\n: connected\n\n".encode()
            yield from self._follow(subscription)
        except _End as end:
            yield end.event
        except Revoked:
            yield sse("revoked", {"reason": "this token no longer opens this combat"})
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

    def _follow(self, subscription: Subscription) -> Iterator[bytes]:
        yield from self._catch_up()
        checked = time.monotonic()
        while True:
            # No timer per wait: an idle stream's clock is the hub's TICK.
            item = subscription.get()
            if isinstance(item, Batch):
                # The usual case first: every check below is one comparison or one dict lookup.
                if self.token_digest not in item.readers:
                    raise Revoked(self.combat_id)
                if subscription.dropped or item.entries[0]["seq"] > self.after + 1:
                    # A gap: this queue overflowed, or the hub read from further on.
                    subscription.dropped = False
                    yield from self._catch_up()
                if shutdown.STOPPING.is_set():
                    raise _reconnect("this server is stopping")
                if data := self._frames(item.state, item.entries, item.frames):
                    yield data
                checked = time.monotonic()
                continue
            if shutdown.STOPPING.is_set() or item == STOP:
                raise _reconnect("this server is stopping")
            if subscription.dropped:
                subscription.dropped = False
                yield from self._catch_up()
            if item == TICK:
                # A little early rather than a tick late: ticks come up to a second after they are due.
                if time.monotonic() - checked >= GRANT_CHECK_SECONDS - TICK_SECONDS:
                    checked = time.monotonic()
                    still_opens(self.store, self.combat_id, self.token_digest)
                yield b":\n\n"
            elif item == LEFT:
                return
            elif item == GONE:
                raise CombatNotFound(self.combat_id)
            elif item == UNAVAILABLE:
                raise StoreUnavailable()

    def _catch_up(self) -> Iterator[bytes]:
        """Send, from the store, every entry after the last one sent."""
        for state, entries in catch_up(self.store, self.combat_id, self.token_digest, self.after, MAX_ENTRIES_PER_READ):
            if data := self._frames(state, entries, {}):
                yield data

    def _frames(self, state: dict, entries: list[dict], frames: dict) -> bytes:
        """The entries not sent yet, as the bytes of one write.

        ``frames`` (``Batch.frames``): the batch as each kind of viewer (role, language) sees it, rendered and
        encoded by the first follower of that kind; the others write the very same bytes.
        """
        if entries[-1]["seq"] <= self.after:
            return b""
        kind = self._kinds.get(state["lang"])
        if kind is None:
            language = narration_language(state, self.accept)
            # A ruleset that hides nothing in its log shows every viewer the same entries: one kind per language.
            # Else the viewer's fields (its role), as plain values: hashed in C at every lookup.
            role = () if entries_shown_alike(state["ruleset"]) else astuple(self.viewer)
            kind = self._kinds[state["lang"]] = (*role, language)
        seen = frames.get(kind)
        if seen is None:
            each = [
                sse("entry", entry_view(state, entry, self.viewer, kind[-1]), f"{entry['seq']}:{entry_tag(entry)}")
                for entry in entries
            ]
            seen = frames[kind] = (each, b"".join(each))
        each, whole = seen
        if entries[0]["seq"] > self.after:  # the usual case: the whole batch is new
            self.after = entries[-1]["seq"]
            return whole
        start = next(index for index, entry in enumerate(entries) if entry["seq"] > self.after)
        self.after = entries[-1]["seq"]
        return b"".join(each[start:])
