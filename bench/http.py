"""The one-command HTTP benchmark: ./bench/http (docs/performance.md).

Starts Melee under gunicorn with deploy/gunicorn.conf.py against a real
Redis, and the floor app (bench/floor.py) under the same settings; drives
both with the same load generator (wrk, else a Python one) at a fixed
concurrency. Each scenario runs on a fresh redis-server of its own, in
several short passes, each right after a pass of the floor; it prints per
scenario the median req/s and p99, the median of its ratios to the floor and
their spread, and says when the floor's own spread is too wide to judge. A
scenario that met any answer but a 2xx makes the run fail (exit status 1)
with its status codes and a sample body, and no ratio is printed.

Every connection is one client playing its own requests in order. An action
changes its combat, so each connection owns its combats and plays, action
after action, fights of the simulator's default tactic (the defense declared
inline where the ruleset allows it), precomputed with the rules core from
the same seeds the server is given: every request is legal when it arrives,
and each is one real resolution with server-rolled dice.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from service.rules.engine import apply_action, create_combat
from service.rules.errors import RulesError
from service.rules.registry import RULESETS
from service.simulation.tactics import RULESET_TACTICS, Tactic

from .redis_server import free_port, redis_url

ROOT = Path(__file__).resolve().parent.parent
FLOOR_KEY_SPACE = "bench"
COMBAT_TTL_SECONDS = 6 * 3600  # longer than any set-up and run


def fight_actions(body: dict, seed: int) -> list[dict]:
    """The action bodies of one fight of the default tactic, as the server will play it."""
    state, _ = create_combat({**body, "seed": seed}, combat_id="bench", seed=seed)
    tactics, actions = RULESET_TACTICS[body["ruleset"]], []
    # Below the server's MAX_ACTIONS_PER_COMBAT (1,000 by default): a fight the rules cannot end (in
    # dark-earth, every side's pain at least its POT: no ATT die, docs/rules/dark-earth.md G16) stops here.
    while state["status"] == "active" and state["awaiting"] and len(actions) < 900:
        waiting = state["awaiting"][0]
        actor = next(c for c in state["combatants"] if c["id"] == waiting["actor"])
        for candidate in tactics.candidates(state, actor, waiting, Tactic()):
            try:
                state, _ = apply_action(state, candidate)
                actions.append(candidate)
                break
            except (RulesError, Exception):
                continue
        else:
            break
    return actions


def bench_body(ruleset_id: str) -> dict:
    body = {k: v for k, v in RULESETS[ruleset_id].example()["combat"].items() if k != "dice"}
    return {**body, "options": {**body.get("options", {}), "auto_end": True}}


class Server:
    def __init__(self, app: str, env: dict):
        self.port = free_port()
        self.app, self.env = app, {**env, "PORT": str(self.port), "HOST": "127.0.0.1"}
        self.process = None

    def __enter__(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py", self.app],
            cwd=ROOT,
            env={**os.environ, **self.env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(200):
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                time.sleep(0.5)  # let every worker boot
                return self
            time.sleep(0.05)
        raise RuntimeError(f"{self.app} did not start")

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=30)

    def call(self, method: str, path: str, body=None, token: str | None = None) -> tuple[int, dict, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), json.loads(data) if data else {}


def request_line(method: str, path: str, token: str | None, body=None) -> str:
    return (
        f"{method} {path} {token or '-'} {json.dumps(body, separators=(',', ':')) if body is not None else ''}".rstrip()
    )


def attack_lists(server: Server, ruleset_id: str, connections: int, per_connection: int) -> list[list[str]]:
    """Per connection: fresh combats and their fights' actions, at least ``per_connection`` requests."""
    body, lists = bench_body(ruleset_id), []
    for connection in range(connections):
        lines, fight = [], 0
        while len(lines) < per_connection:
            seed = 1000 * connection + fight
            fight += 1
            actions = fight_actions(body, seed)
            status, headers, created = server.call("POST", "/combats", {**body, "seed": seed})
            assert status == 201, created
            path = headers["Location"] + "/actions"
            lines += [request_line("POST", path, created["tokens"]["gm"], action) for action in actions]
        lists.append(lines)
    return lists


def create_lists(connections: int, count: int) -> list[list[str]]:
    body = RULESETS["sistema-2d6"].example()["combat"]
    return [[request_line("POST", "/combats", None, body)] * count for _ in range(connections)]


def get_lists(server: Server, connections: int, count: int) -> list[list[str]]:
    lists = []
    for _ in range(connections):
        _, headers, created = server.call("POST", "/combats", RULESETS["sistema-2d6"].example()["combat"])
        lists.append([request_line("GET", headers["Location"], created["tokens"]["gm"])] * count)
    return lists


def floor_lists(connections: int, count: int) -> list[list[str]]:
    run = os.urandom(4).hex()
    return [
        [request_line("POST", f"/floor/{run}-{c}", None, {"type": "attack", "actor": "ana"})] * count
        for c in range(connections)
    ]


