"""bench/http.py's own verdict (issue 30): a scenario that met any answer but
a 2xx makes the benchmark fail, with its status codes and a sample body,
instead of printing a ratio that counts errors as throughput."""

from __future__ import annotations

import argparse
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench import http as bench

ARGS = argparse.Namespace(connections=1, seconds=1, passes=3, json=None)


def row(rps: float, non_2xx: int = 0, **extra) -> dict:
    return {"rps": rps, "p50_ms": 1.0, "p99_ms": 2.0, "non_2xx": non_2xx, "socket_errors": 0, "exhausted": 0, **extra}


def floor_and(*results: dict, floors=(1000, 1000, 1000)) -> list[tuple[dict, dict]]:
    """Passes: each scenario pass after a floor pass."""
    return [(row(f), r) for f, r in zip(floors, results, strict=True)]


def test_a_scenario_with_error_answers_fails_the_run_with_its_codes_and_a_sample(capsys):
    failing = row(900, 3, statuses={404: 3}, sample='{"title": "Combat not found"}')
    rows = [
        ("attack: sistema-2d6", floor_and(row(900), failing, row(900))),
        ("GET /combats/{id}", floor_and(row(2000), row(2000), row(2000))),
    ]
    with pytest.raises(SystemExit) as exit_:
        bench.report(rows, "python", ARGS)
    assert exit_.value.code == 1
    out, err = capsys.readouterr()
    assert "attack: sistema-2d6: 3 non-2xx answers (status codes: 3 x 404)" in err
    assert 'sample body: {"title": "Combat not found"}' in err
    assert "GET /combats" not in err and "x |" not in out, "no ratio is printed"


def test_a_clean_run_prints_the_median_ratio_and_its_spread(capsys):
    # Ratios 0.50, 0.45, 0.55: median 0.50, spread (0.55 - 0.45) / 0.50 = 20 %; floor spread 0 %.
    bench.report([("attack: sistema-2d6", floor_and(row(500), row(450), row(550)))], "python", ARGS)
    out = capsys.readouterr().out
    assert "| attack: sistema-2d6 | 500 | 2.0 | 0.50x | 20% | 1000 | 0% |" in out
    assert "too noisy" not in out


def test_a_floor_that_spreads_too_wide_is_said(capsys):
    # Floor 800, 1000, 1200: spread 400 / 1000 = 40 %, above the limit.
    passes = floor_and(row(400), row(500), row(600), floors=(800, 1000, 1200))
    bench.report([("GET /combats/{id}", passes)], "python", ARGS)
    assert "GET /combats/{id}: the floor's own passes spread more than 15%" in capsys.readouterr().out


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
    assert bench.failures([("s", [(row(1000), result)])]) and bench.COMBAT_TTL_SECONDS >= 3600
