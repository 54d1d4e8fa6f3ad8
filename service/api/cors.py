"""CORS headers as flask-cors writes them, remembered per Origin.

flask-cors works out the headers of every answer anew (its resource
patterns, its options, a MultiDict, its debug log lines): about 0.08
million instructions of an action's 3.1 million (docs/performance.md).
With one resource covering every path (flask-cors's default, the one
``create_app`` configures), what it adds to the answer of a request other
than a preflight depends only on two request headers, ``Origin`` and
``Access-Control-Request-Private-Network``. So the first answer for each
pair of them runs flask-cors and keeps the headers it appended; the next
ones append the same. Preflights (OPTIONS), answers that already carry CORS
headers and pairs beyond the first ``REMEMBERED`` run flask-cors as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from flask import Flask, Response, request

REMEMBERED = 64  # distinct (Origin, private-network) pairs: the Origin is the client's to choose
_ALLOW_ORIGIN_LOWER = "access-control-allow-origin"
_EVALUATED = "_FLASK_CORS_EVALUATED"  # set by flask-cors's cross_origin decorator: it skips such answers


def remember_headers(app: Flask) -> None:
    """Wraps the hook ``flask_cors.CORS(app, ...)`` just registered (its last after_request function)."""
    hooks = app.after_request_funcs[None]
    if not hooks or hooks[-1].__name__ != "cors_after_request":
        raise RuntimeError("call remember_headers(app) right after CORS(app, ...)")
    hooks[-1] = remembering(cast(Callable[[Response], Response], hooks[-1]))


def remembering(cors_after_request: Callable[[Response], Response]) -> Callable[[Response], Response]:
    added: dict[tuple[str | None, str | None], list[tuple[str, str]]] = {}

    def cors_headers(response: Response) -> Response:
        req = request._get_current_object()  # type: ignore[attr-defined]  # once, not through the proxy each time
        headers = response.headers
        if (
            req.method == "OPTIONS"
            # werkzeug's ``name in headers`` raises and catches a KeyError when the name is absent
            or any(name.lower() == _ALLOW_ORIGIN_LOWER for name, _ in headers)
            or hasattr(response, _EVALUATED)
        ):
            return cors_after_request(response)
        environ = req.environ  # what request.headers.get(...) reads
        key = (environ.get("HTTP_ORIGIN"), environ.get("HTTP_ACCESS_CONTROL_REQUEST_PRIVATE_NETWORK"))
        known = added.get(key)
        if known is not None:
            for name, value in known:
                headers.add(name, value)
            return response
        before = len(headers)
        answered = cors_after_request(response)
        if answered is response and len(added) < REMEMBERED:
            added[key] = list(headers.to_wsgi_list()[before:])
        return answered

    cors_headers.__wrapped__ = cors_after_request  # type: ignore[attr-defined]  # flask-cors's own, for the tests
    return cors_headers
