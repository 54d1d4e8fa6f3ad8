"""The embedded store serves one process: refuse several gunicorn workers on it.

Without ``REDIS_URL`` the combats live in the memory of the process that
created the app (``service.store.connect``). Two gunicorn workers would each
hold their own: a combat created through one is 404 on the other.
``deploy/gunicorn.conf.py`` forces one worker then; a command line that
bypasses it (``gunicorn -w 2 "service.app:create_app()"``, the habit of many
Flask users) is refused here, before any request is served, with the reason.

gunicorn loads the app from its application object (``BaseApplication.wsgi``),
in each worker or, with ``--preload``, in the master: that object is on the
call stack, and its configuration says how many workers will serve, whatever
set it (``-w``, ``WEB_CONCURRENCY``, ``GUNICORN_CMD_ARGS``, a config file).
"""

from __future__ import annotations

import logging
import sys
from types import FrameType

log = logging.getLogger(__name__)


class SeveralWorkersOnEmbeddedStore(RuntimeError):
    """gunicorn would run several workers, each with an embedded store of its own."""


def gunicorn_workers() -> int | None:
    """How many workers the gunicorn application loading this app runs; None
    outside gunicorn (a test, ``flask run``, another server)."""
    base = sys.modules.get("gunicorn.app.base")
    if base is None:
        return None
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, base.BaseApplication):
            return int(candidate.cfg.workers)
        frame = frame.f_back
    return None


def refuse_several_workers() -> None:
    """Raise ``SeveralWorkersOnEmbeddedStore`` when gunicorn runs more than one
    worker. In a worker, gunicorn logs it and stops ("Worker failed to boot");
    with ``--preload``, the master prints it and exits."""
    workers = gunicorn_workers()
    if workers is None or workers <= 1:
        return
    message = (
        f"REDIS_URL is not set and gunicorn runs {workers} workers: the embedded store keeps the combats "
        "in one process's memory, so each worker would hold combats the others cannot find. "
        "Run one worker (-w 1; threads are fine, --threads 8), start gunicorn with "
        "--config deploy/gunicorn.conf.py (which runs one worker without REDIS_URL), or set REDIS_URL."
    )
    log.error(message)
    raise SeveralWorkersOnEmbeddedStore(message)
