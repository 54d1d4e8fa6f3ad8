"""One reader per process for every combat its listeners follow.

Event streams and waiting long polls do not each read Redis: they follow a
combat through the process's :class:`Hub`, whose one thread (a greenlet
under gunicorn's gevent workers) reads the streams of every followed combat
in one XREAD (service/store/stream.py), loads each combat that moved once,
with the digests of the tokens that open it, and puts the new entries in
every follower's queue. A thousand listeners on two hundred combats cost
one Redis connection and one state load per combat and batch, not one of
each per listener. It is also the idle followers' clock (``TICK``).

A follower may miss nothing: each new one reads what it lacks from the
store itself, after it has joined (``Listener`` in stream.py does), and
again when its queue overflowed (``Subscription.dropped``) or a batch starts
past what it has seen (the hub read from further on).
The hub runs while someone follows a combat and ends when nobody does.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, field

from ..usecases.port_errors import StoreUnavailable
from ..usecases.stream import EventStreams

log = logging.getLogger(__name__)

# How many batches a follower's queue holds; a follower further behind gets
# a gap, which it reads from the store.
QUEUE_SIZE = 64
# After a read that brought entries, the hub waits this long before the
# next one: under load, one XREAD and one pipelined load then serve every
# combat that moved meanwhile, instead of one of each per commit. It delays
# a delivery by at most this (an idle hub's XREAD returns at the first entry).
GATHER_SECONDS = 0.05
# How often the hub checks that the followed combats still exist (an idle
# XREAD cannot tell a deleted combat from a quiet one).
EXISTS_CHECK_SECONDS = 1.0
# How often the hub looks for followers to tick: each gets a ``TICK`` once it
# has had nothing for its ``tick_seconds`` (its idle stream's clock: heartbeats,
# grant checks), instead of a timer started and cancelled around every wait.
TICK_SECONDS = 1.0


@dataclass(frozen=True)
class Batch:
    """New entries of a combat, with the combat as it is after them and the digests of the tokens that open it."""

    entries: list[dict]
    state: dict
    readers: frozenset[str]
    # The entries as sent to each kind of viewer, {(its role, its language): (each entry's
    # SSE frame, all of them joined)}, the role left out when the ruleset shows every
    # viewer the same entries: rendered and encoded once for all the followers who see
    # them alike, who then write the same bytes (stream.Listener).
    frames: dict = field(default_factory=dict, compare=False, repr=False)


GONE = "gone"  # the combat was deleted or has expired
UNAVAILABLE = "unavailable"  # the store did not answer
STOP = "stop"  # this worker is shutting down
LEFT = "left"  # the client closed the connection (disconnect.py)
TICK = "tick"  # the follower has had nothing for its tick_seconds


class Subscription:
    """A follower's queue of batches and notices (``GONE``, ``UNAVAILABLE``, ``STOP``, ``LEFT``, ``TICK``)."""

    def __init__(self, combat_id: str, tick_seconds: float = TICK_SECONDS):
        self.combat_id = combat_id
        # SimpleQueue: the lightest queue, gevent's own once monkey-patched.
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        # Set when a batch was dropped: the follower must read what it lacks from the store.
        self.dropped = False
        self.tick_seconds = tick_seconds
        self._quiet_since = time.monotonic()  # the last put or tick

    def put(self, item) -> None:
        self._quiet_since = time.monotonic()
        if isinstance(item, Batch) and self._queue.qsize() >= QUEUE_SIZE:
            # This follower is far behind: drop the batch, it reads the entries from
            # the store instead. Notices always get through.
            self.dropped = True
        else:
            self._queue.put(item)

    def tick(self, now: float) -> None:
        """A ``TICK`` if nothing came for ``tick_seconds`` and nothing waits (a stuck follower gets no pile of them)."""
        if now - self._quiet_since >= self.tick_seconds and not self._queue.qsize():
            self._quiet_since = now
            self._queue.put(TICK)

    def get(self, timeout: float | None = None):
        """The next batch or notice, or None after ``timeout`` seconds (None: until one comes)."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None


class Hub:
    def __init__(self, store: EventStreams, block_seconds: float):
        self.store = store
        self.block_seconds = block_seconds
        self._lock = threading.Lock()
        self._followers: dict[str, set[Subscription]] = {}
        # The seq up to which the hub has read each followed combat.
        self._positions: dict[str, int] = {}
        self._thread: threading.Thread | None = None

    def follow(self, combat_id: str, after: int) -> Subscription:
        """Get the entries of ``combat_id`` committed from now on (the hub may also send some seq <= after),
        and a ``TICK`` whenever nothing came for the subscription's ``tick_seconds``."""
        subscription = Subscription(combat_id)
        with self._lock:
            self._followers.setdefault(combat_id, set()).add(subscription)
            self._positions[combat_id] = min(self._positions.get(combat_id, after), after)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="melee-stream-hub", daemon=True)
                self._thread.start()
        return subscription

    def leave(self, subscription: Subscription) -> None:
        with self._lock:
            followers = self._followers.get(subscription.combat_id)
            if followers is not None:
                followers.discard(subscription)
                if not followers:
                    del self._followers[subscription.combat_id]
                    del self._positions[subscription.combat_id]

    def _run(self) -> None:
        checked = ticked = time.monotonic()
        while True:
            with self._lock:
                if not self._followers:
                    self._thread = None
                    return
                positions = dict(self._positions)
                if (now := time.monotonic()) - ticked >= TICK_SECONDS:
                    ticked = now
                    followers = [subscription for group in self._followers.values() for subscription in group]
                    for subscription in followers:
                        subscription.tick(now)
            try:
                found = self.store.read_streams(positions, int(self.block_seconds * 1000))
                self._deliver(found)
                if time.monotonic() - checked >= EXISTS_CHECK_SECONDS:
                    checked = time.monotonic()
                    for combat_id in self.store.missing(list(positions)):
                        self._notify(combat_id, GONE)
            except StoreUnavailable:
                for combat_id in positions:
                    self._notify(combat_id, UNAVAILABLE)
                time.sleep(self.block_seconds)
            except Exception:  # the hub must outlive one bad read: its followers would hang
                log.exception("the stream hub failed to read; retrying")
                time.sleep(self.block_seconds)
            else:
                if self.store.polls_streams:
                    time.sleep(self.block_seconds / 4)
                elif found:
                    time.sleep(GATHER_SECONDS)

    def _deliver(self, found: dict[str, list[dict]]) -> None:
        loaded = self.store.load_with_readers(list(found)) if found else {}
        for combat_id, entries in found.items():
            if combat_id not in loaded:
                self._notify(combat_id, GONE)
                continue
            state, readers = loaded[combat_id]
            with self._lock:
                if combat_id in self._positions:
                    self._positions[combat_id] = max(self._positions[combat_id], entries[-1]["seq"])
            self._notify(combat_id, Batch(entries, state, readers))

    def _notify(self, combat_id: str, item) -> None:
        with self._lock:
            followers = list(self._followers.get(combat_id, ()))
        for subscription in followers:
            subscription.put(item)
