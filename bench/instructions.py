"""Instructions per action, for valgrind: python -m bench.instructions N [--floor]

Plays N actions (N/5 of each ruleset) of the benchmark's fights through
the real app, as ``bench.actions`` does (its driver, settings and gevent
patching), after creating the combats and 30 warm-up actions per ruleset.
Run it under cachegrind twice, with N and with 0, and divide the
difference by N: what no other load on the machine changes
(docs/performance.md, "Where an action's CPU goes")::

    for n in 0 500; do
      valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        .venv/bin/python -m bench.instructions $n 2>&1 | grep 'I *refs'
    done

``--floor``: N requests of the floor (bench/floor.py) instead, after 50.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import actions  # gevent's monkey-patching first, as in bench.actions

WARM_UP, PER_RULESET = 30, 150


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, help=f"actions, at most {5 * (PER_RULESET - WARM_UP)}")
    parser.add_argument("--floor", action="store_true", help="requests of the floor instead")
    args = parser.parse_args()
    real_stderr, sys.stderr = sys.stderr, open(os.devnull, "w")  # the JSON request log lines
    try:
        if args.floor:
            floor = actions.floor_driver()
            actions.floor_cpu(floor, 50)
            if args.count:
                actions.floor_cpu(floor, args.count)
            return
        driver = actions.Driver(actions.create_app())
        rulesets = sorted(actions.RULESETS)
        requests = {
            ruleset_id: actions.opened(driver, actions.fights_for(ruleset_id, PER_RULESET, 1_000_000 * (index + 1)))[
                :PER_RULESET
            ]
            for index, ruleset_id in enumerate(rulesets)
        }
        for ruleset_id in rulesets:
            actions.play(driver, requests[ruleset_id][:WARM_UP])
        each = args.count // len(rulesets)
        for ruleset_id in rulesets:
            if each:
                actions.play(driver, requests[ruleset_id][WARM_UP : WARM_UP + each])
    finally:
        sys.stderr = real_stderr


if __name__ == "__main__":
    main()