def run_wrk(port: int, lists: list[list[str]], seconds: int, directory: Path) -> dict:
    for index, lines in enumerate(lists):
        (directory / f"requests-{index}.txt").write_text(
            "\n".join(lines + [request_line("GET", "/healthz", None)]) + "\n"
        )
    n = len(lists)
    out = subprocess.run(
        [
            "wrk",
            "-t",
            str(n),
            "-c",
            str(n),
            "-d",
            f"{seconds}s",
            "--timeout",
            "10s",
            "-s",
            str(ROOT / "bench" / "wrk.lua"),
            f"http://127.0.0.1:{port}",
            "--",
            str(directory),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result = json.loads(out.split("RESULT ", 1)[1].splitlines()[0])
    result["rps"] = result["requests"] / result["seconds"]
    result["statuses"] = {
        int(status): int(n)
        for status, n in (line.split()[1:] for line in out.splitlines() if line.startswith("STATUS "))
    }
    result["sample"] = next((line[len("SAMPLE ") :] for line in out.splitlines() if line.startswith("SAMPLE ")), "")
    return result


def run_python(port: int, lists: list[list[str]], seconds: int, directory: Path) -> dict:
    """The fallback load generator: one thread per connection, keep-alive, in order."""
    latencies, statuses, samples, stop = [], Counter(), [], time.monotonic() + seconds
    lock = threading.Lock()

    def client(lines):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        own = []
        for line in lines:
            if time.monotonic() >= stop:
                break
            method, path, token, *body = line.split(" ", 3)
            headers = {"Content-Type": "application/json"}
            if token != "-":
                headers["Authorization"] = f"Bearer {token}"
            start = time.perf_counter()
            connection.request(method, path, body[0] if body else None, headers)
            response = connection.getresponse()
            data = response.read()
            own.append(time.perf_counter() - start)
            if not 200 <= response.status < 300:
                with lock:
                    statuses[response.status] += 1
                    if not samples:
                        samples.append(data[:300].decode(errors="replace"))
        with lock:
            latencies.extend(own)

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(lines,)) for lines in lists]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    ordered = sorted(latencies)
    return {
        "requests": len(ordered),
        "seconds": elapsed,
        "rps": len(ordered) / elapsed,
        "p50_ms": statistics.median(ordered) * 1000,
        "p99_ms": ordered[int(0.99 * (len(ordered) - 1))] * 1000,
        "non_2xx": sum(statuses.values()),
        "socket_errors": 0,
        "exhausted": 0,
        "statuses": dict(statuses),
        "sample": samples[0] if samples else "",
    }


def load_generator(allow_install: bool):
    if shutil.which("wrk") is None and allow_install and os.geteuid() == 0 and shutil.which("apt-get"):
        print("wrk is missing: apt-get install -y wrk")
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], check=False, stdout=subprocess.DEVNULL)
    if shutil.which("wrk"):
        return "wrk", run_wrk
    print("wrk unavailable: using the Python load generator (less accurate: it shares the CPU with the servers)")
    return "python", run_python


