"""The process log stays one JSON object per line, even when a costly request
is refused on gevent's thread pool (issue 29, item 5).

A refusal raised inside the odds computation (a player setting the GM's
modifier: 403 not-your-decision) used to reach gevent's hub, which printed
its multi-line traceback on stderr beside the request's JSON line."""

from __future__ import annotations

import json

import requests

from service.rules.registry import get_ruleset

from .conftest import start_gunicorn, stop


def test_a_refused_odds_request_logs_json_lines_and_no_traceback():
    process, base = start_gunicorn({"REDIS_URL": None, "WEB_CONCURRENCY": "1", "COMPUTE_LIMIT": ""})
    try:
        example = get_ruleset("sistema-2d6").example()
        created = requests.post(f"{base}/combats", json=example["combat"], timeout=30).json()
        player = created["tokens"]["combatants"]["ana"]
        # The modifier is the game master's (sistema-2d6/schemas.py GM_MODIFIER): the rules refuse it
        # while computing the odds, on the thread pool.
        attack = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", "modifier": 2}
        for _ in range(3):
            answer = requests.post(
                f"{base}/combats/{created['id']}/odds",
                json={"action": attack, "method": "monte_carlo", "runs": 100},
                headers={"Authorization": f"Bearer {player}"},
                timeout=60,
            )
            assert answer.status_code == 403, answer.text
            assert answer.json()["type"] == "/problems/not-your-decision"
    finally:
        output = stop(process)
    assert "Traceback" not in output, output
    lines = [line for line in output.splitlines() if line.strip()]
    # gunicorn's master writes its own boot and exit lines ("[date] [pid] [INFO] ..."); from the
    # first request's line to the last, every line is the app's JSON.
    requests_logged = [
        i for i, line in enumerate(lines) if '"logger":"melee.request"' in line and "/readyz" not in line
    ]
    assert len(requests_logged) == 4, output  # the creation and the three refusals
    window = lines[requests_logged[0] : requests_logged[-1] + 1]
    not_json = []
    for line in window:
        try:
            json.loads(line)
        except ValueError:
            not_json.append(line)
    assert not not_json, not_json
    assert [json.loads(lines[i])["status"] for i in requests_logged] == [201, 403, 403, 403]
