"""The request and ``g`` behind Flask's proxies, for the code every request runs.

Each attribute read through ``flask.request`` or ``flask.g`` (werkzeug's
LocalProxy) first fails on the proxy itself, raising and catching an
AttributeError, then looks the object up: about 8,900 instructions a read
against 2,900 through ``current_request()`` (cachegrind). The hooks (bodies,
headers, the log line, the metrics) and the helpers of every action (its
token, If-Match, Idempotency-Key, body, Accept-Language, log fields) take the object so, by
the method Flask documents for it ("Notes On Proxies":
``_get_current_object()``, private by its name only). Measured (docs/performance.md, "Framework patches: what each
buys"): 0.149 million instructions of an action's 2.86 million, 5.2 %.

The one place service/ reaches into a framework's private name (the
architecture test allows it here and nowhere else);
tests/api/test_proxied.py fails if werkzeug's proxies change under it.
"""

from __future__ import annotations

from typing import Any, cast

from flask import Request, g, request


def current_request() -> Request:
    """The request ``flask.request`` stands for (inside a request context)."""
    return cast(Request, request._get_current_object())  # type: ignore[attr-defined]


def current_g() -> Any:
    """The ``flask.g`` of this app context."""
    return g._get_current_object()  # type: ignore[attr-defined]
