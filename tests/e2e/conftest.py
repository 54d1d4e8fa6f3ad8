"""Start Melee as a real gunicorn process, as the Procfile does."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
READY_WITHIN = 120  # seconds


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(env_overrides: dict) -> tuple[subprocess.Popen, str]:
    port = free_port()
    # No rate limit: every test server shares 127.0.0.1 and, with REDIS_URL,
    # one counter in the shared Redis; the limiter has its own tests.
    env = {
        **os.environ,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "GUNICORN_ACCESS_LOG": "",
        "RATE_LIMIT": "",
        **env_overrides,
    }
    env = {k: v for k, v in env.items() if v is not None}
    # Output goes to a file, not a pipe: one JSON log line per request would
    # fill a pipe nobody reads and block the workers.
    output = tempfile.TemporaryFile()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py", "service.app:create_app()"],
        cwd=ROOT,
        env=env,
        stdout=output,
        stderr=subprocess.STDOUT,
    )
    process.output_file = output
    base = f"http://127.0.0.1:{port}"
    # A generous deadline (a loaded machine starts gunicorn slowly; a quiet
    # one is ready in about a second, and the loop returns then).
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {_read(process)}")
        try:
            if requests.get(f"{base}/readyz", timeout=5).status_code == 200:
                return process, base
        except requests.RequestException:
            pass
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"gunicorn did not become ready in {READY_WITHIN} s: {_read(process)}")


def _read(process: subprocess.Popen) -> str:
    process.output_file.seek(0)
    return process.output_file.read().decode()


def stop(process: subprocess.Popen) -> str:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    output = _read(process)
    process.output_file.close()
    return output


@pytest.fixture(scope="module")
def server():
    """gunicorn on REDIS_URL (two workers) when set, else the embedded store."""
    redis_url = os.environ.get("REDIS_URL")
    process, base = start_gunicorn({"REDIS_URL": redis_url, "WEB_CONCURRENCY": "2" if redis_url else "1"})
    yield base
    stop(process)
