"""Configuration, from the environment (12-factor), in one object.

Every variable is listed in the README's configuration table.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar


class SettingsError(ValueError):
    pass


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw in (None, ""):
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not a whole number") from None
    if not low <= value <= high:
        raise SettingsError(f"{name}={value} must be between {low} and {high}")
    return value


def _float(env: Mapping[str, str], name: str, default: float, high: float) -> float:
    raw = env.get(name)
    if raw in (None, ""):
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not a number") from None
    # float() takes "nan" and "inf": a timeout of either makes every Redis call fail.
    if not (math.isfinite(value) and 0 < value <= high):
        raise SettingsError(f"{name}={raw!r} must be a number of seconds above 0 and at most {high:g}")
    return value


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in ("", "0", "false", "no", "off"):
        return False
    if raw in ("1", "true", "yes", "on"):
        return True
    raise SettingsError(f"{name}={env[name]!r} must be 1 or 0 (true or false)")


# The most compute units one request may cost (service/usecases/budget.py). A
# smaller COMPUTE_LIMIT would refuse such a request forever.
from .usecases.budget import MAX_REQUEST_UNITS  # noqa: E402


def _rate(env: Mapping[str, str], name: str, default: str, at_least: int = 1) -> str:
    """A flask-limiter rate ("600 per minute", "10/second;600/hour"), or empty: off."""
    raw = env.get(name, default).strip()
    if raw:
        from limits import parse_many

        try:
            items = parse_many(raw)
        except ValueError:
            raise SettingsError(
                f"{name}={raw!r} is not a rate such as '600 per minute' "
                "(several: '10 per second; 600 per minute'); empty turns it off"
            ) from None
        if min(item.amount for item in items) < at_least:
            raise SettingsError(
                f"{name}={raw!r} must allow at least {at_least} per period: the largest request costs that"
            )
    return raw


_ORIGIN = re.compile(r"^https?://[^/\s]+$")
_REDIS_SCHEMES = ("redis://", "rediss://", "unix://", "redis+cluster://", "rediss+cluster://")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _origins(env: Mapping[str, str]) -> tuple[str, ...]:
    origins = tuple(o.strip() for o in env.get("CORS_ORIGINS", "*").split(",") if o.strip())
    for origin in origins:
        if origin != "*" and not _ORIGIN.match(origin):
            raise SettingsError(
                f"CORS_ORIGINS: {origin!r} is not an origin such as https://vtt.example (scheme and host, no path) or *"
            )
    return origins


_FRAME_ORIGIN = re.compile(r"^https?://(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?$")


def _frame_ancestors(env: Mapping[str, str]) -> tuple[str, ...]:
    """The origins allowed to embed /play and /docs (CSP frame-ancestors), space-separated."""
    origins = tuple(env.get("FRAME_ANCESTORS", "").split())
    for origin in origins:
        if not _FRAME_ORIGIN.match(origin):
            raise SettingsError(
                f"FRAME_ANCESTORS: {origin!r} is not an origin such as https://www.owlbear.rodeo or "
                "https://*.example.com (scheme and host, an optional port, no path; several: separated by spaces)"
            )
    return origins


_PUBLIC_URL = re.compile(r"^https?://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:[0-9]{1,5})?(/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*)?$")


def _public_url(env: Mapping[str, str]) -> str | None:
    """The address users reach this deployment at (PUBLIC_URL), without a trailing slash."""
    raw = env.get("PUBLIC_URL", "").strip()
    if not raw:
        return None
    if not _PUBLIC_URL.match(raw):
        raise SettingsError(
            f"PUBLIC_URL: {raw!r} is not an address such as https://melee.example.org or "
            "https://example.org/melee (http or https, a host, an optional port and path; no query or fragment)"
        )
    return raw.rstrip("/")


def _redis_url(env: Mapping[str, str]) -> str | None:
    url = env.get("REDIS_URL") or None
    if url is not None and not url.startswith(_REDIS_SCHEMES):
        raise SettingsError(f"REDIS_URL must start with one of {', '.join(_REDIS_SCHEMES)}")
    return url


def resolve_data_dir(env: Mapping[str, str]) -> str:
    """The local folder of the embedded default's generated server secret (service/adapters/secret_file.py):
    MELEE_DATA_DIR, else $XDG_DATA_HOME/melee (an absolute XDG_DATA_HOME only, as the XDG specification
    says), else ~/.local/share/melee."""
    chosen = env.get("MELEE_DATA_DIR", "").strip()
    if chosen:
        return chosen
    xdg = env.get("XDG_DATA_HOME", "").strip()
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "melee")
    return str(Path.home() / ".local" / "share" / "melee")


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str | None:
    raw = env.get(name)
    if raw in (None, ""):
        return None
    for choice in choices:
        if raw.strip().lower() == choice.lower():
            return choice
    raise SettingsError(f"{name}={raw!r} must be one of {', '.join(choices)}")


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None
    combat_ttl_seconds: int = 86400
    redis_timeout_seconds: float = 2.0
    cors_origins: tuple[str, ...] = field(default_factory=lambda: ("*",))
    # Answer Private Network Access preflights with Allow-Private-Network: true (CORS_PRIVATE_NETWORK).
    cors_private_network: bool = False
    # Origins that may embed /play and /docs in a frame (FRAME_ANCESTORS); none: no framing at all.
    frame_ancestors: tuple[str, ...] = ()
    # The address users reach this deployment at (PUBLIC_URL): the VTT modules' install URLs are
    # made from it; None: from each request's own URL (service/web/integrations.py).
    public_url: str | None = None
    max_body_bytes: int = 64 * 1024
    retry_after_seconds: int = 5
    # Requests per client (verified credential, else address), all endpoints together.
    rate_limit: str = "600 per minute"
    # Compute units per client: /odds and /simulations charge one per Monte
    # Carlo run, dice-tree leaf or simulated fight (docs/security.md).
    compute_limit: str = "200000 per minute"
    # /odds and /simulations requests one worker computes at once; more get
    # 503 and Retry-After, so that live play keeps the other threads.
    costly_requests_per_worker: int = 1
    api_keys: tuple[str, ...] = ()
    # Seals the tokens a retried creation shows again and the snapshots; unset, a
    # generated secret is kept in Redis, or without Redis in data_dir's server-secret
    # file (docs/operations.md#the-server-secret). The same in every process.
    secret_key: str = ""
    # Former secrets (SECRET_KEY_FALLBACKS, comma-separated): snapshots and
    # sealed records they sealed still open, so SECRET_KEY can be rotated.
    secret_key_fallbacks: tuple[str, ...] = ()
    # Where the embedded default (no REDIS_URL) keeps the secret it generates when SECRET_KEY is
    # not set, so that snapshots open after a restart (MELEE_DATA_DIR; docs/operations.md).
    data_dir: str = field(default_factory=lambda: resolve_data_dir(os.environ))
    # The largest body POST /combats takes to restore a snapshot (MAX_SNAPSHOT_BYTES).
    max_snapshot_bytes: int = 2 * 1024 * 1024
    # How old a snapshot may be to restore (MAX_SNAPSHOT_AGE_DAYS), and so how long a
    # combat's revoked tokens are remembered after its last revocation (docs/security.md).
    max_snapshot_age_days: int = 30
    # Idempotency-Key records (docs/operations.md): how long an action's is
    # kept, how long a creation's (and so its tokens) may be shown again.
    idempotency_ttl_seconds: int = 86400
    creation_replay_seconds: int = 600
    # Actions one combat takes at most; past it, 409 action-limit-reached.
    max_actions_per_combat: int = 1000
    log_level: str = "INFO"
    # Operations (docs/operations.md).
    proxy_fix_hops: int = 0
    redis_ssl_cert_reqs: str | None = None
    prometheus_multiproc_dir: str | None = None
    sentry_dsn: str | None = None
    git_commit: str | None = None
    # What /version shows of the commit: its first 7 characters, all, or nothing.
    version_commit: str = "short"
    # /metrics: with a token, only for "Authorization: Bearer <token>"; else
    # only when declared public (a private network); else not served.
    metrics_token: str = ""
    metrics_public: bool = False
    test_slow_endpoint: bool = False
    # Event streams and waiting long polls one worker holds at once, in all,
    # for one token and for one client address (docs/operations.md).
    max_streams_per_worker: int = 1000
    max_streams_per_token: int = 8
    max_streams_per_address: int = 64
    # Simulation jobs (docs/simulations.md): the RQ queue the web fills and
    # the worker processes empty, and how often a worker says it is alive.
    simulation_queue: str = "melee-simulations"
    # The most chunks waiting on that queue, every client together: a job that
    # would pass it gets a 503 simulation-queue-full with Retry-After.
    simulation_queue_max_chunks: int = 40
    worker_heartbeat_seconds: int = 10

    # Every environment variable from_env reads (a test keeps this list true;
    # the deployment manifests are checked against it).
    ENVIRONMENT: ClassVar[tuple[str, ...]] = (
        "REDIS_URL",
        "COMBAT_TTL_SECONDS",
        "REDIS_TIMEOUT_SECONDS",
        "CORS_ORIGINS",
        "CORS_PRIVATE_NETWORK",
        "FRAME_ANCESTORS",
        "PUBLIC_URL",
        "MAX_BODY_BYTES",
        "RETRY_AFTER_SECONDS",
        "RATE_LIMIT",
        "COMPUTE_LIMIT",
        "COSTLY_REQUESTS_PER_WORKER",
        "API_KEYS",
        "SECRET_KEY",
        "SECRET_KEY_FALLBACKS",
        "MELEE_DATA_DIR",
        "XDG_DATA_HOME",
        "MAX_SNAPSHOT_BYTES",
        "MAX_SNAPSHOT_AGE_DAYS",
        "IDEMPOTENCY_TTL_SECONDS",
        "CREATION_REPLAY_SECONDS",
        "MAX_ACTIONS_PER_COMBAT",
        "LOG_LEVEL",
        "PROXY_FIX_HOPS",
        "REDIS_SSL_CERT_REQS",
        "PROMETHEUS_MULTIPROC_DIR",
        "SENTRY_DSN",
        "GIT_COMMIT",
        "SOURCE_VERSION",
        "RENDER_GIT_COMMIT",
        "VERSION_COMMIT",
        "METRICS_TOKEN",
        "METRICS_PUBLIC",
        "MELEE_TEST_SLOW_ENDPOINT",
        "MAX_STREAMS_PER_WORKER",
        "MAX_STREAMS_PER_TOKEN",
        "MAX_STREAMS_PER_ADDRESS",
        "SIMULATION_QUEUE",
        "SIMULATION_QUEUE_MAX_CHUNKS",
        "WORKER_HEARTBEAT_SECONDS",
    )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            redis_url=_redis_url(env),
            combat_ttl_seconds=_int(env, "COMBAT_TTL_SECONDS", 86400, 60, 90 * 86400),
            redis_timeout_seconds=_float(env, "REDIS_TIMEOUT_SECONDS", 2.0, 60.0),
            cors_origins=_origins(env),
            cors_private_network=_flag(env, "CORS_PRIVATE_NETWORK"),
            frame_ancestors=_frame_ancestors(env),
            public_url=_public_url(env),
            max_body_bytes=_int(env, "MAX_BODY_BYTES", 64 * 1024, 1024, 16 * 1024 * 1024),
            retry_after_seconds=_int(env, "RETRY_AFTER_SECONDS", 5, 1, 3600),
            rate_limit=_rate(env, "RATE_LIMIT", cls.rate_limit),
            compute_limit=_rate(env, "COMPUTE_LIMIT", cls.compute_limit, at_least=MAX_REQUEST_UNITS),
            costly_requests_per_worker=_int(env, "COSTLY_REQUESTS_PER_WORKER", cls.costly_requests_per_worker, 1, 64),
            api_keys=tuple(k.strip() for k in env.get("API_KEYS", "").split(",") if k.strip()),
            secret_key=env.get("SECRET_KEY", ""),
            secret_key_fallbacks=tuple(k.strip() for k in env.get("SECRET_KEY_FALLBACKS", "").split(",") if k.strip()),
            data_dir=resolve_data_dir(env),
            max_snapshot_bytes=_int(env, "MAX_SNAPSHOT_BYTES", 2 * 1024 * 1024, 64 * 1024, 64 * 1024 * 1024),
            max_snapshot_age_days=_int(env, "MAX_SNAPSHOT_AGE_DAYS", 30, 1, 365),
            idempotency_ttl_seconds=_int(env, "IDEMPOTENCY_TTL_SECONDS", 86400, 60, 90 * 86400),
            creation_replay_seconds=_int(env, "CREATION_REPLAY_SECONDS", 600, 10, 86400),
            max_actions_per_combat=_int(env, "MAX_ACTIONS_PER_COMBAT", 1000, 10, 1_000_000),
            log_level=_choice(env, "LOG_LEVEL", LOG_LEVELS) or "INFO",
            proxy_fix_hops=_int(env, "PROXY_FIX_HOPS", 0, 0, 10),
            redis_ssl_cert_reqs=_choice(env, "REDIS_SSL_CERT_REQS", ("required", "optional", "none")),
            prometheus_multiproc_dir=env.get("PROMETHEUS_MULTIPROC_DIR") or None,
            sentry_dsn=env.get("SENTRY_DSN") or None,
            # The platforms' own names for the commit being run: Heroku's
            # SOURCE_VERSION, Render's RENDER_GIT_COMMIT.
            git_commit=env.get("GIT_COMMIT") or env.get("SOURCE_VERSION") or env.get("RENDER_GIT_COMMIT") or None,
            version_commit=_choice(env, "VERSION_COMMIT", ("short", "full", "none")) or cls.version_commit,
            metrics_token=env.get("METRICS_TOKEN", "").strip(),
            metrics_public=_flag(env, "METRICS_PUBLIC"),
            # Tests only: GET /_test/slow, to have a request in flight at SIGTERM.
            test_slow_endpoint=env.get("MELEE_TEST_SLOW_ENDPOINT") == "1",
            max_streams_per_worker=_int(env, "MAX_STREAMS_PER_WORKER", 1000, 0, 100_000),
            max_streams_per_token=_int(env, "MAX_STREAMS_PER_TOKEN", 8, 0, 100_000),
            max_streams_per_address=_int(env, "MAX_STREAMS_PER_ADDRESS", 64, 0, 100_000),
            simulation_queue=env.get("SIMULATION_QUEUE", "").strip() or "melee-simulations",
            worker_heartbeat_seconds=_int(env, "WORKER_HEARTBEAT_SECONDS", 10, 1, 600),
            simulation_queue_max_chunks=_int(env, "SIMULATION_QUEUE_MAX_CHUNKS", 40, 1, 100_000),
        )
