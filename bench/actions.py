"""CPU per action on the in-process path, split by component: python -m bench.actions

The real app (``service.app:create_app()``) on a real Redis (``REDIS_URL``,
default the local one; nothing is flushed: the combats are new ones with a
10-minute TTL), with the benchmark's settings (JSON request logs on, to
/dev/null here; Prometheus metrics in multiprocess mode; RATE_LIMIT off),
under gevent's monkey-patching as in a gunicorn gevent worker. Each action
goes through the WSGI app as gunicorn hands it over (an environ, a body
stream), from the fights of ``bench.http`` (the simulator's default tactic,
precomputed from the seeds the server is given): every request is legal and
is one real resolution. The floor (bench/floor.py) is timed through the same
driver, for reference.

Measured: CPU time of this process (``time.process_time``, user + system;
the Redis server's own CPU is not in it, the client's is). Per ruleset, the
median over rounds of the mean CPU µs per action. On a loaded machine CPU
time still moves from round to round: ``--take-turns FILE:ME:OTHER`` makes
two runs (two trees) alternate round by round, so both see the same load.
With ``--profile``, a statistical profile of CPU time (``Sampler``), split by
component and scaled to the unprofiled CPU per action (docs/performance.md)."""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

METRICS_DIR = tempfile.mkdtemp(prefix="melee-bench-actions-")
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", METRICS_DIR)  # before prometheus_client is imported
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")
os.environ.setdefault("RATE_LIMIT", "")
os.environ.setdefault("COMBAT_TTL_SECONDS", "600")
os.environ.setdefault("SECRET_KEY", os.urandom(16).hex())

from service.app import create_app  # noqa: E402
from service.rules.registry import RULESETS  # noqa: E402

from .http import bench_body, fight_actions  # noqa: E402

# Component of a function, by the first matching fragment of its file name.
COMPONENTS = [
    ("service/rules/events.py", "views and i18n"),
    ("service/rules/", "rules core"),
    ("service/i18n/", "views and i18n"),
    ("service/usecases/views.py", "views and i18n"),
    ("babel/", "views and i18n"),
    ("marshmallow", "body loading (marshmallow)"),
    ("service/observability/logs.py", "request log"),
    ("prometheus_client/", "metrics"),
    ("service/observability/metrics.py", "metrics"),
    ("/redis/", "Redis client"),
    ("hiredis", "Redis client"),
    ("gevent/", "gevent (sockets, hub)"),
    ("/json/", "JSON codec"),
    ("service/codec.py", "JSON codec"),
    ("orjson", "JSON codec"),
    ("service/store/", "store adapter"),
    ("service/observability/store.py", "store adapter"),
    ("service/usecases/", "use cases"),
    ("service/api/", "HTTP layer (ours)"),
    ("flask_smorest/", "framework"),
    ("flask_cors/", "framework"),
    ("flask_limiter/", "framework"),
    ("/flask/", "framework"),
    ("werkzeug/", "framework"),
    ("webargs/", "framework"),
    ("blinker/", "framework"),
    ("bench/", "driver"),
]


def component_of_file(filename: str) -> str | None:
    for fragment, component in COMPONENTS:
        if fragment in filename:
            return component
    return None


class Driver:
    """Calls the WSGI app as gunicorn's worker does: one environ per request."""

    def __init__(self, app):
        self.app = app

    def call(
        self, method: str, path: str, body: bytes | None = None, token: str | None = None
    ) -> tuple[int, dict, bytes]:
        environ = {
            "REQUEST_METHOD": method,
            "SCRIPT_NAME": "",
            "PATH_INFO": path,
            "QUERY_STRING": "",
            "RAW_URI": path,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "REMOTE_PORT": "50000",
            "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_USER_AGENT": "wrk",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body or b""),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
        }
        if body is not None:
            environ["CONTENT_TYPE"] = "application/json"
            environ["CONTENT_LENGTH"] = str(len(body))
        if token:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        status = []
        headers = {}

        def start_response(line, response_headers, exc_info=None):
            status.append(int(line.split(" ", 1)[0]))
            headers.update(response_headers)

        iterable = self.app(environ, start_response)
        try:
            data = b"".join(iterable)
        finally:
            if hasattr(iterable, "close"):
                iterable.close()
        return status[0], headers, data


