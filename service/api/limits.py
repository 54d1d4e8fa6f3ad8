"""Rate limits per client, counted in Redis so that every worker shares them.

A client is a credential the service has verified, else its address: an API
key from ``API_KEYS``, or a token of the combat the request is about. Any
other ``Authorization`` or ``X-API-Key`` value is ignored, so making one up
per request gains nothing. One limit (``RATE_LIMIT``) covers all endpoints
together; the costly ones also draw on ``COMPUTE_LIMIT`` (see ``cost``).
"""

from __future__ import annotations

import hashlib
import hmac

from flask import Flask, current_app, g, request
from flask_limiter import HeaderNames, Limiter
from flask_limiter.util import get_remote_address

from ..store import StoreUnavailable
from .access import bearer_token, digest

UNLIMITED_PREFIXES = ("/healthz", "/readyz", "/docs", "/openapi.json", "/problems/", "/metrics")


def _verified_credential() -> str | None:
    """``apikey:...`` or ``token:...`` (digests: the limiter never holds a credential), or None."""
    settings = current_app.extensions["melee.settings"]
    offered = request.headers.get("X-API-Key") or bearer_token()
    if not offered:
        return None
    if any(hmac.compare_digest(offered.encode(), key.encode()) for key in settings.api_keys):
        return "apikey:" + hashlib.sha256(offered.encode()).hexdigest()[:32]
    combat_id = (request.view_args or {}).get("combat_id")
    token = bearer_token()
    if combat_id and token:
        token_digest = digest(token)
        try:
            if current_app.extensions["melee.store"].holds_grant(combat_id, token_digest):
                return "token:" + token_digest[:32]
        except StoreUnavailable:
            return None  # counted by address; the request itself answers 503
    return None


def client_key() -> str:
    if "melee_client_key" not in g:
        g.melee_client_key = _verified_credential() or "ip:" + (get_remote_address() or "unknown")
    return g.melee_client_key


def init_app(app: Flask, rate_limit: str, redis_url: str | None) -> Limiter | None:
    if not rate_limit:
        return None
    limiter = Limiter(
        key_func=client_key,
        app=app,
        # Application limits count every endpoint together (default limits
        # would count each endpoint apart).
        application_limits=[rate_limit],
        storage_uri=redis_url or "memory://",
        storage_options={"socket_timeout": 1, "socket_connect_timeout": 1} if redis_url else {},
        headers_enabled=True,
        # The limiter would set Retry-After on every response, even a 503's
        # own; it gets its own name and 429s get Retry-After from the handler.
        header_name_mapping={HeaderNames.RETRY_AFTER: "X-RateLimit-Retry-After"},
        # If Redis fails, serve rather than fail: the store answers 503 anyway.
        swallow_errors=True,
        key_prefix="melee-limits",
    )

    @limiter.request_filter
    def unlimited() -> bool:
        return request.method == "OPTIONS" or request.path.startswith(UNLIMITED_PREFIXES)

    return limiter


def retry_after(error) -> str | None:
    """Seconds a rate-limited client should wait: the window of the limit hit."""
    limit = getattr(error, "limit", None)
    return str(limit.limit.get_expiry()) if limit is not None else None
