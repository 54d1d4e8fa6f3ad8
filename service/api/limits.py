"""Rate limits per client: its API key or bearer token when it sends one,
else its address. Counters live in Redis, so every worker shares them."""

from __future__ import annotations

import hashlib

from flask import Flask, request
from flask_limiter import HeaderNames, Limiter
from flask_limiter.util import get_remote_address

UNLIMITED_PREFIXES = ("/healthz", "/readyz", "/docs", "/openapi.json", "/problems/", "/metrics")


def client_key() -> str:
    credential = request.headers.get("Authorization") or request.headers.get("X-API-Key")
    if credential:
        # A digest: the limiter's keys never hold a usable credential.
        return "key:" + hashlib.sha256(credential.encode()).hexdigest()[:32]
    return "ip:" + (get_remote_address() or "unknown")


def init_app(app: Flask, rate_limit: str, redis_url: str | None) -> Limiter | None:
    if not rate_limit:
        return None
    limiter = Limiter(
        key_func=client_key,
        app=app,
        default_limits=[rate_limit],
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
