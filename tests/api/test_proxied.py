"""Guard of service/proxied.py: what it takes from werkzeug's proxies still holds.

Flask documents ``_get_current_object()`` on its proxies ("Notes On
Proxies"); the hooks rely on it returning the very request and ``g`` the
proxies stand for, and on failing outside a context as the proxies do.
"""

from __future__ import annotations

import flask
import pytest
from werkzeug.local import LocalProxy

from service.proxied import current_g, current_request


def test_flask_request_and_g_are_still_werkzeug_proxies_with_the_method():
    assert isinstance(flask.request, LocalProxy) and isinstance(flask.g, LocalProxy)
    assert callable(flask.request._get_current_object) and callable(flask.g._get_current_object)


def test_current_request_is_the_object_behind_flask_request(app):
    with app.test_request_context("/rulesets?x=1", method="POST", headers={"X-Request-ID": "r1"}):
        request = current_request()
        assert isinstance(request, flask.Request) and not isinstance(request, LocalProxy)
        assert (request.method, request.path, request.headers["X-Request-ID"]) == ("POST", "/rulesets", "r1")
        request.max_content_length = 7  # bodies.check_body sets it on the object: the proxy sees it
        assert flask.request.max_content_length == 7


def test_current_g_is_the_object_behind_flask_g(app):
    with app.app_context():
        flask.g.melee_started = 1.0
        context = current_g()
        assert not isinstance(context, LocalProxy)
        assert context.get("melee_started") == 1.0
        context.melee_log = {"ruleset": "duel-2d6"}
        assert flask.g.melee_log == {"ruleset": "duel-2d6"}


def test_outside_a_context_they_fail_as_the_proxies_do():
    with pytest.raises(RuntimeError):
        current_request()
    with pytest.raises(RuntimeError):
        current_g()
