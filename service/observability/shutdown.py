"""Graceful shutdown: the hook that runs when a worker is told to stop.

On SIGTERM the gunicorn master closes its listening sockets and sends
SIGTERM to every worker; a worker stops accepting connections and lets the
requests in flight finish within ``GUNICORN_GRACEFUL_TIMEOUT``, after which
the master kills what is left. deploy/gunicorn.conf.py chains
:func:`begin` in front of the worker's own SIGTERM handler.

Long-lived responses cannot finish by themselves: an event stream
(Server-Sent Events) must be told to end. Code that holds one registers a
callback with :func:`on_shutdown`; the callback should send a final event
telling the client to reconnect (to another worker) and end the stream.
Each open ``GET /combats/<id>/stream`` does (service/api/stream.py): it
sends a ``reconnect`` event within a second and ends.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)

STOPPING = threading.Event()
_callbacks: list[Callable[[], None]] = []
_lock = threading.Lock()


def on_shutdown(callback: Callable[[], None]) -> Callable[[], None]:
    """Call ``callback`` (once) when this worker starts shutting down; returns a function that unregisters it."""
    with _lock:
        _callbacks.append(callback)

    def unregister() -> None:
        with _lock:
            if callback in _callbacks:
                _callbacks.remove(callback)

    return unregister


def begin() -> None:
    """Mark the worker as stopping and run the callbacks. Called from a signal handler: must not block."""
    if STOPPING.is_set():
        return
    STOPPING.set()
    with _lock:
        callbacks = list(_callbacks)
        _callbacks.clear()
    log.info("worker shutting down: finishing requests in flight, closing %d event stream(s)", len(callbacks))
    for callback in callbacks:
        try:
            callback()
        except Exception:  # one broken stream must not stop the others
            log.exception("shutdown callback failed")
