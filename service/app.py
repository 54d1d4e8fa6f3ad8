"""The application factory: ``gunicorn 'service.app:create_app()'``."""

from __future__ import annotations

import logging

from flask import Flask
from flask_cors import CORS

from . import api
from .api import limits
from .settings import Settings
from .store import CombatStore, connect


def create_app(settings: Settings | None = None, store: CombatStore | None = None) -> Flask:
    settings = settings or Settings.from_env()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = Flask("melee")
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.extensions["melee.settings"] = settings
    app.extensions["melee.store"] = store or connect(
        settings.redis_url, settings.combat_ttl_seconds, settings.redis_timeout_seconds
    )
    CORS(
        app,
        origins=list(settings.cors_origins),
        expose_headers=["ETag", "Location", "Retry-After"],
        allow_headers=["Content-Type", "If-Match", "If-None-Match", "Authorization", "Idempotency-Key"],
        supports_credentials=False,
        send_wildcard=settings.cors_origins == ("*",),
    )
    api.init_app(app, settings.retry_after_seconds)
    limits.init_app(app, settings.rate_limit, settings.redis_url)
    return app
