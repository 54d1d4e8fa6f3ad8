"""Guard of service/api/headers.py's ``secure``: what it writes is what werkzeug's public setters write.

``secure`` reads the names an answer carries once (werkzeug's
``name in headers`` raises and catches a KeyError for each name absent)
and ``add``s the absent ones. That relies on iterating werkzeug's Headers
giving (name, value) pairs and on ``add`` of an absent name writing what
setting it writes; if werkzeug changes either, these fail.
"""

from __future__ import annotations

import pytest
from flask import Response

from service.api.headers import NO_STORE, PRIVATE, VARY_COMBATS, secure


def reference(response: Response, method: str, path: str) -> Response:
    """The same policy, written with the public setters only."""
    response.headers["X-Content-Type-Options"] = "nosniff"
    for name in VARY_COMBATS:
        response.vary.add(name)
    if "Cache-Control" not in response.headers:
        writes_or_log = method != "GET" or path.endswith("/events")
        response.headers["Cache-Control"] = NO_STORE if writes_or_log else PRIVATE
    return response


PRESET = [
    {},
    {"X-Content-Type-Options": "sniff"},
    {"Vary": "Origin"},
    {"Cache-Control": "no-cache"},
    {"ETag": '"3"', "Vary": "Accept-Encoding", "Cache-Control": "no-store"},
]


@pytest.mark.parametrize("preset", PRESET, ids=lambda preset: ",".join(preset) or "none")
@pytest.mark.parametrize(
    ("method", "path"), [("GET", "/combats/c1"), ("POST", "/combats/c1/actions"), ("GET", "/combats/c1/events")]
)
def test_secure_writes_what_the_public_setters_write(app, preset, method, path):
    with app.test_request_context(path, method=method):
        answered = secure(Response("{}", headers=preset, mimetype="application/json"))
        expected = reference(Response("{}", headers=preset, mimetype="application/json"), method, path)
    assert sorted(answered.headers.to_wsgi_list()) == sorted(expected.headers.to_wsgi_list())
    assert list(answered.headers) == [(name, value) for name, value in answered.headers.items()]


def test_elsewhere_only_nosniff(app):
    with app.test_request_context("/rulesets"):
        answered = secure(Response("{}", mimetype="application/json"))
    assert answered.headers["X-Content-Type-Options"] == "nosniff"
    assert "Vary" not in answered.headers and "Cache-Control" not in answered.headers
