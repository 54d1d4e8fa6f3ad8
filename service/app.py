"""The application factory: ``gunicorn 'service.app:create_app()'``."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Flask
from flask.json.provider import DefaultJSONProvider

from . import api, codec, web
from .adapters import secret_file
from .api import bodies, budget, cors, headers, limits, stream
from .api.requests import SECRET_STORE
from .embedded_guard import refuse_several_workers
from .observability import init_app as init_observability
from .observability import logs as observability_logs
from .observability.store import observed
from .settings import Settings
from .store import CombatStore, connect
from .web import integrations


class JsonProvider(DefaultJSONProvider):
    """Flask's JSON provider (``jsonify``, flask-smorest's responses), its
    compact answers encoded by orjson (codec.py): Flask's ``response`` asks
    ``dumps`` for ``separators=(",", ":")`` when it writes compact JSON, and
    this app turns sorting and ASCII escaping off. Any other ``dumps`` is
    Flask's. Dates, dataclasses and the like still go through Flask's
    ``default``."""

    OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs == {"separators": (",", ":")} and not self.sort_keys and not self.ensure_ascii:
            return codec.dumps_text(obj, default=self.default, option=self.OPTIONS)
        return super().dumps(obj, **kwargs)


def create_app(settings: Settings | None = None, store: CombatStore | None = None) -> Flask:
    settings = settings or Settings.from_env()
    observability_logs.configure(settings.log_level)  # JSON lines on stderr
    app = Flask("melee")
    app.json = JsonProvider(app)
    app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes
    # POST /combats reads a snapshot to restore up to MAX_SNAPSHOT_BYTES (api/bodies.py).
    app.extensions[bodies.LARGER_BODIES] = {
        "/combats": (max(settings.max_body_bytes, settings.max_snapshot_bytes), "snapshot")
    }
    app.json.sort_keys = False
    app.json.ensure_ascii = False
    app.extensions["melee.settings"] = settings
    if store is None and not settings.redis_url:
        refuse_several_workers()  # the embedded store: one process (embedded_guard.py)
        if not settings.secret_key:
            # Its generated secret outlives the process in a local file (adapters/secret_file.py), read
            # now: a file that cannot be read stops the start rather than every saved snapshot later.
            # None (said in the log) when the folder cannot hold it: the store generates one, as before.
            if kept := secret_file.load_or_create(settings.data_dir):
                app.extensions[SECRET_STORE] = kept
    # The store every view reaches (requests.store()), timed and logged by the observing adapter.
    app.extensions["melee.store"] = observed(
        store
        or connect(
            settings.redis_url,
            settings.combat_ttl_seconds,
            settings.redis_timeout_seconds,
            settings.redis_ssl_cert_reqs,
            settings.max_actions_per_combat,
            settings.max_snapshot_age_days * 86400,
        )
    )
    cors.init_app(app, settings.cors_origins, settings.cors_private_network)
    stream.init_app(app)
    rest_api = api.init_app(app, settings.retry_after_seconds)
    app.register_blueprint(web.blp)
    rest_api.register_blueprint(integrations.blp)  # the VTT modules, in the OpenAPI document
    limits.init_app(app, settings.rate_limit, settings.redis_url)
    bodies.init_app(app)  # after the limiter: a refused body still counts against the client
    headers.init_app(app, settings.frame_ancestors)
    budget.init_app(app, settings)
    init_observability(app, settings)
    return app
