"""The application factory: ``gunicorn 'service.app:create_app()'``."""

from __future__ import annotations

from flask import Flask
from flask_cors import CORS

from . import api, web
from .api import bodies, budget, headers, limits, stream
from .observability import init_app as init_observability
from .observability import logs as observability_logs
from .observability.store import observed
from .settings import Settings
from .store import CombatStore, connect


def create_app(settings: Settings | None = None, store: CombatStore | None = None) -> Flask:
    settings = settings or Settings.from_env()
    observability_logs.configure(settings.log_level)  # JSON lines on stderr
    app = Flask("melee")
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.extensions["melee.settings"] = settings
    # The store every view reaches (requests.store()), timed and logged by the observing adapter.
    app.extensions["melee.store"] = observed(
        store
        or connect(
            settings.redis_url,
            settings.combat_ttl_seconds,
            settings.redis_timeout_seconds,
            settings.redis_ssl_cert_reqs,
            settings.max_actions_per_combat,
        )
    )
    CORS(
        app,
        origins=list(settings.cors_origins),
        expose_headers=["ETag", "Location", "Retry-After", "X-Request-ID"],
        allow_headers=[
            "Content-Type",
            "If-Match",
            "If-None-Match",
            "Authorization",
            "X-API-Key",
            "Idempotency-Key",
            "X-Request-ID",
            "Last-Event-ID",
        ],
        supports_credentials=False,
        # Browsers keep a preflight's answer this long rather than preflight
        # every POST (Chromium caps it at 2 hours, Firefox at 24).
        max_age=7200,
        send_wildcard=settings.cors_origins == ("*",),
    )
    stream.init_app(app)
    api.init_app(app, settings.retry_after_seconds)
    app.register_blueprint(web.blp)
    limits.init_app(app, settings.rate_limit, settings.redis_url)
    bodies.init_app(app)  # after the limiter: a refused body still counts against the client
    headers.init_app(app)
    budget.init_app(app, settings)
    init_observability(app, settings)
    return app
