"""Noticing at once that the client of an event stream has left.

Under gunicorn's gevent workers the app can reach the connection's socket
(``environ["gunicorn.socket"]``): a greenlet waits for it to become
readable. An event-stream client sends nothing after its request, so
readable means closed (or reset), and the stream can end at once instead of
at its next heartbeat. Elsewhere (another server, the test client) there is
no socket to watch and the heartbeats find out.
"""

from __future__ import annotations

import socket
from collections.abc import Callable

from gevent import monkey


def watch(environ: dict, on_left: Callable[[], None]) -> Callable[[], None] | None:
    """Call ``on_left()`` once the client closes the connection; returns what stops watching, or
    None if it cannot be watched."""
    sock = environ.get("gunicorn.socket")
    if sock is None or not monkey.is_module_patched("socket"):
        return None
    import gevent

    def wait() -> None:
        while True:
            try:
                pending = sock.recv(1, socket.MSG_PEEK)
            except TimeoutError:
                continue
            except OSError:  # reset by the peer
                pending = b""
            if not pending:
                on_left()
            # Else the client sent more (pipelining, rare): leave it to gunicorn;
            # the next heartbeat that fails to write ends the stream.
            return

    watcher = gevent.spawn(wait)
    return watcher.kill
