"""Simulation cost per ruleset: .venv/bin/python -m bench.simulations [--fights 10000] [--processes 2] [--before DIR]

Each ruleset's example combat (its dice removed), the default tactic, seed 1.

- Default: one process; prints the process CPU time of the run and the
  microseconds of CPU per fight and per action.
- ``--processes N``: the run's chunks (four per process) played by N child
  processes (service/simulation/pool.py), as a job without a queue plays
  its chunks, and merged as a job's are; prints the wall-clock time, the
  CPU time of this process and its children, and the load average (the
  wall clock means something only on idle cores).
- ``--profile``: where one process's time goes, under cProfile (process CPU
  clock): the shares of the run spent in the rules, the prompts, the
  tactic, the state's serialisation... (shares overlap where nested).
- ``--before DIR``: the same one-process measurement, alternately with the
  code of another checkout (e.g. ``git archive <commit> | tar -x -C DIR``)
  and with this one, ``--repeat`` times each, each in a fresh interpreter;
  prints the median CPU microseconds per action of both and their ratio.
  Alternating keeps a change in the machine's load on both sides alike.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs in a fresh interpreter, with the code of the checkout it is started in:
# only what every version of the simulator has (simulate, the registry).
MEASURE = """
import json, sys, time
from service.rules.registry import RULESETS
from service.simulation import simulate
ruleset_id, fights = sys.argv[1], int(sys.argv[2])
template = {k: v for k, v in RULESETS[ruleset_id].example()["combat"].items() if k != "dice"}
simulate(template, 3, seed=1)  # imports and caches, not part of the run
start = time.process_time()
result = simulate(template, fights, seed=1)
seconds = time.process_time() - start
print(json.dumps({"seconds": seconds, "actions": result["actions"]["mean"], "undecided": result["undecided"]}))
"""


def _template(ruleset_id: str) -> dict:
    from service.rules.registry import RULESETS

    return {k: v for k, v in RULESETS[ruleset_id].example()["combat"].items() if k != "dice"}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_process(rulesets: list[str], fights: int) -> None:
    from service.simulation import simulate

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(
        "| ruleset | fights | CPU seconds | wall seconds | "
        "µs per fight | actions per fight | µs per action | undecided |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for ruleset_id in rulesets:
        template = _template(ruleset_id)
        simulate(template, 3, seed=1)
        start, wall = time.process_time(), time.monotonic()
        result = simulate(template, fights, seed=1)
        seconds, wall = time.process_time() - start, time.monotonic() - wall
        actions = result["actions"]["mean"]
        print(
            f"| {ruleset_id} | {fights} | {seconds:.2f} | {wall:.2f} | {seconds / fights * 1e6:.0f} | {actions:.1f} | "
            f"{seconds / fights / actions * 1e6:.0f} | {result['undecided']} |",
            flush=True,
        )


def balanced_size(fights: int, processes: int) -> int:
    """Chunks small enough for four per process, so that the children finish together.

    A job's 2,000-fight chunks would leave one child playing a third chunk of
    10,000 fights while the other waits; the boundaries change nothing in the answer.
    """
    from service.simulation.runner import CHUNK_FIGHTS

    return max(1, min(CHUNK_FIGHTS, -(-fights // (4 * processes))))


def processes_run(rulesets: list[str], fights: int, processes: int) -> None:
    from service.simulation import Tactic
    from service.simulation.pool import play_chunks
    from service.simulation.runner import Summary, report

    print(
        "| ruleset | fights | processes | wall seconds | "
        "CPU seconds (this process and its children) | load average before |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for ruleset_id in rulesets:
        template = _template(ruleset_id)
        load = os.getloadavg()[0]
        cpu, children, wall = time.process_time(), _children_cpu(), time.monotonic()
        parts = play_chunks(template, 1, Tactic(), fights, processes, size=balanced_size(fights, processes))
        report(template, 1, Tactic(), Summary.merged(template, parts))
        wall = time.monotonic() - wall
        cpu = time.process_time() - cpu + _children_cpu() - children
        print(f"| {ruleset_id} | {fights} | {processes} | {wall:.2f} | {cpu:.2f} | {load:.2f} |", flush=True)


# label -> (file name ends with, function name); "~" for built-ins. Cumulative times.
PROFILE_GROUPS = {
    "fight start (create_loaded)": [("engine.py", "create_loaded")],
    "apply_loaded": [("engine.py", "apply_loaded")],
    "  the ruleset's resolve": [("ruleset.py", "resolve"), ("__init__.py", "resolve")],
    "  end_if_decided": [("ending.py", "end_if_decided")],
    "  prompts and tally (a fight's last prompts)": [("ruleset.py", "awaiting"), ("summary.py", "count")],
    "first awaited entry (simulator)": [("legal.py", "awaiting_entries")],
    "  its legality probes": [("legal.py", "possible")],
    "  ruleset.prompts": [("__init__.py", "prompts")],
    # Since the third pass the simulator serialises a state only after a fight's first refusal,
    # and loads each fight's copy of the template (pickle.loads) at its start.
    "state serialised (snapshots after a refusal)": [("~", "<built-in method _pickle.dumps>")],
    "pickle.loads (template copy, restored state)": [("~", "<built-in method _pickle.loads>")],
    "tactic (candidate bodies)": [("tactic.py", "candidates")],
    "ActionLoader": [("fight.py", "__call__")],
    "Summary.add": [("runner.py", "add")],
}


def profile(rulesets: list[str], fights: int) -> None:
    import cProfile
    import pstats

    from service.simulation import simulate

    for ruleset_id in rulesets:
        template = _template(ruleset_id)
        simulate(template, 3, seed=1)
        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        simulate(template, fights, seed=1)
        profiler.disable()
        stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
        total = max(ct for (_, _, name), (_, _, _, ct, _) in stats.items() if name == "simulate")
        print(f"{ruleset_id}, {fights} fights, share of the run under cProfile:")
        for label, keys in PROFILE_GROUPS.items():
            spent = sum(
                ct
                for (path, _, name), (_, _, _, ct, _) in stats.items()
                for end, function in keys
                if name == function and (end == "~" or path.endswith(end))
            )
            print(f"  {label:42s} {100 * spent / total:5.1f} %")


def _measure(cwd: Path, ruleset_id: str, fights: int) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", MEASURE, ruleset_id, str(fights)], cwd=cwd, check=True, capture_output=True, text=True
    )
    return json.loads(out.stdout)


def before_after(rulesets: list[str], fights: int, before: Path, repeat: int) -> None:
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(
        "| ruleset | fights | µs per action before (median) | "
        "after (median) | after / before | actions per fight before, after |"
    )
    print("|---|---:|---:|---:|---:|---|")
    for ruleset_id in rulesets:
        runs: dict[str, list[float]] = {"before": [], "after": []}
        actions: dict[str, float] = {}
        for _ in range(repeat):
            for side, cwd in (("before", before), ("after", ROOT)):
                measured = _measure(cwd, ruleset_id, fights)
                runs[side].append(measured["seconds"] / fights / measured["actions"] * 1e6)
                actions[side] = measured["actions"]
        b, a = statistics.median(runs["before"]), statistics.median(runs["after"])
        print(
            f"| {ruleset_id} | {fights} | {b:.1f} | {a:.1f} | {a / b:.2f} "
            f"| {actions['before']:.2f}, {actions['after']:.2f} |",
            flush=True,
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=10_000)
    parser.add_argument("--rulesets", nargs="+", help="default: every ruleset")
    parser.add_argument(
        "--processes", type=int, default=1, help="play each run with this many child processes (wall clock)"
    )
    parser.add_argument("--profile", action="store_true", help="where the time goes, under cProfile")
    parser.add_argument("--before", type=Path, help="a checkout of the code to compare with (CPU per action)")
    parser.add_argument("--repeat", type=int, default=3, help="with --before: runs per side and ruleset")
    args = parser.parse_args()
    from service.rules.registry import RULESETS

    rulesets = args.rulesets or sorted(RULESETS)
    if args.profile:
        profile(rulesets, args.fights)
    elif args.before:
        before_after(rulesets, args.fights, args.before.resolve(), args.repeat)
    elif args.processes > 1:
        processes_run(rulesets, args.fights, args.processes)
    else:
        one_process(rulesets, args.fights)


if __name__ == "__main__":
    main()
