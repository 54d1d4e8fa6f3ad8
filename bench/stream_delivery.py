"""What one delivery costs a worker: ``python -m bench.stream_delivery`` (docs/performance.md).

A small, alternating measurement of the live-stream fan-out in the real
server, for a shared machine: one gunicorn gevent worker
(deploy/gunicorn.conf.py, ``WEB_CONCURRENCY=1``) against the Redis at
``$REDIS_URL`` (else its own), ``--viewers`` SSE viewers on ``--combats``
duel-2d6 combats (set A), and as many combats no one watches (set B).
Actions are posted at ``--rate`` per second in rounds of ``--seconds``,
alternately to A and to B, so that both sides see the same machine: the
worker's CPU (user + system, from ``/proc``) per action on A, less that on
B, times A's actions, over the entries the viewers got, is what one
delivery costs the worker, all in (the reader's read and load, rendering,
the wake-up, the write and its system call, the collector).

``--profile perf.data`` also runs ``perf record -g`` on the worker during the
first A round.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from .http import Server
from .redis_server import redis_url
from .streams import Viewer, create_combats, poster, server_cpu_seconds


def worker_pid(master: int) -> int:
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            return int(stat.parent.name)
    raise RuntimeError("no worker")


async def rounds(server: Server, args) -> list[tuple[str, float, int, int]]:
    seed = int.from_bytes(os.urandom(3), "big") * 100
    watched = create_combats(server, args.combats, seed)
    quiet = create_combats(server, args.combats, seed + 10_000)
    viewers = [Viewer(watched[i % len(watched)]) for i in range(args.viewers)]
    tasks = []
    for start in range(0, len(viewers), 50):
        tasks += [asyncio.ensure_future(v.listen(server.port)) for v in viewers[start : start + 50]]
        await asyncio.sleep(0.05)
    await asyncio.gather(*(v.connected.wait() for v in viewers))
    assert all(v.status == 200 for v in viewers), [v.status for v in viewers]
    await asyncio.sleep(2)
    results = []
    profiler = None
    for index in range(2 * args.rounds):
        side, combats = ("A", watched) if index % 2 == 0 else ("B", quiet)
        if side == "A" and args.profile and profiler is None:
            pid = worker_pid(server.process.pid)
            profiler = subprocess.Popen(
                [
                    "perf",
                    "record",
                    "-F",
                    "2000",
                    "-g",
                    "-o",
                    str(args.profile),
                    "-p",
                    str(pid),
                    "--",
                    "sleep",
                    str(args.seconds),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            await asyncio.sleep(1)
        got_before = sum(len(v.received) for v in viewers)
        done: list = [0, 0, []]
        posters = min(4, len(combats))
        shares = [combats[i::posters] for i in range(posters)]
        cpu_before, started = sum(server_cpu_seconds(server.process.pid)), time.monotonic()
        await asyncio.gather(
            *(poster(server.port, share, started + args.seconds, done, posters / args.rate) for share in shares)
        )
        await asyncio.sleep(0.3)  # the last deliveries of the round
        cpu = sum(server_cpu_seconds(server.process.pid)) - cpu_before
        got = sum(len(v.received) for v in viewers) - got_before
        results.append((side, cpu, done[0], got))
        print(f"{side}: {done[0]} actions, {got} deliveries, worker CPU {cpu * 1000:.0f} ms", flush=True)
        if profiler is not None and side == "A":
            profiler.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--combats", type=int, default=20)
    parser.add_argument("--rate", type=float, default=100, help="actions per second (default 100)")
    parser.add_argument("--seconds", type=float, default=4, help="per round (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each side (default 3)")
    parser.add_argument("--profile", type=Path)
    args = parser.parse_args()
    with redis_url() as url, tempfile.TemporaryDirectory(prefix="melee-bench-") as tmp:
        (Path(tmp) / "metrics").mkdir()
        env = {
            "REDIS_URL": url,
            "RATE_LIMIT": "",
            "WEB_CONCURRENCY": "1",
            "PROMETHEUS_MULTIPROC_DIR": str(Path(tmp) / "metrics"),
            "COMBAT_TTL_SECONDS": "600",
            "MAX_STREAMS_PER_ADDRESS": str(args.viewers + 100),
        }
        with Server("service.app:create_app()", env) as melee:
            results = asyncio.run(rounds(melee, args))
    per_delivery = []
    for (_, cpu_a, actions_a, got), (_, cpu_b, actions_b, _) in zip(results[::2], results[1::2], strict=True):
        extra = cpu_a / actions_a - cpu_b / actions_b
        per_delivery.append(extra * actions_a / got * 1e6)
    a = [cpu / n * 1e6 for side, cpu, n, _ in results if side == "A"]
    b = [cpu / n * 1e6 for side, cpu, n, _ in results if side == "B"]
    print(
        f"CPU µs per action: watched {statistics.median(a):.0f}, unwatched {statistics.median(b):.0f}; "
        f"per delivery: median {statistics.median(per_delivery):.1f} "
        f"(rounds: {', '.join(f'{x:.1f}' for x in per_delivery)}); load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
