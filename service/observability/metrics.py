"""Prometheus metrics, served at ``GET /metrics``.

With several gunicorn workers each worker counts in its own process, so
``PROMETHEUS_MULTIPROC_DIR`` must name a writable directory, set before the
workers start: prometheus_client then keeps every worker's values in files
there and ``/metrics`` sums them (deploy/gunicorn.conf.py empties the
directory at start and calls ``mark_process_dead`` when a worker exits).
Without the variable the process's own registry is served (one worker).

``/metrics`` is not public by default: with ``METRICS_TOKEN`` it answers that
bearer token only; else only with ``METRICS_PUBLIC=1`` (a private network).

The metric objects are module globals: prometheus_client registers each
name once per process, and every app built in the process shares them.
"""

from __future__ import annotations

import hmac
import time
from typing import Any

from flask import Flask, Response, abort, request
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from ..proxied import current_g, current_request
from .logs import UNMATCHED

HTTP_REQUESTS = Counter(
    "melee_http_requests_total",
    "HTTP requests answered, by method, route (URL rule) and status.",
    ["method", "route", "status"],
)
HTTP_LATENCY = Histogram(
    "melee_http_request_duration_seconds",
    "Time to answer an HTTP request, by method, route and status.",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
ACTIONS = Counter("melee_actions_total", "Actions applied to combats, by ruleset and action type.", ["ruleset", "type"])
REDIS_UNAVAILABLE = Counter(
    "melee_redis_unavailable_total",
    "Store operations that failed because Redis did not answer (each one a 503 store-unavailable), by operation.",
    ["operation"],
)
REDIS_LATENCY = Histogram(
    "melee_redis_command_duration_seconds",
    "Time of one store operation against Redis (one round trip: a command, a script or a pipeline), by operation.",
    ["operation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
ACTIVE_STREAMS = Gauge(
    "melee_active_streams", "Event streams open now (summed over live workers).", multiprocess_mode="livesum"
)

# Label values come from a fixed set: a client cannot grow the series.
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

# The CombatStore methods that talk to Redis, each a single round trip.
STORE_OPERATIONS = (
    "ping",
    "create",
    "load",
    "load_with_grant",
    "commit",
    "log",
    "delete",
    "reserve",
    "forget",
    "grants",
    "holds_grant",
    "add_grant",
    "remove_grant",
    "export_combat",
    "import_combat",
)


# Each series' child, once looked up: prometheus_client's labels() checks and
# locks on every call, a dict lookup does not (the label values are bounded:
# fixed methods, URL rules, status codes, rulesets and their action types).
_action_counters: dict[tuple[str, str], Any] = {}
_request_meters: dict[tuple[str, str, str], tuple[Any, Any]] = {}


def action_applied(ruleset: str, action_type: str) -> None:
    counter = _action_counters.get((ruleset, action_type))
    if counter is None:
        counter = _action_counters[ruleset, action_type] = ACTIONS.labels(ruleset=ruleset, type=action_type)
    counter.inc()


def render(multiproc_dir: str | None) -> bytes:
    if multiproc_dir:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=multiproc_dir)
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def _scrape_allowed(token: str, public: bool) -> bool:
    """With a token, only its bearer; without one, anyone when declared public, else no one."""
    if token:
        offered = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        return hmac.compare_digest(offered.encode(), token.encode())
    return public


def init_app(app: Flask, multiproc_dir: str | None, token: str = "", public: bool = False) -> None:
    # Export the error series as 0 from the start (ACTIVE_STREAMS, without
    # labels, already is).
    for operation in STORE_OPERATIONS:
        REDIS_UNAVAILABLE.labels(operation=operation)

    @app.after_request
    def count_request(response):
        started = current_g().get("melee_started")
        req = current_request()  # once, not through the proxy each time (proxied.py)
        method = req.method if req.method in _METHODS else "OTHER"
        rule = req.url_rule
        key = (method, rule.rule if rule is not None else UNMATCHED, str(response.status_code))
        meters = _request_meters.get(key)
        if meters is None:
            labels = dict(zip(("method", "route", "status"), key, strict=True))
            meters = _request_meters[key] = (HTTP_REQUESTS.labels(**labels), HTTP_LATENCY.labels(**labels))
        meters[0].inc()
        if started is not None:
            meters[1].observe(time.perf_counter() - started)
        return response

    @app.get("/metrics")
    def metrics():
        if not _scrape_allowed(token, public):
            # Not found rather than 401: a scanner learns nothing (docs/operations.md).
            abort(404)
        return Response(render(multiproc_dir), content_type=CONTENT_TYPE_LATEST)
