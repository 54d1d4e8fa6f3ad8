"""Rate limits per client, counted in Redis so that every worker shares them.

A client is a credential the service has verified, else its address: an API
key from ``API_KEYS``, or a token of the combat the request is about. Any
other ``Authorization`` or ``X-API-Key`` value is ignored, so making one up
per request gains nothing. One limit (``RATE_LIMIT``) covers all endpoints
together; the costly ones also draw on ``COMPUTE_LIMIT`` (see ``cost``).

A combat token found to open its combat is remembered by the worker for
``VERIFIED_SECONDS``: the limiter asks before every request, and one Redis
round trip per request only to name the client doubled what an action
spends talking to Redis. A token revoked meanwhile is still counted under
its own name that long; what the request may do is decided by the view,
which checks the token in Redis every time.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from flask import Flask, current_app, g, request
from flask_limiter import HeaderNames, Limiter
from flask_limiter.util import get_remote_address

from ..usecases.port_errors import StoreUnavailable
from .access import bearer_token, digest

UNLIMITED_PREFIXES = ("/healthz", "/readyz", "/docs", "/openapi.json", "/problems/", "/metrics")
VERIFIED_SECONDS = 30
MAX_REMEMBERED = 10_000  # (combat, token digest) pairs per worker; then forgotten at once


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
        if _holds_grant(combat_id, token_digest):
            return "token:" + token_digest[:32]
    return None


def _holds_grant(combat_id: str, token_digest: str) -> bool:
    """Whether the token opens the combat: remembered for VERIFIED_SECONDS once it did."""
    remembered: dict[tuple[str, str], float] = current_app.extensions.setdefault("melee.verified_tokens", {})
    now = time.monotonic()
    if remembered.get((combat_id, token_digest), 0.0) > now:
        return True
    try:
        held = current_app.extensions["melee.store"].holds_grant(combat_id, token_digest)
    except StoreUnavailable:
        return False  # counted by address; the request itself answers 503
    if held:
        if len(remembered) >= MAX_REMEMBERED:
            remembered.clear()
        remembered[combat_id, token_digest] = now + VERIFIED_SECONDS
    return held


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
