"""A full fight over HTTP against a real gunicorn process."""

import os
import subprocess
import sys

import pytest
import requests

from .conftest import ROOT, free_port, start_gunicorn, stop

pytestmark = pytest.mark.e2e


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_to_the_end(base: str, body: dict, max_actions: int = 200) -> tuple[str, dict, dict]:
    """Each player acts with its own token; returns the location, state and GM headers."""
    created = requests.post(f"{base}/combats", json=body, timeout=10)
    assert created.status_code == 201, created.text
    location = base + created.headers["Location"]
    combat = created.json()
    tokens = combat.pop("tokens")
    for _ in range(max_actions):
        if combat["status"] == "over" or not combat["awaiting"]:
            break
        waiting = combat["awaiting"][0]
        actor = waiting["actor"]
        if waiting["reason"] == "defense":
            action = {"type": "defend", "actor": actor}
        elif waiting["reason"] == "death_test":
            action = {"type": "death_test", "actor": actor}
        else:
            foes = [c for c in combat["combatants"] if c["side"] != _side(combat, actor) and not _down(c)]
            action = (
                {"type": "attack", "actor": actor, "target": foes[0]["id"]}
                if foes
                else {"type": "pass", "actor": actor}
            )
        headers = {"If-Match": f'"{combat["version"]}"', **bearer(tokens["combatants"][actor])}
        response = requests.post(f"{location}/actions", json=action, headers=headers, timeout=10)
        assert response.status_code == 200, response.text
        combat = response.json()["combat"]
    return location, combat, bearer(tokens["gm"])


def _side(combat, actor):
    return next(c["side"] for c in combat["combatants"] if c["id"] == actor)


def _down(combatant):
    return any(c["code"] in ("unconscious", "dead") for c in combatant["conditions"])


def test_a_full_sistema_fight_to_the_end(server):
    example = requests.get(f"{server}/rulesets/sistema-2d6", timeout=10).json()["example"]
    body = {**example["combat"], "seed": 2026, "options": {"auto_end": True}}
    location, combat, as_gm = play_to_the_end(server, body)
    assert combat["status"] == "over"
    assert combat["seed"] == 2026
    losers = [c for c in combat["combatants"] if _down(c)]
    assert len(losers) == 1
    entries, after = [], 0
    while after is not None:
        page = requests.get(
            f"{location}/events", params={"after": after, "limit": 50}, headers=as_gm, timeout=10
        ).json()
        entries.extend(page["items"])
        after = page["next_after"]
    assert [e["seq"] for e in entries] == list(range(1, combat["version"] + 1))
    codes = [e["code"] for entry in entries for e in entry["events"]]
    assert "damage_taken" in codes and codes[-2:] == ["combat_over", "combat_summary"]
    assert all(r["source"] == "server" for entry in entries[1:] for r in entry["rolls"])


def test_the_same_seed_replays_the_same_fight(server):
    example = requests.get(f"{server}/rulesets/sistema-2d6", timeout=10).json()["example"]
    body = {**example["combat"], "seed": 99, "options": {"auto_end": True}}
    logs = []
    for _ in range(2):
        location, _, as_gm = play_to_the_end(server, body)
        page = requests.get(f"{location}/events", params={"limit": 200}, headers=as_gm, timeout=10).json()
        logs.append([(e["action"], e["rolls"], e["events"]) for e in page["items"]])
    assert logs[0] == logs[1]


def test_docs_and_openapi_are_served(server):
    assert requests.get(f"{server}/openapi.json", timeout=10).json()["info"]["title"] == "Melee"
    assert "swagger-ui-bundle.js" in requests.get(f"{server}/docs", timeout=10).text


def test_embedded_store_forces_one_worker_and_says_so():
    process, base = start_gunicorn({"REDIS_URL": None, "WEB_CONCURRENCY": "3"})
    try:
        assert requests.get(f"{base}/healthz", timeout=5).json() == {"status": "ok"}
    finally:
        output = stop(process)
    assert "embedded store, 1 worker" in output
    assert "embedded store" in output and "Booting worker" in output
    assert output.count("Booting worker") == 1


@pytest.mark.parametrize("preload", [False, True], ids=["in-each-worker", "preload"])
def test_gunicorn_with_two_workers_on_the_embedded_store_refuses_to_serve(preload):
    # The habit of many Flask users, bypassing deploy/gunicorn.conf.py: two
    # workers would hold two embedded stores (a combat created through one,
    # 404 on the other). gunicorn stops instead, saying why and what to do.
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "WEB_CONCURRENCY", "GUNICORN_CMD_ARGS")}
    command = [sys.executable, "-m", "gunicorn", "-w", "2", "-b", f"127.0.0.1:{free_port()}", "--no-control-socket"]
    process = subprocess.run(
        [*command, *(["--preload"] if preload else []), "service.app:create_app()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,  # it stops once the app is loaded: seconds on a quiet machine
    )
    assert process.returncode != 0
    assert "REDIS_URL is not set and gunicorn runs 2 workers" in process.stderr, process.stderr
    assert "Run one worker (-w 1" in process.stderr
    assert "Booting worker" not in process.stderr if preload else "Worker failed to boot" in process.stderr
