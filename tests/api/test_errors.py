"""Bad input: a clear 4xx problem naming the field, and the combat untouched."""

import pytest

from service.app import create_app
from service.settings import Settings
from service.store import connect

from ..helpers import act, create

PROBLEM = "application/problem+json"


@pytest.fixture
def fight(client):
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]
    location, _ = create(client, body["combat"])
    return location


def assert_problem(response, status, pointer=None, kind=None):
    assert response.status_code == status, response.get_json()
    assert response.content_type == PROBLEM
    problem = response.get_json()
    assert problem["status"] == status and problem["title"] and problem["detail"]
    if kind:
        assert problem["type"] == f"/problems/{kind}"
    if pointer:
        assert pointer in [e["pointer"] for e in problem["errors"]], problem
    return problem


@pytest.mark.parametrize(
    ("action", "status", "pointer", "kind"),
    [
        ({"type": "attack", "actor": "ana", "target": "capanga", "bogus": 1}, 422, "/bogus", "invalid-request"),
        ({"type": "attack", "actor": "ana", "target": "capanga", "modifier": "2"}, 422, "/modifier", "invalid-request"),
        (
            {"type": "attack", "actor": "ana", "target": "capanga", "modifier": True},
            422,
            "/modifier",
            "invalid-request",
        ),
        ({"type": "attack", "actor": "ana", "target": "capanga", "modifier": 99}, 422, "/modifier", "invalid-request"),
        ({"type": "attack", "actor": "ana"}, 422, "/target", "invalid-request"),
        ({"type": "fly", "actor": "ana"}, 422, "/type", "invalid-request"),
        ({"actor": "ana"}, 422, "/type", "invalid-request"),
        ({"type": "attack", "actor": "zed", "target": "capanga"}, 422, "/actor", "invalid-action"),
        ({"type": "attack", "actor": "ana", "target": "zed"}, 422, "/target", "invalid-action"),
        ({"type": "attack", "actor": "ana", "target": "capanga", "weapon": "laser"}, 422, "/weapon", "invalid-action"),
        ({"type": "attack", "actor": "capanga", "target": "ana"}, 409, "/actor", "not-your-turn"),
        ({"type": "end_combat", "actor": "ana"}, 409, "/actor", "action-not-allowed"),
        ({"type": "attack", "actor": "ana", "target": "capanga", "dice": [7, 1]}, 422, "/dice/0", "die-out-of-range"),
        ({"type": "attack", "actor": "ana", "target": "capanga", "dice": [0]}, 422, "/dice/0", "invalid-request"),
        (
            {"type": "attack", "actor": "ana", "target": "capanga", "difficulty": 8, "dice": [3, 3, 3, 3]},
            422,
            "/dice/3",
            "unused-dice",
        ),
        ({"type": "attack", "actor": "ana", "target": "capanga", "dice": [1] * 201}, 422, "/dice", "invalid-request"),
    ],
)
def test_bad_actions_are_4xx_problems_and_change_nothing(client, fight, action, status, pointer, kind):
    before = client.get(fight).get_json()
    log_before = client.get(f"{fight}/events").get_json()
    assert_problem(client.post(f"{fight}/actions", json=action), status, pointer, kind)
    assert client.get(fight).get_json() == before
    assert client.get(f"{fight}/events").get_json() == log_before


def test_actions_after_the_end_are_refused(client, fight):
    act(client, fight, {"type": "end_combat", "actor": "gm"})
    before = client.get(fight).get_json()
    problem = assert_problem(
        client.post(f"{fight}/actions", json={"type": "pass", "actor": "ana"}), 409, kind="combat-over"
    )
    # The example combat is in Portuguese.
    assert problem["detail"] == "o combate terminou; nenhuma ação é mais aceita"
    assert client.get(fight).get_json() == before


