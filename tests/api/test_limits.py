"""Hostile input: rate limits, CORS, size caps."""

import secrets

from service.app import create_app
from service.settings import Settings

from ..helpers import create


def limited_client(store, limit="3 per minute", **settings):
    return create_app(Settings(rate_limit=limit, **settings), store=store).test_client()


def test_a_client_over_its_rate_gets_a_429_problem_with_retry_after(store):
    client = limited_client(store)
    statuses = [client.get("/rulesets").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    response = client.get("/rulesets")
    assert response.content_type == "application/problem+json"
    assert response.get_json()["type"] == "/problems/rate-limited"
    assert int(response.headers["Retry-After"]) > 0


def test_clients_are_counted_apart_by_verified_api_key(store):
    client = limited_client(store, "2 per minute", api_keys=("alpha", "beta"))
    for _ in range(2):
        client.get("/rulesets", headers={"X-API-Key": "alpha"})
    assert client.get("/rulesets", headers={"X-API-Key": "alpha"}).status_code == 429
    assert client.get("/rulesets", headers={"X-API-Key": "beta"}).status_code == 200
    # An unknown key is no credential: the address's own count (untouched so far).
    assert client.get("/rulesets", headers={"X-API-Key": "gamma"}).status_code == 200


def test_made_up_credentials_do_not_escape_the_limit(store):
    client = limited_client(store, "3 per minute")
    statuses = []
    for _ in range(5):
        fake = secrets.token_urlsafe(24)
        statuses.append(
            client.get("/rulesets", headers={"Authorization": f"Bearer {fake}", "X-API-Key": fake}).status_code
        )
    assert statuses == [200, 200, 200, 429, 429]


def test_made_up_bearer_tokens_on_a_combat_count_as_the_address(store):
    client = limited_client(store, "3 per minute")
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    location, _ = create(client, body)  # 2 requests so far from this address
    fake = {"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}
    assert client.get(location, headers=fake).status_code == 401
    assert client.get(location, headers={"Authorization": f"Bearer {secrets.token_urlsafe(24)}"}).status_code == 429


def test_each_verified_combat_token_has_its_own_count(store):
    client = limited_client(store, "3 per minute")
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    created = client.post("/combats", json=body)
    tokens, location = created.get_json()["tokens"], created.headers["Location"]
    # The address has spent 2 of its 3; each token counts from 0.
    for token in (tokens["gm"], *tokens["combatants"].values()):
        headers = {"Authorization": f"Bearer {token}"}
        assert [client.get(location, headers=headers).status_code for _ in range(4)] == [200, 200, 200, 429]


def test_one_limit_covers_every_endpoint_together(store):
    client = limited_client(store, "3 per minute")
    assert client.get("/rulesets").status_code == 200
    assert client.get("/rulesets/sistema-2d6").status_code == 200
    assert client.get("/version").status_code == 200
    assert client.get("/rulesets/dark-earth").status_code == 429
    assert client.post("/combats", json={}).status_code == 429


def test_probes_and_docs_are_never_limited(store):
    client = limited_client(store, "1 per minute")
    assert all(client.get("/healthz").status_code == 200 for _ in range(5))
    assert all(client.get("/openapi.json").status_code == 200 for _ in range(3))


def test_cors_allow_list_and_never_credentials(store):
    client = create_app(Settings(rate_limit="", cors_origins=("https://foundry.example",)), store=store).test_client()
    allowed = client.get("/rulesets", headers={"Origin": "https://foundry.example"})
    assert allowed.headers["Access-Control-Allow-Origin"] == "https://foundry.example"
    assert "Access-Control-Allow-Credentials" not in allowed.headers
    assert "ETag" in allowed.headers["Access-Control-Expose-Headers"]
    other = client.get("/rulesets", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    preflight = client.options(
        "/combats",
        headers={
            "Origin": "https://foundry.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "Idempotency-Key, If-Match",
        },
    )
    assert preflight.status_code == 200
    assert "idempotency-key" in preflight.headers["Access-Control-Allow-Headers"].lower()


def test_default_cors_is_open_without_credentials(client):
    response = client.get("/rulesets", headers={"Origin": "https://owlbear.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response.headers


# -- the compute budget (docs/security.md#costly-requests) -------------------------------


def odds_fight(client, api_key=None):
    """A combat whose first action's odds are quick (one leaf); its location, the GM's headers, the action."""
    key = {"X-API-Key": api_key} if api_key else {}
    example = client.get("/rulesets/age-du-silicium").get_json()["example"]
    created = client.post("/combats", json=example["combat"], headers=key)
    action = {k: v for k, v in example["actions"][0].items() if k != "dice"}
    return created.headers["Location"], {**key, "Authorization": f"Bearer {created.get_json()['tokens']['gm']}"}, action


def test_costly_requests_draw_on_a_compute_budget_per_client(store):
    client = limited_client(store, "", compute_limit="200000 per minute")
    location, gm, action = odds_fight(client)
    # Each default request allows 10,000 leaves + 5,000 runs = 15,000 units: 13 fit in 200,000.
    statuses = [client.post(f"{location}/odds", json={"action": action}, headers=gm).status_code for _ in range(14)]
    assert statuses == [200] * 13 + [429]
    refused = client.post(
        f"{location}/odds", json={"action": action, "method": "exact", "max_leaves": 5001}, headers=gm
    )
    problem = refused.get_json()
    assert refused.status_code == 429 and problem["type"] == "/problems/compute-budget-exhausted"
    assert problem["cost"] == 5001 and 0 < int(refused.headers["Retry-After"]) <= 60
    # 200,000 - 13 × 15,000 = 5,000 units left: a cheaper request still fits, and ordinary requests are not concerned.
    assert (
        client.post(
            f"{location}/odds", json={"action": action, "method": "exact", "max_leaves": 5000}, headers=gm
        ).status_code
        == 200
    )
    assert client.get(location, headers=gm).status_code == 200
    # Another client (another combat's GM token) has its own budget.
    other, other_gm, _ = odds_fight(client)
    assert client.post(f"{other}/odds", json={"action": action}, headers=other_gm).status_code == 200


def test_simulated_fights_cost_ten_units_each(store):
    client = limited_client(store, "", compute_limit="200000 per minute", api_keys=("studio-key",))
    template = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    template = {k: v for k, v in template.items() if k != "dice"}
    location, headers, action = odds_fight(client, "studio-key")  # the API key is the client, on both endpoints
    # 13 × 15,000 = 195,000 units, then 250 fights × 10 = 2,500 fit twice; a third does not.
    for _ in range(13):
        assert client.post(f"{location}/odds", json={"action": action}, headers=headers).status_code == 200
    body = {"template": template, "fights": 250, "seed": 1}
    runs = [client.post("/simulations", json=body, headers={"X-API-Key": "studio-key"}).status_code for _ in range(3)]
    assert runs == [200, 200, 429]


def test_a_compute_limit_below_the_largest_request_is_refused_at_start():
    import pytest

    from service.settings import SettingsError

    with pytest.raises(SettingsError, match="must allow at least 200000"):
        Settings.from_env({"COMPUTE_LIMIT": "1000 per minute"})


def test_request_costs_are_the_work_they_allow():
    from service.api import odds, simulations

    defaults = odds.OddsRequest().load({"action": {}})
    assert odds.compute_cost(defaults) == 15_000  # auto: 10,000 leaves, then 5,000 runs
    assert odds.compute_cost({**defaults, "method": "exact", "max_leaves": 300}) == 300
    assert odds.compute_cost({**defaults, "method": "monte_carlo", "runs": 100}) == 100
    assert simulations.compute_cost(20_000) == 200_000


def test_a_worker_computes_one_costly_request_at_a_time(store):
    app = create_app(Settings(rate_limit="", compute_limit=""), store=store)
    client = app.test_client()
    location, gm, action = odds_fight(client)
    slots = app.extensions["melee.compute_slots"]
    assert slots.take()  # a costly request in flight on another thread
    busy = client.post(f"{location}/odds", json={"action": action}, headers=gm)
    assert busy.status_code == 503 and busy.get_json()["type"] == "/problems/compute-busy"
    assert busy.headers["Retry-After"] == "5"
    assert client.get(location, headers=gm).status_code == 200  # live play is served meanwhile
    slots.give_back()
    assert client.post(f"{location}/odds", json={"action": action}, headers=gm).status_code == 200
    assert slots.used == 0  # given back after the request, as after a refusal
    assert client.post(f"{location}/odds", json={"action": {"type": "nope"}}, headers=gm).status_code == 422
    assert slots.used == 0
