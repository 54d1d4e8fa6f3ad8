"""Under gunicorn's gevent worker, a costly computation (odds by Monte Carlo) runs on a
thread of gevent's pool (service/adapters/compute.py ``offload``): the worker's event loop keeps
answering other requests meanwhile instead of freezing until the computation ends."""

from __future__ import annotations

import json
import threading
import urllib.request

import pytest

from service.rules.registry import get_ruleset

from .conftest import start_gunicorn, stop


def _call(base: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(
        urllib.request.Request(base + path, data=data, headers=headers, method=method), timeout=120
    ) as answer:
        return json.loads(answer.read() or b"{}")


@pytest.fixture(scope="module")
def one_worker():
    process, base = start_gunicorn({"REDIS_URL": None, "WEB_CONCURRENCY": "1", "COMPUTE_LIMIT": ""})
    yield base
    stop(process)


def test_other_requests_are_answered_while_odds_are_computed(one_worker):
    example = get_ruleset("sistema-2d6").example()
    created = _call(one_worker, "POST", "/combats", example["combat"])
    gm = created["tokens"]["gm"]
    attack = next(a for a in example["actions"] if a["type"] == "attack")
    attack = {k: v for k, v in attack.items() if k != "dice"}
    order: list[str] = []

    def heavy() -> None:
        # The most Monte Carlo runs a request may ask for, each playing the attack and its answers.
        _call(
            one_worker,
            "POST",
            f"/combats/{created['id']}/odds",
            {"action": attack, "method": "monte_carlo", "runs": 10_000},
            gm,
        )
        order.append("odds")

    worker = threading.Thread(target=heavy)
    worker.start()
    # Reads sent while the odds are computed; each one that returns before them proves the loop was free.
    for _ in range(5):
        _call(one_worker, "GET", f"/combats/{created['id']}", token=gm)
        order.append("read")
    worker.join(timeout=120)
    assert order.index("odds") > 0, f"every read waited for the odds: {order}"