def fights_for(ruleset_id: str, count: int, seed_base: int) -> list[tuple[dict, list[bytes]]]:
    """Fights of the default tactic, at least ``count`` actions: (creation body, action bodies)."""
    body, total = bench_body(ruleset_id), 0
    fights: list[tuple[dict, list[bytes]]] = []
    while total < count:
        seed = seed_base + len(fights)
        actions = fight_actions(body, seed)[:999]  # MAX_ACTIONS_PER_COMBAT
        fights.append(
            ({**body, "seed": seed}, [json.dumps(action, separators=(",", ":")).encode() for action in actions])
        )
        total += len(actions)
    return fights


def opened(driver: Driver, fights: list[tuple[dict, list[bytes]]]) -> list[tuple[str, str, bytes]]:
    """The fights' combats created (just before they are played: they expire): the requests, (path, token, body)."""
    requests = []
    for creation, actions in fights:
        status, headers, data = driver.call("POST", "/combats", json.dumps(creation).encode())
        assert status == 201, data
        created = json.loads(data)
        path = headers["Location"].removeprefix("http://127.0.0.1:8000") + "/actions"
        requests += [(path, created["tokens"]["gm"], action) for action in actions]
    return requests


def play(driver: Driver, requests: list[tuple[str, str, bytes]]) -> float:
    """Plays them in order; CPU seconds spent."""
    started = time.process_time()
    for path, token, body in requests:
        status, _, data = driver.call("POST", path, body, token)
        if status != 200:
            raise AssertionError(f"{path}: {status} {data[:300]!r}")
    return time.process_time() - started


class Sampler:
    """A statistical profiler of CPU time: SIGPROF every ``interval`` seconds of
    this process's CPU (ITIMER_PROF), each sample the interrupted Python stack.

    A sample goes to the component of its innermost frame that belongs to one
    (time in C code, a builtin or the standard library goes to its caller's).
    Deterministic profilers either time the waits for Redis too (wall clock)
    or cost more than what they measure (a CPU clock read per call)."""

    def __init__(self, interval: float = 0.0005):
        self.interval = interval
        self.components: dict[str, int] = {}
        self.own: dict[str, int] = {}
        self.cumulative: dict[str, int] = {}
        self.samples = 0

    def _sample(self, signum, frame) -> None:
        self.samples += 1
        component = own = None
        seen = set()
        while frame is not None:
            code = frame.f_code
            name = f"{code.co_filename.rsplit('site-packages/', 1)[-1].rsplit('/actionperf/', 1)[-1]}:{code.co_name}"
            if own is None:
                own = name
            if name not in seen:
                seen.add(name)
                self.cumulative[name] = self.cumulative.get(name, 0) + 1
            if component is None:
                component = component_of_file(code.co_filename)
            frame = frame.f_back
        component = component or "other"
        self.components[component] = self.components.get(component, 0) + 1
        self.own[own or "?"] = self.own.get(own or "?", 0) + 1

    def __enter__(self):
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)
        return self

    def __exit__(self, *exc):
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)


def floor_driver() -> Driver:
    from . import floor

    return Driver(floor.create_app())


def floor_cpu(driver: Driver, count: int) -> float:
    """CPU µs per request of the floor (bench/floor.py: a JSON read-modify-write of one Redis key)
    through the same driver."""
    key, body = os.urandom(4).hex(), json.dumps({"type": "attack", "actor": "ana"}).encode()
    started = time.process_time()
    for _ in range(count):
        status, _, data = driver.call("POST", f"/floor/{key}", body)
        assert status == 200, data
    return (time.process_time() - started) / count * 1e6


