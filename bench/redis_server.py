"""A Redis for the benchmarks: $REDIS_URL when it answers, else our own
redis-server on a free loopback port, in a temporary directory, stopped at
the end. The shared Redis is never flushed or reconfigured: every key a
benchmark writes has a random id and a TTL, and is deleted when done."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time

import redis


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def redis_url():
    url = os.environ.get("REDIS_URL")
    if url:
        try:
            redis.Redis.from_url(url, socket_timeout=1).ping()
            yield url
            return
        except redis.RedisError:
            print(f"REDIS_URL={url} does not answer: starting our own redis-server")
    if not shutil.which("redis-server"):
        raise SystemExit("needs redis-server (apt-get install redis-server) or REDIS_URL")
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="melee-bench-redis-") as directory:
        process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                directory,
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            client = redis.Redis(port=port)
            for _ in range(100):
                with contextlib.suppress(redis.RedisError):
                    if client.ping():
                        break
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)
