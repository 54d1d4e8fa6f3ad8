"""Simulation throughput per ruleset, on one core: .venv/bin/python -m bench.simulations [--fights 10000]

Each ruleset's example combat (its dice removed), the default tactic, seed 1;
prints the seconds for the run and the microseconds per fight and per action.
"""

from __future__ import annotations

import argparse
import time

from service.rules.registry import RULESETS
from service.simulation import simulate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=10_000)
    args = parser.parse_args()
    print("| ruleset | fights | seconds | us per fight | actions per fight | us per action | undecided |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for ruleset_id in sorted(RULESETS):
        template = {k: v for k, v in RULESETS[ruleset_id].example()["combat"].items() if k != "dice"}
        start = time.process_time()
        result = simulate(template, args.fights, seed=1)
        seconds = time.process_time() - start
        actions = result["actions"]["mean"]
        print(f"| {ruleset_id} | {args.fights} | {seconds:.2f} | {seconds / args.fights * 1e6:.0f} | {actions:.1f} | "
              f"{seconds / args.fights / actions * 1e6:.0f} | {result['undecided']} |")


if __name__ == "__main__":
    main()