class Turns:
    """Strict alternation with another run (``--take-turns FILE:ME:OTHER``):
    each timed round waits until FILE names this run, then names the other.
    Two trees measured this way, round after round, see the same machine load."""

    def __init__(self, spec: str | None):
        self.path, self.me, self.other = spec.split(":") if spec else ("", "", "")

    def __enter__(self):
        while self.path:
            try:
                with open(self.path) as turn:
                    if turn.read().strip() == self.me:
                        break
            except FileNotFoundError:
                pass
            time.sleep(0.005)  # sleeping: no CPU taken from the other run
        return self

    def __exit__(self, *exc):
        if self.path:
            with open(self.path + ".tmp", "w") as turn:
                turn.write(self.other)
            os.replace(self.path + ".tmp", self.path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000, help="per ruleset and round (default 2000)")
    parser.add_argument("--rounds", type=int, default=3, help="timed rounds per ruleset (default 3)")
    parser.add_argument("--profile", action="store_true", help="also profile one more round of each ruleset")
    parser.add_argument("--top", type=int, default=0, help="with --profile: print the N functions of most time")
    parser.add_argument("--rulesets", nargs="*", default=sorted(RULESETS))
    parser.add_argument("--take-turns", metavar="FILE:ME:OTHER", help="alternate each timed round with another run")
    parser.add_argument("--json", type=argparse.FileType("w"), help="also write every round's figure there")
    args = parser.parse_args()
    devnull = open(os.devnull, "w")
    real_stderr, sys.stderr = sys.stderr, devnull  # the JSON request log lines
    turns = Turns(args.take_turns)
    try:
        app = create_app()
        driver = Driver(app)
        sampler = Sampler()
        seeds = {ruleset_id: 1_000_000 * (index + 1) for index, ruleset_id in enumerate(args.rulesets)}
        fights = {
            ruleset_id: [
                fights_for(ruleset_id, args.actions, seeds[ruleset_id] + 10_000 * r) for r in range(args.rounds)
            ]
            for ruleset_id in args.rulesets
        }
        for ruleset_id in args.rulesets:  # warm up (caches, connections)
            play(driver, opened(driver, fights_for(ruleset_id, 200, seeds[ruleset_id] + 90_000))[:200])
        floor = floor_driver()
        floor_cpu(floor, 200)
        rounds: dict[str, list[float]] = {ruleset_id: [] for ruleset_id in [*args.rulesets, "floor"]}
        for r in range(args.rounds):
            for ruleset_id in args.rulesets:
                with turns:
                    requests = opened(driver, fights[ruleset_id][r])
                    rounds[ruleset_id].append(play(driver, requests) / len(requests) * 1e6)
            with turns:
                rounds["floor"].append(floor_cpu(floor, args.actions))
        profiled = 0
        if args.profile:
            for ruleset_id in args.rulesets:
                extra = opened(driver, fights_for(ruleset_id, args.actions, seeds[ruleset_id] + 80_000))
                with sampler:
                    play(driver, extra)
                profiled += len(extra)
    finally:
        sys.stderr = real_stderr
    rows = {ruleset_id: statistics.median(values) for ruleset_id, values in rounds.items()}
    print(f"CPU µs per action (process_time, median of {args.rounds} rounds of ≥{args.actions} actions):")
    for ruleset_id in args.rulesets:
        print(f"  {ruleset_id:18} {rows[ruleset_id]:7.0f}")
    mean = statistics.mean(rows[r] for r in args.rulesets)
    print(f"  {'mean':18} {mean:7.0f}")
    print(f"  {'floor (reference)':18} {rows['floor']:7.0f}")
    if args.json:
        json.dump(rounds, args.json)
    if args.profile:
        total = sum(sampler.components.values())
        print(
            f"\nSplit ({total} CPU samples over {profiled} actions of all "
            f"rulesets, scaled to the unprofiled mean of {mean:.0f} µs):"
        )
        print("| component | share | CPU µs per action |\n|---|---:|---:|")
        for component, count in sorted(sampler.components.items(), key=lambda item: -item[1]):
            print(f"| {component} | {count / total:.0%} | {count / total * mean:.0f} |")
        for title, table in (("own", sampler.own), ("cumulative", sampler.cumulative)):
            print(f"\nTop {args.top} functions, {title} (µs per action):")
            for name, count in sorted(table.items(), key=lambda item: -item[1])[: args.top]:
                print(f"  {count / total * mean:7.1f}  {name}")


if __name__ == "__main__":
    main()
