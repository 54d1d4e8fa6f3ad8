"""Configuration, from the environment (12-factor), in one object.

Every variable is listed in the README's configuration table.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
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


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw in (None, ""):
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not a number") from None
    if value <= 0:
        raise SettingsError(f"{name} must be positive")
    return value


def _choice(env: Mapping[str, str], name: str, choices: tuple[str, ...]) -> str | None:
    raw = env.get(name)
    if raw in (None, ""):
        return None
    if raw.lower() not in choices:
        raise SettingsError(f"{name}={raw!r} must be one of {', '.join(choices)}")
    return raw.lower()


@dataclass(frozen=True)
class Settings:
    redis_url: str | None = None
    combat_ttl_seconds: int = 86400
    redis_timeout_seconds: float = 2.0
    cors_origins: tuple[str, ...] = field(default_factory=lambda: ("*",))
    max_body_bytes: int = 64 * 1024
    retry_after_seconds: int = 5
    rate_limit: str = "600 per minute"
    api_keys: tuple[str, ...] = ()
    # Optional pepper in the tokens a retried creation shows again; when set,
    # the same value in every process (docs/security.md).
    secret_key: str = ""
    log_level: str = "INFO"
    # Operations (docs/operations.md).
    proxy_fix_hops: int = 0
    redis_ssl_cert_reqs: str | None = None
    prometheus_multiproc_dir: str | None = None
    sentry_dsn: str | None = None
    git_commit: str | None = None
    test_slow_endpoint: bool = False
    # Event streams and waiting long polls one worker holds at once, each on
    # one of its GUNICORN_THREADS; keep it below that (docs/operations.md).
    max_streams_per_worker: int = 16
    # Simulation jobs (docs/simulations.md): the RQ queue the web fills and
    # the worker processes empty, and how often a worker says it is alive.
    simulation_queue: str = "melee-simulations"
    worker_heartbeat_seconds: int = 10

    # Every environment variable from_env reads (a test keeps this list true;
    # the deployment manifests are checked against it).
    ENVIRONMENT: ClassVar[tuple[str, ...]] = (
        "REDIS_URL",
        "COMBAT_TTL_SECONDS",
        "REDIS_TIMEOUT_SECONDS",
        "CORS_ORIGINS",
        "MAX_BODY_BYTES",
        "RETRY_AFTER_SECONDS",
        "RATE_LIMIT",
        "API_KEYS",
        "SECRET_KEY",
        "LOG_LEVEL",
        "PROXY_FIX_HOPS",
        "REDIS_SSL_CERT_REQS",
        "PROMETHEUS_MULTIPROC_DIR",
        "SENTRY_DSN",
        "GIT_COMMIT",
        "SOURCE_VERSION",
        "RENDER_GIT_COMMIT",
        "MELEE_TEST_SLOW_ENDPOINT",
        "MAX_STREAMS_PER_WORKER",
        "SIMULATION_QUEUE",
        "WORKER_HEARTBEAT_SECONDS",
    )

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        origins = tuple(o.strip() for o in env.get("CORS_ORIGINS", "*").split(",") if o.strip())
        return cls(
            redis_url=env.get("REDIS_URL") or None,
            combat_ttl_seconds=_int(env, "COMBAT_TTL_SECONDS", 86400, 60, 90 * 86400),
            redis_timeout_seconds=_float(env, "REDIS_TIMEOUT_SECONDS", 2.0),
            cors_origins=origins,
            max_body_bytes=_int(env, "MAX_BODY_BYTES", 64 * 1024, 1024, 16 * 1024 * 1024),
            retry_after_seconds=_int(env, "RETRY_AFTER_SECONDS", 5, 1, 3600),
            rate_limit=env.get("RATE_LIMIT", "600 per minute").strip(),
            api_keys=tuple(k.strip() for k in env.get("API_KEYS", "").split(",") if k.strip()),
            secret_key=env.get("SECRET_KEY", ""),
            log_level=env.get("LOG_LEVEL", "INFO").upper(),
            proxy_fix_hops=_int(env, "PROXY_FIX_HOPS", 0, 0, 10),
            redis_ssl_cert_reqs=_choice(env, "REDIS_SSL_CERT_REQS", ("required", "optional", "none")),
            prometheus_multiproc_dir=env.get("PROMETHEUS_MULTIPROC_DIR") or None,
            sentry_dsn=env.get("SENTRY_DSN") or None,
            # The platforms' own names for the commit being run: Heroku's
            # SOURCE_VERSION, Render's RENDER_GIT_COMMIT.
            git_commit=env.get("GIT_COMMIT") or env.get("SOURCE_VERSION") or env.get("RENDER_GIT_COMMIT") or None,
            # Tests only: GET /_test/slow, to have a request in flight at SIGTERM.
            test_slow_endpoint=env.get("MELEE_TEST_SLOW_ENDPOINT") == "1",
            max_streams_per_worker=_int(env, "MAX_STREAMS_PER_WORKER", 16, 0, 10_000),
            simulation_queue=env.get("SIMULATION_QUEUE", "").strip() or "melee-simulations",
            worker_heartbeat_seconds=_int(env, "WORKER_HEARTBEAT_SECONDS", 10, 1, 600),
        )
