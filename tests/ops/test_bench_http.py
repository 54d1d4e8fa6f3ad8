"""bench/http.py's own verdict (issue 30): a scenario that met any answer but
a 2xx makes the benchmark fail, with its status codes and a sample body,
instead of printing a ratio that counts errors as throughput."""

from __future__ import annotations

import argparse
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench import http as bench

ARGS = argparse.Namespace(connections=1, seconds=1, json=None)


def row(rps: float, non_2xx: int = 0, **extra) -> dict:
    return {"rps": rps, "p50_ms": 1.0, "p99_ms": 2.0, "non_2xx": non_2xx, "socket_errors": 0, "exhausted": 0, **extra}


def test_a_scenario_with_error_answers_fails_the_run_with_its_codes_and_a_sample(capsys):
    rows = [
        ("floor", row(1000)),
        ("attack: sistema-2d6", row(900, 3, statuses={404: 3}, sample='{"title": "Combat not found"}')),
        ("GET /combats/{id}", row(2000)),
    ]
    with pytest.raises(SystemExit) as exit_:
        bench.report(rows, "python", ARGS)
    assert exit_.value.code == 1
    out, err = capsys.readouterr()
    assert "attack: sistema-2d6: 3 non-2xx answers (status codes: 3 x 404)" in err
    assert 'sample body: {"title": "Combat not found"}' in err
    assert "GET /combats" not in err and "x |" not in out, "no ratio is printed"


def test_a_clean_run_prints_the_ratios(capsys):
    bench.report([("floor", row(1000)), ("attack: sistema-2d6", row(500))], "python", ARGS)
    assert "| attack: sistema-2d6 | 500 | 1.0 | 2.0 | 0.50x | 1.00x | 0 |" in capsys.readouterr().out


def test_the_python_load_generator_counts_each_status_and_keeps_a_sample(tmp_path):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            status = 404 if self.path == "/missing" else 200
            body = b'{"title": "Combat not found"}' if status == 404 else b"{}"
            self.send_response(status)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        lines = [bench.request_line("GET", "/ok", None), bench.request_line("GET", "/missing", None)] * 2
        result = bench.run_python(server.server_address[1], [lines], 30, tmp_path)
    finally:
        server.shutdown()
    assert result["requests"] == 4 and result["non_2xx"] == 2 and result["statuses"] == {404: 2}
    assert result["sample"] == '{"title": "Combat not found"}'
    assert bench.failures([("s", result)]) and bench.COMBAT_TTL_SECONDS >= 3600
