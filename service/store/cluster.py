"""Redis Cluster URLs: ``redis+cluster://host:port[,host:port...]/``.

The scheme is the one flask-limiter's storage (the ``limits`` library)
already understands, so one ``REDIS_URL`` serves both the combats and the
rate limits. ``rediss+cluster://`` is the TLS variant. Any node listed is a
startup node: the client discovers the others and follows MOVED/ASK.
Every key of a combat shares the hash tag ``{<id>}`` (keys.py), so each
Lua script and transaction touches one slot.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

from redis.cluster import ClusterNode, RedisCluster

# What the store talks to: a redis.Redis, or a RedisCluster (same commands, a combat's keys in one slot).
# Any to mypy: redis-py types every reply ``Awaitable[Any] | Any`` (one signature for its sync and
# async clients), so a typed client would take a cast at every read for no check gained.
RedisClient = Any

CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")


def is_cluster_url(url: str) -> bool:
    return url.split("://", 1)[0] in CLUSTER_SCHEMES


def cluster_client(url: str, **options: Any) -> RedisCluster:
    scheme, rest = url.split("://", 1)
    netloc, _, _ = rest.partition("/")
    credentials, _, hosts = netloc.rpartition("@")
    nodes = []
    for host in hosts.split(","):
        parsed = urlsplit(f"//{host}")
        nodes.append(ClusterNode(parsed.hostname or "localhost", parsed.port or 6379))  # type: ignore[no-untyped-call]  # redis-py leaves it unannotated
    if credentials:
        user, _, password = credentials.partition(":")
        options.update(username=unquote(user) or None, password=unquote(password) or None)
    if scheme == "rediss+cluster":
        options["ssl"] = True
    return RedisCluster(startup_nodes=nodes, **options)
