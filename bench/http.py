"""The one-command HTTP benchmark: ./bench/http (docs/performance.md).

Starts Melee under gunicorn with deploy/gunicorn.conf.py against a real
Redis, and the floor app (bench/floor.py) under the same settings; drives
both with the same load generator (wrk, else a Python one) at a fixed
concurrency; prints req/s, p50 and p99 per scenario and each one's ratio to
the floor.

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
    return f"{platform.node()}: {os.cpu_count()} cores, {model}, Python {platform.python_version()}, {platform.system()} {platform.release()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=10, help="per scenario (default 10)")
    parser.add_argument("--connections", type=int, default=16, help="concurrent connections (default 16)")
    parser.add_argument("--no-install", action="store_true", help="never apt-get install wrk")
    parser.add_argument("--json", type=Path, help="also write the figures there")
    args = parser.parse_args()
    generator, run = load_generator(not args.no_install)
    # More requests than a connection can send, so that no list runs out.
    # Sized after the action path got cheaper: 2,300 actions/s and 4,400 reads/s ran out of 4,000 and 5,000.
    cheap = args.seconds * 9000 // args.connections
    actions = args.seconds * 7000 // args.connections
    rows = []
    with redis_url() as url, tempfile.TemporaryDirectory(prefix="melee-bench-") as tmp:
        tmp = Path(tmp)
        (tmp / "metrics").mkdir()
        common = {"REDIS_URL": url, "RATE_LIMIT": "", "PROMETHEUS_MULTIPROC_DIR": str(tmp / "metrics")}
        with Server("bench.floor:create_app()", common) as floor:
            rows.append(
                (
                    "floor: JSON read-modify-write + CAS",
                    run(floor.port, floor_lists(args.connections, cheap), args.seconds, tmp),
                )
            )
        # A TTL that outlives any scenario's set-up and run: the attack lists
        # create every combat before the load starts, thousands for the short
        # fights, which takes more than a minute on a slow machine (issue 30).
        service_env = {**common, "COMBAT_TTL_SECONDS": str(COMBAT_TTL_SECONDS), "SECRET_KEY": os.urandom(16).hex()}
        with Server("service.app:create_app()", service_env) as melee:
            rows.append(
                (
                    "POST /combats (sistema-2d6)",
                    run(melee.port, create_lists(args.connections, cheap), args.seconds, tmp),
                )
            )
            for ruleset_id in sorted(RULESETS):
                lists = attack_lists(melee, ruleset_id, args.connections, actions)
                rows.append((f"attack: {ruleset_id}", run(melee.port, lists, args.seconds, tmp)))
            rows.append(
                ("GET /combats/{id}", run(melee.port, get_lists(melee, args.connections, cheap), args.seconds, tmp))
            )
    report(rows, generator, args)


def failures(rows) -> list[str]:
    """One line per scenario that met any answer but a 2xx, a socket error or
    a list that ran out: its status codes and a sample body."""
    lines = []
    for name, r in rows:
        if not r["non_2xx"] + r["socket_errors"] + r["exhausted"]:
            continue
        codes = ", ".join(f"{n} x {status}" for status, n in sorted(r.get("statuses", {}).items())) or "none"
        lines.append(
            f"{name}: {r['non_2xx']} non-2xx answers (status codes: {codes}), {r['socket_errors']} socket errors, "
            f"{r['exhausted']} requests past the end of a list; sample body: {r.get('sample') or '(none)'}"
        )
    return lines


def report(rows, generator: str, args) -> None:
    """The table of ratios to the floor; when any scenario failed, no ratio at
    all: the failures, and exit status 1 (an error answer is not throughput)."""
    if bad := failures(rows):
        print("\nThe benchmark is void: some scenarios did not get 2xx answers only.", file=sys.stderr)
        for line in bad:
            print(f"- {line}", file=sys.stderr)
        raise SystemExit(1)
    floor = rows[0][1]
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(
        f"load generator {generator}, {args.connections} connections, {args.seconds} s per scenario; "
        f"gunicorn: deploy/gunicorn.conf.py defaults (WEB_CONCURRENCY=2, gevent workers); RATE_LIMIT off\n"
    )
    print("| scenario | req/s | p50 ms | p99 ms | req/s vs floor | p99 vs floor | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, r in rows:
        bad = r["non_2xx"] + r["socket_errors"] + r["exhausted"]
        print(
            f"| {name} | {r['rps']:.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | "
            f"{r['rps'] / floor['rps']:.2f}x | {r['p99_ms'] / floor['p99_ms']:.2f}x | {bad} |"
        )
    if args.json:
        args.json.write_text(json.dumps({"generator": generator, "machine": machine(), "rows": dict(rows)}, indent=2))


if __name__ == "__main__":
    main()