def machine() -> str:
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return (
        f"{platform.node()}: {os.cpu_count()} cores, {model}, Python "
        f"{platform.python_version()}, {platform.system()} {platform.release()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=3, help="per pass of each scenario and of the floor (default 3)")
    parser.add_argument(
        "--passes", type=int, default=3, help="floor and scenario alternated this many times (default 3)"
    )
    parser.add_argument("--connections", type=int, default=16, help="concurrent connections (default 16)")
    parser.add_argument("--only", help="run only the scenarios whose name contains this text")
    parser.add_argument("--no-install", action="store_true", help="never apt-get install wrk")
    parser.add_argument("--json", type=Path, help="also write the figures there")
    args = parser.parse_args()
    generator, run = load_generator(not args.no_install)
    # More requests than a connection can send, so that no list runs out.
    # Sized after the action path got cheaper: 2,300 actions/s and 4,400 reads/s ran out of 4,000 and 5,000.
    cheap = args.seconds * 9000 // args.connections
    actions = args.seconds * 7000 // args.connections
    scenarios = [
        ("POST /combats (sistema-2d6)", lambda melee: create_lists(args.connections, cheap)),
        *(
            (f"attack: {ruleset_id}", lambda melee, r=ruleset_id: attack_lists(melee, r, args.connections, actions))
            for ruleset_id in sorted(RULESETS)
        ),
        ("GET /combats/{id}", lambda melee: get_lists(melee, args.connections, cheap)),
    ]
    scenarios = [(name, lists) for name, lists in scenarios if not args.only or args.only in name]
    rows = []
    with tempfile.TemporaryDirectory(prefix="melee-bench-") as tmp:
        tmp = Path(tmp)
        for name, lists in scenarios:
            # Fresh state for each scenario: its own redis-server and servers,
            # so that one scenario's combats and keys cannot slow the next.
            with own_redis() as url:
                metrics = tmp / f"metrics-{len(rows)}"
                metrics.mkdir()
                common = {"REDIS_URL": url, "RATE_LIMIT": "", "PROMETHEUS_MULTIPROC_DIR": str(metrics)}
                # A TTL that outlives any scenario's set-up and run: the attack
                # lists create their combats before the load starts, thousands
                # for the short fights, which takes more than a minute on a
                # slow machine (issue 30).
                service_env = {
                    **common,
                    "COMBAT_TTL_SECONDS": str(COMBAT_TTL_SECONDS),
                    "SECRET_KEY": os.urandom(16).hex(),
                }
                with (
                    Server("bench.floor:create_app()", common) as floor,
                    Server("service.app:create_app()", service_env) as melee,
                ):
                    passes = []
                    for _ in range(args.passes):  # the floor, then the scenario, alternated
                        floor_pass = run(floor.port, floor_lists(args.connections, cheap), args.seconds, tmp)
                        passes.append((floor_pass, run(melee.port, lists(melee), args.seconds, tmp)))
            rows.append((name, passes))
    report(rows, generator, args)


@contextlib.contextmanager
def own_redis():
    """A redis-server of this run's own (never the shared $REDIS_URL, which a fresh state would need flushed)."""
    saved = os.environ.pop("REDIS_URL", None)
    try:
        with redis_url() as url:
            yield url
    finally:
        if saved is not None:
            os.environ["REDIS_URL"] = saved


def spread(values: list[float]) -> float:
    """(max - min) / median: 0.10 is a spread of 10 % around the median."""
    return (max(values) - min(values)) / statistics.median(values)


# A floor whose passes differ by more than this says the machine was too noisy to judge a ratio.
FLOOR_SPREAD_LIMIT = 0.15


def failures(rows) -> list[str]:
    """One line per scenario (or floor pass) that met any answer but a 2xx, a
    socket error or a list that ran out: its status codes and a sample body."""
    lines = []
    for name, passes in rows:
        for label, r in ((f"{name} (floor)", f) for f, _ in passes):
            lines += _failure(label, r)
        merged = _merged([r for _, r in passes])
        lines += _failure(name, merged)
    return lines


def _merged(results: list[dict]) -> dict:
    statuses: Counter = Counter()
    for r in results:
        statuses.update(r.get("statuses", {}))
    return {
        "non_2xx": sum(r["non_2xx"] for r in results),
        "socket_errors": sum(r["socket_errors"] for r in results),
        "exhausted": sum(r["exhausted"] for r in results),
        "statuses": dict(statuses),
        "sample": next((r["sample"] for r in results if r.get("sample")), ""),
    }


def _failure(name: str, r: dict) -> list[str]:
    if not r["non_2xx"] + r["socket_errors"] + r["exhausted"]:
        return []
    codes = ", ".join(f"{n} x {status}" for status, n in sorted(r.get("statuses", {}).items())) or "none"
    return [
        f"{name}: {r['non_2xx']} non-2xx answers (status codes: {codes}), {r['socket_errors']} socket errors, "
        f"{r['exhausted']} requests past the end of a list; sample body: {r.get('sample') or '(none)'}"
    ]


def report(rows, generator: str, args) -> None:
    """Per scenario, the median of its passes' ratios to the floor pass run just
    before each, and their spread; when any scenario failed, no ratio at all:
    the failures, and exit status 1 (an error answer is not throughput)."""
    if bad := failures(rows):
        print("\nThe benchmark is void: some scenarios did not get 2xx answers only.", file=sys.stderr)
        for line in bad:
            print(f"- {line}", file=sys.stderr)
        raise SystemExit(1)
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(
        f"load generator {generator}, {args.connections} connections, {args.passes} passes of {args.seconds} s "
        "per scenario, each after a pass of the floor, on a fresh redis-server per scenario; "
        "gunicorn: deploy/gunicorn.conf.py defaults (WEB_CONCURRENCY=2, gevent workers); RATE_LIMIT off\n"
    )
    print(
        "| scenario | req/s (median) | p99 ms (median) | "
        "req/s vs floor (median) | spread | floor req/s | floor spread |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    noisy = []
    for name, passes in rows:
        ratios = [r["rps"] / f["rps"] for f, r in passes]
        floors = [f["rps"] for f, _ in passes]
        if spread(floors) > FLOOR_SPREAD_LIMIT:
            noisy.append(name)
        print(
            f"| {name} | {statistics.median(r['rps'] for _, r in passes):.0f} | "
            f"{statistics.median(r['p99_ms'] for _, r in passes):.1f} | {statistics.median(ratios):.2f}x | "
            f"{spread(ratios):.0%} | {statistics.median(floors):.0f} | {spread(floors):.0%} |"
        )
    for name in noisy:
        print(
            f"\n{name}: the floor's own passes spread more than {FLOOR_SPREAD_LIMIT:.0%}: "
            "the machine was too noisy to judge this ratio; run again on a quieter machine or with more passes."
        )
    if args.json:
        args.json.write_text(json.dumps({"generator": generator, "machine": machine(), "rows": dict(rows)}, indent=2))


if __name__ == "__main__":
    main()
