"""Operations: structured request logs, Prometheus metrics, /version,
optional Sentry, the proxy fix and the graceful-shutdown hook.

``init_app`` is called once by the app factory; see docs/operations.md.
"""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from ..rules.registry import RULESETS
from ..settings import Settings
from . import logs, metrics, sentry, testing, version
from .logs import annotate


def known_action_type(state: dict, body: dict) -> str | None:
    """The body's action type when the combat's ruleset knows it (never a client's free text)."""
    kind = body.get("type")
    ruleset = RULESETS.get(state.get("ruleset"))
    if ruleset is not None and isinstance(kind, str) and kind in ruleset.all_action_schemas:
        return kind
    return None


def action_applied(ruleset: str, action_type: str) -> None:
    """An action was committed: count it and name it in the request's log line."""
    annotate(ruleset=ruleset, action_type=action_type)
    metrics.action_applied(ruleset, action_type)


def init_app(app: Flask, settings: Settings, api: Api) -> None:
    if settings.proxy_fix_hops:
        # Trust exactly this many proxies' X-Forwarded-For/-Proto: the client
        # address in logs (and rate limits) is the real one, not the proxy's.
        hops = settings.proxy_fix_hops
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)
    commit = version.git_commit(settings.git_commit)
    app.extensions["melee.version"] = {"version": version.package_version(), "commit": commit}
    api.register_blueprint(version.blp)
    logs.init_app(app)
    metrics.init_app(app, settings.prometheus_multiproc_dir)
    metrics.instrument_store(app.extensions["melee.store"])
    sentry.init(settings.sentry_dsn, release=f"melee@{version.package_version()}")
    if settings.test_slow_endpoint:
        testing.init_app(app)


__all__ = ["action_applied", "annotate", "init_app", "known_action_type"]
