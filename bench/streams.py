"""The live-stream benchmark: ./bench/streams (docs/performance.md).

Starts Melee under gunicorn with deploy/gunicorn.conf.py (gevent workers)
against a real Redis, then, from one asyncio process on loopback:

1. **baseline**: ``--posters`` connections post actions as fast as the
   server answers, each round-robin over its own share of ``--combats``
   fresh combats, for ``--seconds``; no one listens.
2. **viewers**: the same on as many other fresh combats, while ``--viewers``
   Server-Sent Events clients (spread evenly over the combats) listen.
3. **baseline** again, to show the drift of a shared machine.
4. **viewers at a steady load**: as 2, with the posters paced to ``--rate``
   actions per second in all, for the delivery latency below saturation.

Actions are whole fights of duel-2d6 (about a hundred actions each) played
with the simulator's default tactic, precomputed with the rules core from
the seeds the server is given (as bench/http does): every request is legal
and is one real resolution.

Delivery latency of an entry to one viewer (p50, p99, max): from the
moment its action's POST was sent to the moment the viewer read the event
(an upper bound: it includes the action's own round trip, shown apart as
"action p99", and this process's own lateness, "generator lag"). Every viewer must get every entry of
its combat once, in order; the summary counts what was missing.

Workers' CPU per delivery (unpaced runs): their CPU per action over the
mean baseline's, times the actions, over the entries the viewers got; what
fanning out cost, all in (the readers' reads and loads, rendering, the
writes, the collector).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from .http import Server, bench_body, fight_actions, machine
from .redis_server import redis_url

RULESET = "duel-2d6"


class Combat:
    def __init__(self, location: str, gm_token: str, actions: list[dict]):
        self.location, self.gm_token, self.actions = location, gm_token, actions
        self.sent: dict[int, float] = {}  # seq -> when its POST was sent


def create_combats(server: Server, count: int, first_seed: int) -> list[Combat]:
    body, combats = bench_body(RULESET), []
    for index in range(count):
        seed = first_seed + index
        status, headers, created = server.call("POST", "/combats", {**body, "seed": seed})
        assert status == 201, created
        combats.append(Combat(headers["Location"], created["tokens"]["gm"], fight_actions(body, seed)))
    return combats


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return status, await reader.readexactly(length)


async def poster(port: int, combats: list[Combat], stop_at: float, done: list, interval: float) -> None:
    """One keep-alive connection posting the next action of each of its combats in turn, one per
    ``interval`` (0: at once)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    position = {id(c): 0 for c in combats}
    next_at = time.monotonic()
    while time.monotonic() < stop_at:
        live = [c for c in combats if position[id(c)] < len(c.actions)]
        if not live:
            break
        for combat in live:
            next_at += interval
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            if time.monotonic() >= stop_at:
                break
            body = json.dumps(combat.actions[position[id(combat)]]).encode()
            position[id(combat)] += 1
            writer.write(
                f"POST {combat.location}/actions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {combat.gm_token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                + body
            )
            sent = time.time()
            status, answer = await read_response(reader)
            done[2].append(time.time() - sent)
            if status == 200:
                combat.sent[json.loads(answer)["action"]["seq"]] = sent
                done[0] += 1
            else:
                done[1] += 1
    writer.close()


class Viewer:
    def __init__(self, combat: Combat):
        self.combat = combat
        self.received: list[tuple[int, float]] = []  # (seq, when read)
        self.status = None
        self.connected = asyncio.Event()

    async def listen(self, port: int) -> None:
        """Read the stream until cancelled, noting when each entry event arrives."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        # HTTP/1.0: the body comes as is (no chunked encoding) until the server closes.
        writer.write(
            f"GET {self.combat.location}/stream HTTP/1.0\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {self.combat.gm_token}\r\n\r\n".encode()
        )
        try:
            self.status = int((await reader.readline()).split()[1])
            while (await reader.readline()) not in (b"\r\n", b""):
                pass
            self.connected.set()
            if self.status != 200:
                return
            buffer, seq = b"", None
            while chunk := await reader.read(1 << 16):
                now = time.time()
                *lines, buffer = (buffer + chunk).split(b"\n")
                for line in lines:
                    if line.startswith(b"id: "):
                        seq = int(line[4:])
                    elif line == b"event: entry" and seq is not None:
                        self.received.append((seq, now))
                    elif not line:
                        seq = None
        except asyncio.CancelledError:
            pass
        finally:
            self.connected.set()
            writer.close()


def server_cpu_seconds(master_pid: int) -> tuple[float, float]:
    """User and system CPU time of the gunicorn master's children (the workers) so far."""
    ticks = os.sysconf("SC_CLK_TCK")
    user = system = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master_pid:  # ppid
            user, system = user + int(fields[11]), system + int(fields[12])
    return user / ticks, system / ticks


