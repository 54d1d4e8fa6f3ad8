"""Melee started as the platforms start it: the Procfile's web command, the
Dockerfile's CMD (in the project's virtualenv: no image is built here), a
SIGTERM in the middle of a request, and metrics summed over two workers."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from .conftest import SCRAPE, VENV_BIN, Process, base_env, free_port, request_lines
from .platform import dockerfile_stages, exec_form, image_environment, procfile

pytestmark = pytest.mark.e2e

SECRET_HEADER = "Bearer sekrit-token-4242"
SECRET_QUERY = "sekrit-query-7373"


def metric(text: str, name: str, **labels) -> float:
    """The sum of the samples called ``name`` whose labels include ``labels``."""
    total, seen = 0.0, False
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                total += sample.value
                seen = True
    assert seen, f"no sample {name}{labels}"
    return total


def check_readyz_metrics_and_log(server: Process, request_id: str) -> None:
    """/readyz with a token in the headers and query; /metrics counts it; then the JSON line."""
    ready = requests.get(
        f"{server.base}/readyz",
        params={"token": SECRET_QUERY},
        headers={"X-Request-ID": request_id, "Authorization": SECRET_HEADER, "Cookie": f"session={SECRET_QUERY}"},
        timeout=10,
    )
    assert ready.status_code == 200 and ready.json() == {"status": "ready"}
    assert ready.headers["X-Request-ID"] == request_id
    scraped = requests.get(f"{server.base}/metrics", headers=SCRAPE, timeout=10)
    assert scraped.status_code == 200
    assert scraped.headers["Content-Type"].startswith("text/plain")
    assert metric(scraped.text, "melee_http_requests_total", route="/readyz", status="200", method="GET") >= 1
    assert metric(scraped.text, "melee_active_streams") == 0


def check_log_line(output: str, request_id: str) -> dict:
    [line] = [entry for entry in request_lines(output) if entry.get("request_id") == request_id]
    assert line["method"] == "GET" and line["route"] == "/readyz" and line["status"] == 200
    assert isinstance(line["latency_ms"], (int, float)) and line["latency_ms"] >= 0
    assert line["level"] == "info" and line["ts"].endswith("Z")
    assert "sekrit" not in output, "a token from a header or the query string reached the logs"
    # The app logs requests; gunicorn's access log is off by default.
    assert '"GET /readyz HTTP/1.1"' not in output
    return line


def test_the_procfile_web_command_serves(tmp_path):
    command = procfile()["web"]
    port = free_port()
    env = base_env(port, WEB_CONCURRENCY="1", SOURCE_VERSION="abc1234")
    # As a platform does: through a shell, which execs the command.
    server = Process(["/bin/sh", "-c", f"exec {command}"], env, port)
    try:
        server.wait_ready()
        check_readyz_metrics_and_log(server, "procfile-check-1")
        assert requests.get(f"{server.base}/version", timeout=10).json() == {"version": "0.1.0", "commit": "abc1234"}
    finally:
        output = server.stop()
    check_log_line(output, "procfile-check-1")
    # gunicorn itself is the process the platform started (and signals).
    assert f"Listening at: http://127.0.0.1:{port} ({server.pid})" in output


def test_the_dockerfile_cmd_serves_with_the_image_environment(tmp_path, redis_url):
    _, stages = dockerfile_stages()
    final = stages[-1]
    argv = exec_form(final.one("CMD"))
    assert argv[0] == "gunicorn" and (VENV_BIN / "gunicorn").exists()
    workdir = final.one("WORKDIR")
    config = argv[argv.index("--config") + 1]
    copied = [rest.split()[-1] for rest in final.all("COPY")]
    assert f"{workdir}/{config}" in copied, "the CMD's gunicorn config is not copied into the image"

    image_env = image_environment(final)
    assert image_env["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/"), (
        "the metrics directory must be on the writable /tmp"
    )
    port = free_port()
    env = base_env(port)
    env.update({k: v for k, v in image_env.items() if k != "PATH"})
    env["PATH"] = image_env["PATH"].replace("/opt/melee/bin", str(VENV_BIN))
    # What `docker run -e PORT=... -e REDIS_URL=...` and the writable /tmp give.
    env.update(PORT=str(port), REDIS_URL=redis_url, PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "metrics"))
    server = Process(argv, env, port)
    try:
        server.wait_ready()
        check_readyz_metrics_and_log(server, "docker-check-1")
        # The image's HEALTHCHECK command, run as Docker would.
        healthcheck = final.one("HEALTHCHECK")
        shell_command = healthcheck.split(" CMD ", 1)[1]
        health_env = {**env, "PATH": env["PATH"]}
        assert subprocess.run(["/bin/sh", "-c", shell_command], env=health_env, timeout=30).returncode == 0
        version = requests.get(f"{server.base}/version", timeout=10).json()
        assert version["version"] == "0.1.0" and version["commit"]
    finally:
        output = server.stop()
    check_log_line(output, "docker-check-1")
    assert f"({server.pid})" in output and output.count("Booting worker") == 2


def gunicorn(env: dict, port: int) -> Process:
    return Process(
        [sys.executable, "-m", "gunicorn", "--config", "deploy/gunicorn.conf.py", "service.app:create_app()"], env, port
    )


def test_sigterm_lets_the_request_in_flight_finish_within_the_graceful_timeout():
    graceful = 6
    port = free_port()
    env = base_env(port, WEB_CONCURRENCY="1", MELEE_TEST_SLOW_ENDPOINT="1", GUNICORN_GRACEFUL_TIMEOUT=str(graceful))
    server = gunicorn(env, port)
    outcome: dict = {}

    def slow_request():
        try:
            outcome["response"] = requests.get(
                f"{server.base}/_test/slow", params={"seconds": 2}, headers={"X-Request-ID": "in-flight-1"}, timeout=30
            )
        except requests.RequestException as error:
            outcome["error"] = error

    try:
        server.wait_ready()
        client = threading.Thread(target=slow_request)
        client.start()
        server.wait_for_output("test slow endpoint: sleeping")
        signalled = time.monotonic()
        server.popen.send_signal(signal.SIGTERM)
        returncode = server.popen.wait(timeout=graceful + 15)
        elapsed = time.monotonic() - signalled
        client.join(timeout=30)
    finally:
        output = server.stop()
    assert "error" not in outcome, f"{outcome.get('error')}\n{output}"
    response = outcome["response"]
    assert response.status_code == 200 and response.json() == {"slept": 2.0}
    assert returncode == 0, output
    assert elapsed < graceful + 1, f"exited {elapsed:.1f} s after SIGTERM, graceful timeout {graceful} s"
    # The app's shutdown hook ran (it is where event streams will be closed).
    assert "worker shutting down" in output
    [line] = [e for e in request_lines(output) if e.get("request_id") == "in-flight-1"]
    assert line["route"] == "/_test/slow" and line["status"] == 200


def test_the_slow_endpoint_exists_only_when_asked_for():
    port = free_port()
    server = gunicorn(base_env(port, WEB_CONCURRENCY="1"), port)
    try:
        server.wait_ready()
        assert requests.get(f"{server.base}/_test/slow", params={"seconds": 0}, timeout=10).status_code == 404
    finally:
        server.stop()


def test_metrics_add_up_across_two_workers(tmp_path, redis_url):
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    # A leftover from an earlier run: gunicorn's on_starting removes it.
    (metrics_dir / "counter_999999.db").write_bytes(b"stale")
    port = free_port()
    server = gunicorn(
        base_env(port, REDIS_URL=redis_url, WEB_CONCURRENCY="2", PROMETHEUS_MULTIPROC_DIR=str(metrics_dir)), port
    )
    try:
        server.wait_ready()
        sent, pids = 0, set()

        def health(_: int) -> int:
            # A new connection each time, so that both workers take some.
            return requests.get(f"{server.base}/healthz", headers={"Connection": "close"}, timeout=10).status_code

        # Bursts of concurrent connections: one after the other, an idle gevent
        # worker can accept every one of them while the other sleeps in accept.
        with ThreadPoolExecutor(max_workers=16) as pool:
            while sent < 1600 and len(pids) < 2:
                assert set(pool.map(health, range(32))) == {200}
                sent += 32
                pids = {e["pid"] for e in request_lines(server.output()) if e["route"] == "/healthz"}
        assert len(pids) == 2, f"one worker served all {sent} requests"

        example = requests.get(f"{server.base}/rulesets/sistema-2d6", timeout=10).json()["example"]
        created = requests.post(f"{server.base}/combats", json=example["combat"], timeout=10)
        assert created.status_code == 201
        action = example["actions"][0]
        gm = {"Authorization": f"Bearer {created.json()['tokens']['gm']}"}
        acted = requests.post(
            f"{server.base}{created.headers['Location']}/actions", json=action, headers=gm, timeout=10
        )
        assert acted.status_code == 200, acted.text

        text = requests.get(f"{server.base}/metrics", headers=SCRAPE, timeout=10).text
    finally:
        output = server.stop()
    assert metric(text, "melee_http_requests_total", route="/healthz") == sent
    assert metric(text, "melee_http_request_duration_seconds_count", route="/healthz", status="200") == sent
    assert metric(text, "melee_http_requests_total", route="/combats/<combat_id>/actions", status="200") == 1
    assert metric(text, "melee_actions_total", ruleset="sistema-2d6", type=action["type"]) == 1
    assert metric(text, "melee_redis_command_duration_seconds_count", operation="commit") == 1
    assert metric(text, "melee_redis_command_duration_seconds_count", operation="ping") >= 1
    assert metric(text, "melee_redis_unavailable_total") == 0
    assert metric(text, "melee_active_streams") == 0
    [action_line] = [e for e in request_lines(output) if e["route"] == "/combats/<combat_id>/actions"]
    assert action_line["ruleset"] == "sistema-2d6" and action_line["action_type"] == action["type"]
    assert action_line["combat_id"] == created.json()["id"]
    assert not (metrics_dir / "counter_999999.db").exists()


def _raw_exchange(port: int, data: bytes) -> tuple[str, dict, dict]:
    """Send raw bytes; the status line, headers and JSON body of the answer."""
    import json
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
    return status, headers, json.loads(body)


GUNICORN_REFUSALS = [
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: melee\r\n\r\n", 414, "uri-too-long", "longer than 4094 bytes"),
    (
        b"GET /healthz HTTP/1.1\r\nHost: melee\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n",
        431,
        "headers-too-large",
        "8190 bytes",
    ),
    (
        b"GET /healthz HTTP/1.1\r\nHost: melee\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(120)) + b"\r\n",
        431,
        "headers-too-large",
        "more than 100 headers",
    ),
    (b"NOT HTTP AT ALL\r\n\r\n", 400, "malformed-request", "not valid HTTP/1.1"),
]


def test_gunicorns_own_errors_are_problems_too():
    port = free_port()
    server = gunicorn(base_env(port, WEB_CONCURRENCY="1"), port)
    try:
        server.wait_ready()
        answers = [_raw_exchange(port, request_bytes) for request_bytes, *_ in GUNICORN_REFUSALS]
        # And the app's own 413 for a chunked body (a generator: requests sends it chunked).
        chunks = (b'{"a": "' + b"a" * 10_000 if i == 0 else b"a" * 10_000 for i in range(8))
        chunked = requests.post(
            f"{server.base}/combats", data=chunks, headers={"Content-Type": "application/json"}, timeout=10
        )
    finally:
        server.stop()
    for (_, status, kind, says), (status_line, headers, problem) in zip(GUNICORN_REFUSALS, answers, strict=True):
        assert status_line.startswith(f"HTTP/1.1 {status} ")
        assert headers["content-type"] == "application/problem+json"
        assert problem["status"] == status and problem["type"] == f"/problems/{kind}" and says in problem["detail"]
        assert "aaaa" not in problem["detail"]  # never the request itself
    assert chunked.status_code == 413 and chunked.headers["Content-Type"] == "application/problem+json"
    assert chunked.json()["max_bytes"] == 65536
