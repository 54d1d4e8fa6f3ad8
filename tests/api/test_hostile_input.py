"""Input built to break the service: each is a 4xx problem, never a 500, and
changes nothing; every integer a client may send is bounded."""

from __future__ import annotations

import copy
import io
import json

import pytest

from service.app import create_app
from service.settings import Settings

from .test_errors import assert_problem

DEEP = "[" * 30_000 + "]" * 30_000  # 60 kB: under the 64 KiB body limit


@pytest.fixture
def example(client) -> dict:
    return client.get("/rulesets/sistema-2d6").get_json()["example"]


@pytest.fixture
def fight(client, example) -> str:
    response = client.post("/combats", json=example["combat"])
    assert response.status_code == 201
    return response.headers["Location"]


def unchanged(client, fight):
    """The combat and its log, to compare before and after a refusal."""
    return client.get(fight).get_json(), client.get(f"{fight}/events").get_json()


@pytest.mark.parametrize("path", ["/combats", "{fight}/actions", "/simulations", "{fight}/odds"])
def test_json_nested_thirty_thousand_levels_is_400(client, fight, path):
    before = unchanged(client, fight)
    response = client.post(path.format(fight=fight), data=DEEP, content_type="application/json")
    problem = assert_problem(response, 400, kind="invalid-json")
    assert "nests more than 32 levels" in problem["detail"]
    assert unchanged(client, fight) == before


def test_a_body_nested_just_within_the_limit_reaches_the_schema(client):
    nested = {"combatants": "x"}
    for _ in range(30):
        nested = {"n": nested}
    assert_problem(client.post("/combats", json=nested), 422, kind="invalid-request")


@pytest.mark.parametrize("where", ["creation", "action"])
def test_a_lone_surrogate_in_a_string_is_400(client, example, fight, where):
    before = unchanged(client, fight)
    if where == "creation":
        body = json.dumps(example["combat"]).replace('"Ana"', '"\\ud800"', 1)
        response = client.post("/combats", data=body, content_type="application/json")
    else:
        response = client.post(
            f"{fight}/actions",
            data='{"type": "pass", "actor": "ana", "reason": "\\ud800"}',
            content_type="application/json",
        )
    problem = assert_problem(response, 400, kind="invalid-json")
    assert "surrogate" in problem["detail"]
    assert unchanged(client, fight) == before


# 2^64 and -2^63 - 1: orjson reads them as floats; the standard library's reading refuses them.
@pytest.mark.parametrize("number", ["9" * 4400, "1e400", "NaN", "-Infinity", str(2**63), str(2**64), str(-(2**63) - 1)])
def test_numbers_no_reader_can_hold_are_400(client, fight, number):
    before = unchanged(client, fight)
    body = '{"type": "attack", "actor": "ana", "target": "capanga", "modifier": ' + number + "}"
    assert_problem(
        client.post(f"{fight}/actions", data=body, content_type="application/json"), 400, kind="invalid-json"
    )
    assert unchanged(client, fight) == before


@pytest.mark.parametrize("after", [str(2**63), str(2**53), "9" * 400])
def test_events_after_beyond_any_seq_is_422(client, fight, after):
    assert_problem(client.get(f"{fight}/events?after={after}"), 422, "/after")


def test_events_after_the_largest_seq_is_an_empty_page(client, fight):
    response = client.get(f"{fight}/events?after={2**53 - 1}")
    assert response.status_code == 200 and response.get_json()["items"] == []


def test_stream_after_or_last_event_id_beyond_any_seq_is_422_before_streaming(client, fight):
    assert_problem(client.get(f"{fight}/stream?after={2**63}"), 422, "/after")
    response = client.get(f"{fight}/stream", headers={"Last-Event-ID": str(2**63)})
    assert_problem(response, 422, "/Last-Event-ID")


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        ("1d6+" + "9" * 4400, "at most 32 characters"),
        ("1d6+100000000000000000000", "beyond ±1000"),
        ("1d6+1001", "beyond ±1000"),
    ],
)
def test_a_dice_modifier_out_of_bounds_is_422(client, example, damage, says):
    body = copy.deepcopy(example["combat"])
    body["combatants"][1]["weapons"][0]["damage"] = damage
    refused = client.post("/combats", json=body, headers={"Accept-Language": "en"})  # the example's lang is pt
    problem = assert_problem(refused, 422, "/combatants/1/weapons/0/damage")
    assert says in problem["detail"]


def test_a_dice_modifier_at_the_bound_is_taken(client, example):
    body = copy.deepcopy(example["combat"])
    body["combatants"][1]["weapons"][0]["damage"] = "1d6+1000"
    assert client.post("/combats", json=body).status_code == 201


