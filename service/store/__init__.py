"""Storage adapters: Redis (or its in-process stand-in) behind one interface."""

from __future__ import annotations

import logging

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from .cluster import cluster_client, is_cluster_url
from .combats import DEFAULT_MAX_ACTIONS, DEFAULT_REVOCATION_TTL, CombatStore

__all__ = ["CombatStore", "connect"]

log = logging.getLogger(__name__)


def connect(
    redis_url: str | None,
    ttl_seconds: int,
    timeout_seconds: float = 2.0,
    ssl_cert_reqs: str | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    revocation_ttl_seconds: int = DEFAULT_REVOCATION_TTL,
) -> CombatStore:
    """A store on ``redis_url``, or on an in-process fakeredis when it is empty.

    ``redis+cluster://`` URLs use Redis Cluster (cluster.py). ``rediss://``
    URLs connect with TLS; ``ssl_cert_reqs`` ("required", "optional", "none")
    relaxes certificate checks for add-ons that serve self-signed
    certificates (Heroku Redis). ``revocation_ttl_seconds``: how long a
    combat's revoked tokens are remembered (MAX_SNAPSHOT_AGE_DAYS).
    Nothing connects until the first command.
    """
    if redis_url:
        options = {
            "socket_timeout": timeout_seconds,
            "socket_connect_timeout": timeout_seconds,
            "health_check_interval": 30,
            # No automatic retries: reads retry in the store, writes never blindly.
            "retry": Retry(NoBackoff(), 0),
        }
        if ssl_cert_reqs and redis_url.startswith(("rediss://", "rediss+cluster://")):
            options["ssl_cert_reqs"] = ssl_cert_reqs
        if is_cluster_url(redis_url):
            return CombatStore(cluster_client(redis_url, **options), ttl_seconds, max_actions, revocation_ttl_seconds)
        return CombatStore(redis.Redis.from_url(redis_url, **options), ttl_seconds, max_actions, revocation_ttl_seconds)
    import fakeredis

    log.warning(
        "REDIS_URL is not set: combats live in this process's memory (embedded store). "
        "Run a single worker (threads are fine) and set REDIS_URL to scale out or keep combats across restarts."
    )
    return CombatStore(
        fakeredis.FakeRedis(server=fakeredis.FakeServer()), ttl_seconds, max_actions, revocation_ttl_seconds
    )
