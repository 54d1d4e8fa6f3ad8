"""CORS headers, decided by flask-cors, each decision kept for the next answers.

flask-cors works its headers out anew for every answer (its options, two
MultiDicts, several reads through Flask's request proxy, debug log lines):
about 20 µs of CPU an answer, 3 µs with its decision kept (docs/performance.md,
"The action path: before and after issue 28"). Outside a
preflight, what it adds depends only on two request headers, ``Origin`` and
``Access-Control-Request-Private-Network``: its options are fixed at start
and one set of them covers every path. So the first answer for each pair of
them asks flask-cors, through its public ``cross_origin`` decorator on an
empty answer, and keeps the headers it set; the next answers with the same
pair get the same headers. Preflights (OPTIONS) always ask it, and so does
every pair beyond the first ``REMEMBERED``: the Origin is the client's to
choose. tests/api/test_cors.py checks the headers against a plain
``flask_cors.CORS(app, ...)`` for both kinds of request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Response
from flask_cors import cross_origin

from ..proxied import current_request

REMEMBERED = 64  # distinct (Origin, private-network) pairs
_PRIVATE_NETWORK = "Access-Control-Request-Private-Network"

Headers = list[tuple[str, str]]


def _is_cors(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith("access-control-") or lowered == "vary"


def options(origins: tuple[str, ...], private_network: bool) -> dict[str, Any]:
    """flask-cors's options (``CORS_ORIGINS``, ``CORS_PRIVATE_NETWORK``): what
    ``flask_cors.CORS(app, **options(...))`` would take."""
    return {
        "origins": list(origins),
        "expose_headers": ["ETag", "Location", "Retry-After", "X-Request-ID"],
        "allow_headers": [
            "Content-Type",
            "If-Match",
            "If-None-Match",
            "Authorization",
            "X-API-Key",
            "Idempotency-Key",
            "X-Request-ID",
            "Last-Event-ID",
        ],
        "supports_credentials": False,
        # Browsers keep a preflight's answer this long rather than preflight
        # every POST (Chromium caps it at 2 hours, Firefox at 24).
        "max_age": 7200,
        "send_wildcard": origins == ("*",),
        # Private Network Access: a page on a public https origin (a VTT) calling
        # Melee on a private address (at home) asks first; answered only if set.
        "allow_private_network": private_network,
    }


def init_app(app: Flask, origins: tuple[str, ...], private_network: bool) -> None:
    """CORS on every answer of ``app``, as ``flask_cors.CORS(app, **options(...))`` sets it."""
    # flask-cors's headers on an empty answer: the request is the one being answered.
    flask_cors_options = options(origins, private_network)
    decided: Callable[[], Response] = cross_origin(**flask_cors_options, automatic_options=False)(Response)
    remembered: dict[tuple[str | None, str | None], Headers] = {}

    def decide() -> Headers:
        return [(name, value) for name, value in decided().headers.items() if _is_cors(name)]

    @app.after_request
    def cors_headers(response: Response) -> Response:
        req = current_request()  # once, not through the proxy each time (proxied.py)
        if req.method == "OPTIONS":
            headers = decide()
        else:
            key = (req.headers.get("Origin"), req.headers.get(_PRIVATE_NETWORK))
            known = remembered.get(key)
            if known is None:
                known = decide()
                if len(remembered) < REMEMBERED:
                    remembered[key] = known
            headers = known
        for name, value in headers:
            response.headers.add(name, value)
        return response