@pytest.mark.parametrize(
    ("adjust", "pointer"),
    [
        ({"set": {"pv": 10**100}}, None),  # beyond 64 bits: refused as JSON
        ({"set": {"pv": 100_001}}, "/set/pv/value"),
        ({"set": {"pv": [1]}}, "/set/pv/value"),
        ({"set": {"pv": "x" * 81}}, "/set/pv/value"),
        ({"change": {"pv": 1001}}, "/change/pv/value"),
    ],
)
def test_gm_adjustments_are_bounded(client, fight, adjust, pointer):
    before = unchanged(client, fight)
    response = client.post(f"{fight}/actions", json={"type": "adjust", "actor": "gm", "target": "ana", **adjust})
    assert_problem(response, 400 if pointer is None else 422, pointer)
    assert unchanged(client, fight) == before


def test_repeated_changes_cannot_carry_a_value_past_the_bound(client, fight):
    set_high = {"type": "adjust", "actor": "gm", "target": "ana", "set": {"pv": 99_500}}
    assert client.post(f"{fight}/actions", json=set_high).status_code == 200
    before = unchanged(client, fight)
    response = client.post(
        f"{fight}/actions", json={"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": 1000}}
    )
    problem = assert_problem(response, 422, "/change/pv")
    assert "100500" in problem["detail"] and "100000" in problem["detail"]
    assert unchanged(client, fight) == before


def test_a_text_plain_action_is_415_and_not_applied(client, fight):
    before = unchanged(client, fight)
    response = client.post(f"{fight}/actions", data='{"type": "pass", "actor": "ana"}', content_type="text/plain")
    problem = assert_problem(response, 415, kind="unsupported-media-type")
    assert "application/json" in problem["detail"]
    assert unchanged(client, fight) == before
    form = client.post(f"{fight}/actions", data={"type": "pass"})  # application/x-www-form-urlencoded
    assert_problem(form, 415, kind="unsupported-media-type")
    missing = client.post(f"{fight}/actions", data='{"type": "pass", "actor": "ana"}', headers={"Content-Type": ""})
    assert_problem(missing, 415)
    assert unchanged(client, fight) == before


def test_json_with_a_charset_or_a_json_suffix_type_is_taken(client, example):
    body = json.dumps(example["combat"])
    assert client.post("/combats", data=body, content_type="application/json; charset=utf-8").status_code == 201
    assert client.post("/combats", data=body, content_type="application/merge-patch+json").status_code == 201


@pytest.mark.parametrize("chunked", [False, True])
def test_too_large_a_body_is_a_413_problem_stating_the_limit(store, chunked):
    client = create_app(Settings(max_body_bytes=1024, rate_limit=""), store=store).test_client()
    body = b'{"ruleset": "' + b"x" * 5000 + b'"}'
    if chunked:
        # As gunicorn passes a chunked body: no Content-Length, the input marked terminated.
        response = client.post(
            "/combats",
            input_stream=io.BytesIO(body),
            content_type="application/json",
            headers={"Transfer-Encoding": "chunked"},
            environ_overrides={"wsgi.input_terminated": True},
        )
    else:
        response = client.post("/combats", data=body, content_type="application/json")
    problem = assert_problem(response, 413, kind="payload-too-large")
    assert "1024 bytes" in problem["detail"] and problem["max_bytes"] == 1024


# -- every integer a client may send has bounds ------------------------------------------


def _resolve(node, components, seen=()):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[1]
            return {} if name in seen else _resolve(components[name], components, (*seen, name))
        return {key: _resolve(value, components, seen) for key, value in node.items()}
    if isinstance(node, list):
        return [_resolve(item, components, seen) for item in node]
    return node


def unbounded_integers(node, path: str = "") -> list[str]:
    found = []
    if isinstance(node, dict):
        kind = node.get("type")
        if kind in ("integer", "number") and not ("minimum" in node and "maximum" in node):
            found.append(path or "/")
        for key, value in node.items():
            found.extend(unbounded_integers(value, f"{path}/{key}"))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found.extend(unbounded_integers(value, f"{path}/{index}"))
    return found


def test_every_integer_of_every_ruleset_schema_has_a_minimum_and_a_maximum(client):
    found = []
    for summary in client.get("/rulesets").get_json():
        details = client.get(f"/rulesets/{summary['id']}").get_json()
        for part in ("sheet", "options", "actions"):
            found.extend(f"{summary['id']} {part}{p}" for p in unbounded_integers(details[part]))
    assert found == []


def test_every_integer_a_request_may_carry_has_a_minimum_and_a_maximum(client):
    document = client.get("/openapi.json").get_json()
    components = document["components"]["schemas"]
    found = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict):
                continue
            inputs = {"parameters": operation.get("parameters", []), "requestBody": operation.get("requestBody", {})}
            found.extend(f"{method.upper()} {path} {p}" for p in unbounded_integers(_resolve(inputs, components)))
    assert found == []
