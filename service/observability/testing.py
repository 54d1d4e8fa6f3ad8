"""A test-only endpoint, registered only with MELEE_TEST_SLOW_ENDPOINT=1.

``GET /_test/slow?seconds=2`` answers after sleeping, so that a test can
have a request in flight when the worker gets SIGTERM. Never set the
variable in production: it lets anyone hold a worker thread.
"""

from __future__ import annotations

import logging
import time

from flask import Flask, request

log = logging.getLogger(__name__)

MAX_SECONDS = 10.0


def init_app(app: Flask) -> None:
    log.warning("MELEE_TEST_SLOW_ENDPOINT=1: GET /_test/slow is enabled (tests only, never in production)")

    @app.get("/_test/slow")
    def slow():
        seconds = min(max(request.args.get("seconds", 1.0, type=float), 0.0), MAX_SECONDS)
        log.info("test slow endpoint: sleeping %.1f s", seconds)
        time.sleep(seconds)
        return {"slept": seconds}
