"""Many writers on one combat without If-Match: how many end in a 409.

    .venv/bin/python -m bench.conflicts [--writers 32] [--actions 10]

Starts Melee under gunicorn (deploy/gunicorn.conf.py: 2 workers × 32
threads) on a real Redis, creates one sistema-2d6 combat, and lets
``writers`` threads, released together, each post ``actions`` GM `adjust`
actions (an action that is always legal) without If-Match, one after the
other. Prints the count of each status and the share of 409s: every lost
race is resolved again by the server (service/usecases/retry.py) until its
budget runs out. docs/operations.md has the figures.
"""

from __future__ import annotations

import argparse
import collections
import threading

from .http import Server
from .redis_server import redis_url

ADJUST = {"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": 1}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writers", type=int, default=32)
    parser.add_argument("--actions", type=int, default=10)
    options = parser.parse_args()
    with redis_url() as url, Server("service.app:create_app()", {"REDIS_URL": url, "RATE_LIMIT": ""}) as server:
        from service.rules.registry import RULESETS

        status, headers, created = server.call("POST", "/combats", RULESETS["sistema-2d6"].example()["combat"])
        assert status == 201, created
        path, token = headers["Location"] + "/actions", created["tokens"]["gm"]
        barrier, statuses, lock = threading.Barrier(options.writers), collections.Counter(), threading.Lock()

        def writer():
            barrier.wait()
            for _ in range(options.actions):
                code, _, _ = server.call("POST", path, ADJUST, token)
                with lock:
                    statuses[code] += 1

        threads = [threading.Thread(target=writer) for _ in range(options.writers)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        server.call("DELETE", headers["Location"], token=token)
    total = sum(statuses.values())
    print(
        f"{options.writers} writers × {options.actions} actions: {dict(sorted(statuses.items()))}, "
        f"409: {100 * statuses[409] / total:.1f} %"
    )


if __name__ == "__main__":
    main()
