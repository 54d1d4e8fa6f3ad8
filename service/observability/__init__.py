"""Operations: structured request logs, Prometheus metrics, /version,
optional Sentry, the proxy fix and the graceful-shutdown hook.

``init_app`` is called once by the app factory, after the REST API; see
docs/operations.md.
"""

from __future__ import annotations

from flask import Flask
from flask_smorest import Api
from werkzeug.middleware.proxy_fix import ProxyFix

from ..settings import Settings
from . import logs, metrics, sentry, testing, version


def _rest_api(app: Flask) -> Api:
    return app.extensions["flask-smorest"]["apis"][""]["ext_obj"]


def init_app(app: Flask, settings: Settings, api: Api | None = None) -> None:
    if settings.proxy_fix_hops:
        # Trust exactly this many proxies' X-Forwarded-For/-Proto: the client
        # address in logs (and rate limits) is the real one, not the proxy's.
        hops = settings.proxy_fix_hops
        # Flask's documented way to add a WSGI middleware; its types declare wsgi_app a method.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    commit = version.shown_commit(version.git_commit(settings.git_commit), settings.version_commit)
    app.extensions["melee.version"] = {"version": version.package_version(), "commit": commit}
    (api or _rest_api(app)).register_blueprint(version.blp)
    logs.init_app(app)
    metrics.init_app(app, settings.prometheus_multiproc_dir, settings.metrics_token, settings.metrics_public)
    sentry.init(settings.sentry_dsn, release=f"melee@{version.package_version()}")
    if settings.test_slow_endpoint:
        testing.init_app(app)


__all__ = ["init_app"]
