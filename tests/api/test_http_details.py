"""HTTP details that keep browsers, caches and proxies from misusing the API."""

from __future__ import annotations

import base64
import hashlib
import re

import pytest

from .test_errors import assert_problem


@pytest.fixture
def fight(client) -> str:
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    response = client.post("/combats", json=body)
    assert response.status_code == 201
    return response.headers["Location"]


def test_if_match_compares_strongly_a_weak_tag_never_matches(client, fight):
    before = client.get(fight).get_json()
    assert before["version"] == 1
    response = client.post(f"{fight}/actions", json={"type": "pass", "actor": "ana"}, headers={"If-Match": 'W/"1"'})
    assert_problem(response, 412, kind="precondition-failed")
    assert client.get(fight).get_json() == before
    assert (
        client.post(f"{fight}/actions", json={"type": "pass", "actor": "ana"}, headers={"If-Match": '"1"'}).status_code
        == 200
    )


def test_answers_carrying_tokens_and_the_log_are_never_stored(client, fight):
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    created = client.post("/combats", json=body)
    assert "tokens" in created.get_json() and created.headers["Cache-Control"] == "no-store"
    minted = client.post(f"{fight}/tokens", json={"role": "player", "combatant": "ana"})
    assert minted.status_code == 201 and minted.headers["Cache-Control"] == "no-store"
    assert client.post(f"{fight}/actions", json={"type": "pass", "actor": "ana"}).headers["Cache-Control"] == "no-store"
    assert client.get(f"{fight}/events").headers["Cache-Control"] == "no-store"
    # A combat read is the caller's alone and revalidated with its ETag.
    assert client.get(fight).headers["Cache-Control"] == "private, no-cache"


@pytest.mark.parametrize("suffix", ["", "/events", "/options?actor=gm", "/tokens"])
def test_answers_that_depend_on_the_caller_vary_on_authorization(client, fight, suffix):
    response = client.get(fight + suffix)
    assert response.status_code == 200
    assert "Authorization" in response.headers["Vary"]


def test_no_answer_may_be_sniffed_into_another_type(client, fight):
    for response in (client.get("/rulesets"), client.get(fight), client.get("/nowhere"), client.get("/play")):
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def _sha256(script: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script.encode()).digest()).decode() + "'"


def test_play_runs_only_its_own_scripts_and_cannot_be_framed(client):
    response = client.get("/play")
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "style-src 'self';" in policy
    assert "frame-ancestors 'none'" in policy and response.headers["X-Frame-Options"] == "DENY"
    # Nothing inline that the policy would block.
    html = response.get_data(as_text=True)
    assert re.findall(r"<script>", html) == [] and "<style" not in html and " style=" not in html
    assert " on" not in re.sub(r"\s+", " ", html).replace(" one", "")  # no inline event handlers


def test_docs_allow_their_one_inline_script_by_hash(client):
    response = client.get("/docs")
    policy = response.headers["Content-Security-Policy"]
    [script] = re.findall(r"<script>(.*?)</script>", response.get_data(as_text=True), re.DOTALL)
    assert _sha256(script) in policy and "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy and response.headers["X-Frame-Options"] == "DENY"


def test_cors_preflights_allow_x_api_key_and_are_cached(client):
    preflight = client.options(
        "/combats",
        headers={
            "Origin": "https://foundry.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Content-Type, X-API-Key",
        },
    )
    assert preflight.status_code == 200
    assert "x-api-key" in preflight.headers["Access-Control-Allow-Headers"].lower()
    assert preflight.headers["Access-Control-Max-Age"] == "7200"


def test_gunicorns_problems_are_the_apps_kinds():
    import json

    from service import gunicorn_errors
    from service.api import problems

    assert (gunicorn_errors.PROBLEM_JSON, gunicorn_errors.TYPE_BASE) == (problems.PROBLEM_JSON, problems.TYPE_BASE)
    assert set(gunicorn_errors.KINDS.values()) <= set(problems.PROBLEM_TYPES)
    limits = {"limit_request_line": 4094, "limit_request_fields": 100, "limit_request_field_size": 8190}
    head, _, body = gunicorn_errors.problem_bytes(414, "URI Too Long", limits).partition(b"\r\n\r\n")
    assert b"Content-Length: %d" % len(body) in head
    assert json.loads(body)["type"] == "/problems/uri-too-long"
