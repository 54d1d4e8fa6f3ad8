"""Costly requests: at most a few at once per worker, and a compute budget per client.

``/odds`` and ``/simulations`` cost far more CPU than any other request.
A worker computes at most ``COSTLY_REQUESTS_PER_WORKER`` (1) of them at once;
more get a 503 with Retry-After, so the worker's other threads keep serving
live play. And their cost is known before they run: the use cases compute it
(service/usecases/budget.py: the branches of the odds weighted by the combat's
size, the fights of a simulation times the measured cost of one fight of its
ruleset and size). ``COMPUTE_LIMIT`` ("200000 per minute")
caps the units per client (the same client as the rate limits: a verified
credential, else the address), counted in Redis for every worker. A client
over it gets a 429 with Retry-After; nothing is computed and nothing is
charged. A simulation job is charged once its runner took it: a job refused
(the queue full, the process busy) is charged nothing. Measured costs and
the reasoning: docs/security.md. The counters themselves (ComputeBudget,
Slots, offload) are service/adapters/compute.py; this module turns them into
HTTP answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

from flask import Flask, abort, current_app

from ..adapters.compute import ComputeBudget, Slots, offload
from ..rules.errors import refusal
from .limits import client_key
from .problems import problem

Result = TypeVar("Result")


def init_app(app: Flask, settings) -> None:
    if settings.compute_limit:
        app.extensions["melee.compute_budget"] = ComputeBudget(settings.compute_limit, settings.redis_url)
    app.extensions["melee.compute_slots"] = Slots(settings.costly_requests_per_worker)


class RequestCompute:
    """The use cases' ``Compute`` port for one request: ``costly(cost)`` around
    the computation, ``offload`` to run it; ``accepting(cost)`` around handing a
    job to its runner (usecases/simulations.py ``SimulationCompute``)."""

    def limited(self, cost: int) -> AbstractContextManager[None]:
        return costly(cost)

    def accepting(self, cost: int) -> AbstractContextManager[None]:
        return costly(cost, charged_when_accepted=True)

    def run(self, function: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
        return offload(function, *args, **kwargs)


@contextmanager
def costly(cost: int, *, charged_when_accepted: bool = False) -> Iterator[None]:
    """Around the computation of an accepted request (authorized, valid) that costs ``cost`` units.

    Aborts with a 503 ``compute-busy`` when this worker computes as many as it
    may, or a 429 ``compute-budget-exhausted`` when the client's units are spent.
    The units are charged before the block runs; with ``charged_when_accepted``,
    only once it ended without an error (a job its runner refused costs nothing).
    """
    slots: Slots = current_app.extensions["melee.compute_slots"]
    if not slots.take():
        # Live play keeps the worker's other threads; this request retries, perhaps on another worker.
        abort(
            problem(
                503,
                "compute-busy",
                refusal("Busy with costly requests"),
                refusal(
                    "this server computes {limit:# odds or simulation request|# odds or simulation requests} at once; "
                    "retry after Retry-After",
                    limit=slots.limit,
                ),
                headers={"Retry-After": str(current_app.extensions["melee.settings"].retry_after_seconds)},
            )
        )
    try:
        budget: ComputeBudget | None = current_app.extensions.get("melee.compute_budget")
        client = client_key()
        if budget is not None:
            _refuse_when_short(budget, client, cost)
            if not charged_when_accepted:
                budget.charge(client, cost)
        yield
        if budget is not None and charged_when_accepted:
            budget.charge(client, cost)
    finally:
        slots.give_back()


def _refuse_when_short(budget: ComputeBudget, client: str, cost: int) -> None:
    wait = budget.wait_for(client, cost)
    if wait is not None:
        abort(
            problem(
                429,
                "compute-budget-exhausted",
                refusal("Compute budget exhausted"),
                refusal(
                    "this request costs {cost} compute units and this client's allowance ({allowance}) has fewer "
                    "left; retry in {wait} s, or ask for fewer runs or fights",
                    cost=cost,
                    allowance="; ".join(map(str, budget.items)),
                    wait=wait,
                ),
                headers={"Retry-After": str(wait)},
                cost=cost,
            )
        )
