"""Run Melee as the platforms do (Procfile, Dockerfile CMD) and read its output."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
METRICS_TOKEN = "scrape-token-5150"
SCRAPE = {"Authorization": f"Bearer {METRICS_TOKEN}"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Process:
    """A server process whose output (stdout and stderr) goes to a file."""

    def __init__(self, argv: list[str], env: dict, port: int):
        self.output_file = tempfile.TemporaryFile()
        self.base = f"http://127.0.0.1:{port}"
        self.popen = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self.output_file, stderr=subprocess.STDOUT)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def output(self) -> str:
        self.output_file.flush()
        with open(self.output_file.fileno(), "rb", closefd=False) as raw:
            raw.seek(0)
            return raw.read().decode(errors="replace")

    def wait_ready(self, path: str = "/readyz", seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                raise RuntimeError(f"the server exited ({self.popen.returncode}):\n{self.output()}")
            try:
                if requests.get(self.base + path, timeout=5).status_code == 200:
                    return
            except (requests.ConnectionError, requests.Timeout):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server was not ready in {seconds} s:\n{self.output()}")

    def wait_for_output(self, text: str, seconds: float = 10) -> None:
        deadline = time.monotonic() + seconds
        while text not in self.output():
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never appeared in:\n{self.output()}")
            time.sleep(0.05)

    def stop(self) -> str:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            try:
                self.popen.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()
        output = self.output()
        self.output_file.close()
        return output


def base_env(port: int, **overrides) -> dict:
    """The environment a platform gives: PORT, and PATH with the project's virtualenv first."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR", "WEB_CONCURRENCY")}
    env.update(PORT=str(port), HOST="127.0.0.1", PATH=f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    env["RATE_LIMIT"] = ""  # test servers share one address and, with Redis, one counter
    env["METRICS_TOKEN"] = METRICS_TOKEN
    env.update({k: v for k, v in overrides.items() if v is not None})
    return env


def json_lines(output: str) -> list[dict]:
    entries = []
    for line in output.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                pass
    return entries


def request_lines(output: str) -> list[dict]:
    return [e for e in json_lines(output) if e.get("logger") == "melee.request"]


@pytest.fixture(scope="session")
def redis_url():
    """REDIS_URL when set; else a redis-server of our own on a free port; else skip."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("needs REDIS_URL or redis-server")
    port = free_port()
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    import redis

    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 10
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                process.kill()
                raise
            time.sleep(0.05)
    client.close()
    yield url
    process.terminate()
    process.wait(timeout=10)
