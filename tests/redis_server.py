"""A private redis-server on a free loopback port, for tests that need a
Redis of their own (to stop it, or when no REDIS_URL is given). It never
touches the shared server."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time

AVAILABLE = shutil.which("redis-server") is not None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class OwnRedis:
    def __init__(self, directory, snapshots: bool = False):
        """``snapshots``: keep data in an RDB file (SAVE) instead of an append-only
        file, so that a restart comes back to the last snapshot (a rollback)."""
        self.port = free_port()
        self.directory = directory
        self.snapshots = snapshots
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        # An append-only file, so that a restart keeps the data.
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no" if self.snapshots else "yes",
                "--appendfsync",
                "always",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.resume()  # a paused server does not die of SIGTERM
            self.process.terminate()
            self.process.wait(timeout=10)

    def pause(self) -> None:
        """Freeze the server (SIGSTOP): connections stay open, commands queue
        up unanswered, and run when it resumes, as in a stall or a failover."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)