async def loop_lag(lags: list, stop: asyncio.Event) -> None:
    """How late this process's own event loop wakes up: the share of a latency that is the load generator's."""
    while not stop.is_set():
        asleep = time.monotonic()
        await asyncio.sleep(0.01)
        lags.append(time.monotonic() - asleep - 0.01)


async def run(
    server: Server, combats: list[Combat], posters: int, viewers: int, seconds: float, rate: float = 0
) -> dict:
    """``rate``: actions per second in all (0: as fast as the server answers)."""
    listening = [Viewer(combats[i % len(combats)]) for i in range(viewers)]
    tasks = []
    for start in range(0, len(listening), 50):  # connect in waves, not in one burst at the accept queue
        tasks += [asyncio.ensure_future(v.listen(server.port)) for v in listening[start : start + 50]]
        await asyncio.sleep(0.05)
    await asyncio.wait_for(asyncio.gather(*(v.connected.wait() for v in listening)), 120)
    await asyncio.sleep(3 if viewers else 0)  # let every stream finish its start (its catch-up read)
    done, lags, measuring = [0, 0, []], [], asyncio.Event()
    lag_task = asyncio.ensure_future(loop_lag(lags, measuring))
    shares = [combats[i::posters] for i in range(posters)]
    cpu_before, started = server_cpu_seconds(server.process.pid), time.monotonic()
    interval = posters / rate if rate else 0.0
    await asyncio.gather(*(poster(server.port, share, started + seconds, done, interval) for share in shares))
    elapsed = time.monotonic() - started
    user, system = (
        after - before for after, before in zip(server_cpu_seconds(server.process.pid), cpu_before, strict=True)
    )
    measuring.set()
    await lag_task
    lags.sort()
    await asyncio.sleep(2)  # the last deliveries
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks)
    latencies, missing, out_of_order = [], 0, 0
    for viewer in listening:
        if viewer.status != 200:
            continue
        seqs = [seq for seq, _ in viewer.received]
        expected = sorted(viewer.combat.sent)
        out_of_order += seqs != sorted(seqs) or len(seqs) != len(set(seqs))
        missing += len(set(expected) - set(seqs))
        latencies += [when - viewer.combat.sent[seq] for seq, when in viewer.received if seq in viewer.combat.sent]
    latencies.sort()
    answered = sorted(done[2])

    def percentile(p: float, values: list[float] = latencies) -> float:
        return values[int(p * (len(values) - 1))] * 1000 if values else float("nan")

    return {
        "rate": rate,
        "viewers": sum(v.status == 200 for v in listening),
        "refused": sum(v.status != 200 for v in listening),
        "actions": done[0],
        "action_errors": done[1],
        "actions_per_s": done[0] / elapsed,
        "server_cpu_ms_per_action": (user + system) * 1000 / max(done[0], 1),
        "server_system_share": system / (user + system) if user + system else float("nan"),
        "action_p99_ms": percentile(0.99, answered),
        "deliveries": len(latencies),
        "p50_ms": percentile(0.5),
        "p99_ms": percentile(0.99),
        "max_ms": percentile(1.0),
        "missing": missing,
        "viewers_out_of_order": out_of_order,
        "generator_lag_p99_ms": lags[int(0.99 * (len(lags) - 1))] * 1000 if lags else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=1000)
    parser.add_argument("--combats", type=int, default=200)
    parser.add_argument("--posters", type=int, default=16, help="connections posting actions (default 16)")
    parser.add_argument("--seconds", type=float, default=15, help="per run (default 15)")
    parser.add_argument(
        "--rate",
        type=float,
        default=100,
        help="actions per second in all of the last run, paced: delivery at a steady load (default 100)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures there")
    args = parser.parse_args()
    rows = []
    with redis_url() as url, tempfile.TemporaryDirectory(prefix="melee-bench-") as tmp:
        (Path(tmp) / "metrics").mkdir()
        env = {
            "REDIS_URL": url,
            "RATE_LIMIT": "",
            "PROMETHEUS_MULTIPROC_DIR": str(Path(tmp) / "metrics"),
            "COMBAT_TTL_SECONDS": "120",
            # Every viewer here comes from 127.0.0.1: the per-address cap would refuse most of them.
            "MAX_STREAMS_PER_ADDRESS": str(args.viewers + 100),
        }
        with Server("service.app:create_app()", env) as melee:
            runs = (
                ("baseline", 0, 0),
                ("viewers", args.viewers, 0),
                ("baseline again", 0, 0),
                (f"viewers, {args.rate:g} actions/s", args.viewers, args.rate),
            )
            for index, (name, viewers, rate) in enumerate(runs):
                combats = create_combats(melee, args.combats, 100_000 * (index + 1))
                print(
                    f"{name}: {args.combats} combats, {viewers} viewers, "
                    f"{args.posters} posters, {args.seconds:g} s ...",
                    flush=True,
                )
                rows.append((name, asyncio.run(run(melee, combats, args.posters, viewers, args.seconds, rate))))
    report(rows, args)


