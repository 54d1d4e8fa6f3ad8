"""The compute budget: costly requests draw compute units from their client's allowance.

``/odds`` and ``/simulations`` cost far more CPU than any other request and
their cost is known before they run: one unit per Monte Carlo run or
dice-tree leaf the request allows, ``FIGHT_UNITS`` per simulated fight (see
each endpoint's ``compute_cost``). ``COMPUTE_LIMIT`` ("200000 per minute")
caps the units per client (the same client as the rate limits: a verified
credential, else the address), counted in Redis for every worker. A client
over it gets a 429 with Retry-After; nothing is computed and nothing is
charged. Measured costs and the reasoning: docs/security.md.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from flask import Flask, request
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from . import bodies
from .limits import client_key
from .problems import problem

log = logging.getLogger(__name__)

# A simulated fight, in units: fights take 0.4 ms (sistema-2d6) to 8 ms
# (duel-2d6) where a Monte Carlo run takes 0.1 to 0.3 ms (docs/security.md).
FIGHT_UNITS = 10


def requested(body: dict, name: str, default: int, high: int) -> int:
    """A whole number the body asks for, within 0..high; the default when absent or not one."""
    value = body.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool):
        value = default
    return max(0, min(value, high))


class ComputeBudget:
    def __init__(self, compute_limit: str, redis_url: str | None):
        self.items = parse_many(compute_limit)
        storage = storage_from_string(redis_url or "memory://", **({"socket_timeout": 1, "socket_connect_timeout": 1} if redis_url else {}))
        self.window = FixedWindowRateLimiter(storage)

    def charge(self, client: str, cost: int) -> int | None:
        """Charge ``cost`` units; None when done, else the seconds to wait (nothing charged)."""
        try:
            refused = [item for item in self.items if not self.window.test(item, "compute", client, cost=cost)]
            if refused:
                reset = max(self.window.get_window_stats(item, "compute", client).reset_time for item in refused)
                return max(1, math.ceil(reset - time.time()))
            for item in self.items:
                self.window.hit(item, "compute", client, cost=cost)
        except Exception:  # Redis down: serve, as the rate limits do (the store answers 503 anyway)
            log.warning("compute budget storage unavailable; not counted", exc_info=True)
        return None


def init_app(app: Flask, compute_limit: str, redis_url: str | None, costs: dict[str, Callable[[dict], int]]) -> None:
    """``costs``: endpoint name -> the units a request body costs (any JSON; a bad body costs its defaults)."""
    if not compute_limit:
        return
    budget = ComputeBudget(compute_limit, redis_url)
    app.extensions["melee.compute_budget"] = budget

    @app.before_request
    def charge_compute():
        cost_of = costs.get(request.endpoint)
        if cost_of is None or request.method != "POST":
            return None
        try:
            body = bodies.parse(request.get_data(cache=True))
        except bodies.UnusableJson:
            return None  # the body check answers 400
        cost = cost_of(body if isinstance(body, dict) else {})
        wait = budget.charge(client_key(), cost)
        if wait is None:
            return None
        return problem(
            429,
            "compute-budget-exhausted",
            "Compute budget exhausted",
            f"this request costs {cost} compute units and this client's allowance ({'; '.join(map(str, budget.items))}) "
            f"has fewer left; retry in {wait} s, or ask for fewer runs or fights",
            headers={"Retry-After": str(wait)},
            cost=cost,
        )