@pytest.mark.parametrize(
    ("mutate", "pointer"),
    [
        (lambda b: b.pop("combatants"), "/combatants"),
        (lambda b: b.update(combatants=b["combatants"][:1]), "/combatants"),
        (lambda b: b.update(ruleset="chess"), "/ruleset"),
        (lambda b: b.update(lang="de"), "/lang"),
        (lambda b: b.update(seed=-1), "/seed"),
        (lambda b: b.update(options={"death_threshold": "cinematic"}), "/options/death_threshold"),
        (lambda b: b["combatants"][0].update(id="capanga"), "/combatants/1/id"),
        (lambda b: b["combatants"][0].update(id="gm"), "/combatants/0/id"),
        (lambda b: b["combatants"][1].update(attributes={"FOR": 1}), "/combatants/1/attributes"),
        (lambda b: b["combatants"][1].update(colour="red"), "/combatants/1/colour"),
        (lambda b: b["combatants"][1]["weapons"][0].update(damage="3d7"), "/combatants/1/weapons/0/damage"),
        (lambda b: b["combatants"][1]["weapons"][0].update(damage="101d6"), "/combatants/1/weapons/0/damage"),
        (lambda b: b["combatants"][0].update(name="x" * 81), "/combatants/0/name"),
        (lambda b: b.update(dice=[9]), "/dice/0"),
    ],
)
def test_bad_creation_bodies_are_422_naming_the_field(client, mutate, pointer):
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    mutate(body)
    assert_problem(client.post("/combats", json=body), 422, pointer)


@pytest.mark.parametrize("data", ["[1, 2]", "null"])
def test_a_body_that_is_not_a_json_object(client, data):
    assert_problem(client.post("/combats", data=data, content_type="application/json"), 422, "/")


@pytest.mark.parametrize("data", ["not json", '{"ruleset": ', ""])
def test_a_body_that_is_not_json_is_400(client, data):
    response = client.post("/combats", data=data, content_type="application/json")
    assert_problem(response, 400, kind="invalid-json")
    assert response.get_json()["detail"].startswith(("the body is not valid JSON: ", "the body is empty"))


def test_too_large_a_body_is_413(store):
    app = create_app(Settings(max_body_bytes=1024), store=store)
    response = app.test_client().post("/combats", data="x" * 5000, content_type="application/json")
    assert_problem(response, 413, kind="payload-too-large")


def test_unknown_combat_and_route_and_method(client, fight):
    assert_problem(client.get("/combats/unknown"), 404, kind="not-found")
    assert_problem(client.post("/combats/unknown/actions", json={"type": "pass", "actor": "a"}), 404)
    assert_problem(client.get("/nowhere"), 404)
    wrong_method = client.put(fight)
    assert_problem(wrong_method, 405, kind="method-not-allowed")
    assert set(wrong_method.headers["Allow"].split(", ")) == {"GET", "HEAD", "DELETE", "OPTIONS"}


def test_bad_query_parameters(client, fight):
    assert_problem(client.get(f"{fight}/events?limit=0"), 422, "/limit")
    assert_problem(client.get(f"{fight}/events?after=-1"), 422, "/after")
    assert_problem(client.get(f"{fight}/events?after=x"), 422, "/after")


def test_redis_down_is_503_with_retry_after():
    store = connect("redis://127.0.0.1:1/0", ttl_seconds=60, timeout_seconds=0.2)
    client = create_app(Settings(retry_after_seconds=7), store=store).test_client()
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    for response in (
        client.post("/combats", json=body),
        client.get("/combats/abc"),
        client.post("/combats/abc/actions", json={"type": "pass", "actor": "ana"}),
        client.get("/readyz"),
    ):
        assert_problem(response, 503, kind="store-unavailable")
        assert response.headers["Retry-After"] == "7"
    assert client.get("/healthz").status_code == 200


def test_an_unexpected_error_is_a_500_problem_without_internals(store, monkeypatch):
    app = create_app(Settings(), store=store)
    monkeypatch.setattr("service.usecases.creation.create_combat", lambda *a, **k: 1 / 0)
    body = app.test_client().get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    problem = assert_problem(app.test_client().post("/combats", json=body), 500, kind="internal-error")
    assert "ZeroDivision" not in str(problem)