def report(rows: list[tuple[str, dict]], args) -> None:
    baseline = statistics.mean(r["actions_per_s"] for name, r in rows if name.startswith("baseline"))
    print(f"\n{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(
        "gunicorn: deploy/gunicorn.conf.py defaults "
        f"(WEB_CONCURRENCY={os.environ.get('WEB_CONCURRENCY', '2')}, gevent); "
        f"{args.combats} {RULESET} combats per run, {args.posters} posters, {args.seconds:g} s; RATE_LIMIT off\n"
    )
    cpu = statistics.mean(r["server_cpu_ms_per_action"] for name, r in rows if name.startswith("baseline"))
    for _, r in rows:  # what a delivery cost the workers: their CPU over the baseline's, per entry a viewer got
        # Not for a paced run: its fixed costs (the readers' rounds, idle loops) are spread over fewer actions
        # than the baseline's, which is not paced.
        r["server_cpu_us_per_delivery"] = (
            (r["server_cpu_ms_per_action"] - cpu) * 1000 * r["actions"] / r["deliveries"]
            if r["deliveries"] and not r["rate"]
            else float("nan")
        )
    print(
        "| run | viewers (refused) | actions/s | vs mean baseline | "
        "workers' CPU ms per action | vs mean baseline | of which kernel | "
        "action p99 ms | action errors | deliveries | "
        "workers' CPU µs per delivery | p50 ms | p99 ms | max ms | missing | "
        "out of order | generator lag p99 ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, r in rows:
        print(
            f"| {name} | {r['viewers']} ({r['refused']}) | "
            f"{r['actions_per_s']:.0f} | {r['actions_per_s'] / baseline:.2f}x | "
            f"{r['server_cpu_ms_per_action']:.2f} | {r['server_cpu_ms_per_action'] / cpu:.2f}x | "
            f"{r['server_system_share']:.0%} | {r['action_p99_ms']:.0f} | "
            f"{r['action_errors']} | {r['deliveries']} | {r['server_cpu_us_per_delivery']:.0f} "
            f"| {r['p50_ms']:.0f} | {r['p99_ms']:.0f} | {r['max_ms']:.0f} | "
            f"{r['missing']} | {r['viewers_out_of_order']} | {r['generator_lag_p99_ms']:.0f} |"
        )
    print(
        "\ntargets: every viewer connected, p99 delivery <= 1000 ms, nothing missing, "
        "actions/s with viewers >= 0.90x the baseline"
    )
    print(
        f"load average now: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
        "(other work on the machine skews actions/s; "
        "the workers' CPU per action does not depend on it as much)"
    )
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rows": dict(rows)}, indent=2))


if __name__ == "__main__":
    main()
