"""The fan-out's own CPU per delivery, in one process: ``python -m bench.stream_listeners``.

The real ``fanout.Hub`` and ``stream.Listener`` under gevent, each listener
written by gunicorn's own ``Response.write`` to a TCP socket on loopback
(its client end drained by a child process, whose CPU is not counted), the
socket watched as under gunicorn (disconnect.py). The store is a stand-in
that hands the hub a batch of new duel-2d6 entries (real ones, rendered by
the real ``entry_view``) whenever the driver has one, with no Redis: what is
measured is the hub's fan-out, the listeners' wake-ups, their frames and
their writes (system calls included), not the reader's Redis round trips.

Prints this process's CPU time (user + system, ``getrusage``) per delivery
(one entry to one listener), the median of ``--repeat`` runs. Under
``valgrind --tool=cachegrind`` its instruction counts are load-independent
(user space only; the system calls' share is in the CPU times).
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import copy  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import gevent  # noqa: E402
from gevent.queue import Queue  # noqa: E402
from gunicorn.http.wsgi import Response  # noqa: E402

DRAIN = """
import selectors, socket, sys
port, count = int(sys.argv[1]), int(sys.argv[2])
selector = selectors.DefaultSelector()
for _ in range(count):
    s = socket.create_connection(("127.0.0.1", port))
    selector.register(s, selectors.EVENT_READ)
open_ = count
while open_:
    for key, _ in selector.select():
        if not key.fileobj.recv(1 << 16):
            selector.unregister(key.fileobj)
            open_ -= 1
"""


class Store:
    """What the hub and the listeners ask of the store, with batches handed in by the driver."""

    polls_streams = False

    def __init__(self, state: dict, digest: str):
        self.state, self.digest = state, digest
        self.batches: Queue = Queue()

    def entries_after(self, combat_id, after, block_ms=None):
        return []

    def load_with_grant(self, combat_id, digest):
        return self.state, {"role": "gm"}

    def read_streams(self, positions, block_ms):
        found = self.batches.get()
        return {combat_id: entries for combat_id, entries in found.items() if combat_id in positions}

    def load_with_readers(self, combat_ids):
        return {combat_id: (self.state, frozenset([self.digest])) for combat_id in combat_ids}

    def missing(self, combat_ids):
        return set()


def sample() -> tuple[dict, list[dict], object]:
    """A duel-2d6 combat after a few actions, its log entries, and its GM's viewer."""
    from service.usecases.access import authorize

    from .http import bench_body, fight_actions

    os.environ.pop("REDIS_URL", None)
    from service.app import create_app

    app = create_app()
    client = app.test_client()
    body = bench_body("duel-2d6")
    created = client.post("/combats", json={**body, "seed": 7}).get_json()
    token = created["tokens"]["gm"]
    location = f"/combats/{created['id']}"
    for action in fight_actions(body, 7)[:6]:
        assert (
            client.post(f"{location}/actions", json=action, headers={"Authorization": f"Bearer {token}"}).status_code
            == 200
        )
    store = app.extensions["melee.store"]
    state = store.load(created["id"])
    entries, _ = store.log(created["id"], 0, 100)
    _, grant = authorize(store, created["id"], token)
    return state, entries, grant.viewer


def run(args, state: dict, template: dict, viewer) -> tuple[float, float]:
    from service.adapters import fanout
    from service.api.stream import Listener

    fanout.GATHER_SECONDS = 0  # the driver paces the batches
    digest = "d" * 64
    store = Store(state, digest)
    hub = fanout.Hub(store, 1.0)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(args.listeners)
    drain = subprocess.Popen([sys.executable, "-c", DRAIN, str(server.getsockname()[1]), str(args.listeners)])
    cfg = SimpleNamespace(protocol="http")
    request = SimpleNamespace(
        version=(1, 1) if args.chunked else (1, 0), method="GET", should_close=lambda: not args.chunked
    )
    combats = [f"c{index}" for index in range(args.combats)]
    version = state["version"]

    def serve(sock, combat_id):
        listener = Listener(store, hub, combat_id, digest, viewer, version, version, {"gunicorn.socket": sock})
        response = Response(request, sock, cfg)
        response.start_response("200 OK", [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")])
        body = listener.events()
        try:
            for item in body:
                response.write(item)
        finally:
            body.close()

    greenlets, socks = [], []
    for index in range(args.listeners):
        sock, _ = server.accept()
        sock.setblocking(1)
        socks.append(sock)
        greenlets.append(gevent.spawn(serve, sock, combats[index % len(combats)]))
    gevent.sleep(0.2)
    seq = {combat_id: version for combat_id in combats}

    def batch(moving):
        found = {}
        for combat_id in moving:
            entries = []
            for _ in range(args.entries):
                seq[combat_id] += 1
                entry = copy.copy(template)
                entry["seq"] = seq[combat_id]
                entries.append(entry)
            found[combat_id] = entries
        return found

    # Warm up, then measure.
    for turn in range(20):
        store.batches.put(batch(combats[turn % len(combats) :][: args.moving]))
        gevent.sleep(0.002)
    gevent.sleep(0.1)
    deliveries = 0
    start = resource.getrusage(resource.RUSAGE_SELF)
    for turn in range(args.batches):
        moving = [combats[(turn * args.moving + k) % len(combats)] for k in range(args.moving)]
        store.batches.put(batch(moving))
        deliveries += len(moving) * args.entries * (args.listeners // len(combats))
        gevent.sleep(args.pause)
    gevent.sleep(0.05)
    end = resource.getrusage(resource.RUSAGE_SELF)
    idle = resource.getrusage(resource.RUSAGE_SELF)
    gevent.sleep(args.pause * args.batches)  # what the same time idle costs: subtracted
    idle_end = resource.getrusage(resource.RUSAGE_SELF)
    for greenlet in greenlets:
        greenlet.kill()
    for sock in socks:
        sock.close()
    server.close()
    drain.wait()

    def user(a, b):
        return b.ru_utime - a.ru_utime

    def system(a, b):
        return b.ru_stime - a.ru_stime

    return (
        (user(start, end) - user(idle, idle_end)) / deliveries * 1e6,
        (system(start, end) - system(idle, idle_end)) / deliveries * 1e6,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listeners", type=int, default=100)
    parser.add_argument("--combats", type=int, default=20)
    parser.add_argument("--moving", type=int, default=5, help="combats with new entries per batch (default 5)")
    parser.add_argument("--entries", type=int, default=1, help="entries per combat and batch (default 1)")
    parser.add_argument("--batches", type=int, default=400)
    parser.add_argument("--pause", type=float, default=0.005, help="seconds between batches")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--chunked", action="store_true", help="HTTP/1.1 chunked writes (default: HTTP/1.0, as bench/streams)"
    )
    args = parser.parse_args()
    state, entries, viewer = sample()
    template = entries[-1]
    results = [run(args, state, template, viewer) for _ in range(args.repeat)]
    total = [user + system for user, system in results]
    print(
        f"CPU µs per delivery: median {statistics.median(total):.1f} "
        f"({', '.join(f'{r:.1f}' for r in total)}), of which system {statistics.median(s for _, s in results):.1f}; "
        f"load average {os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()
