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


def test_a_verified_token_is_looked_up_once_then_remembered(store, monkeypatch):
    client = limited_client(store, "4 per minute")
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    created = client.post("/combats", json=body)
    location, headers = created.headers["Location"], {"Authorization": f"Bearer {created.get_json()['tokens']['gm']}"}
    lookups = []
    real = type(store).holds_grant
    monkeypatch.setattr(type(store), "holds_grant", lambda self, *args: lookups.append(args) or real(self, *args))
    statuses = [client.get(location, headers=headers).status_code for _ in range(5)]
    # Counted under the token (4 of them; the address had 2 left), looked up in Redis once.
    assert statuses == [200, 200, 200, 200, 429] and len(lookups) == 1


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
    from service.usecases import budget

    # /odds: the branches it allows, weighted by the combat's size (1 + (n - 2) / 12).
    assert budget.odds_cost("auto", 5_000, 10_000, 2) == 15_000  # auto: 10,000 leaves, then 5,000 runs
    assert budget.odds_cost("exact", 5_000, 300, 2) == 300
    assert budget.odds_cost("monte_carlo", 100, 10_000, 2) == 100
    assert budget.odds_cost("monte_carlo", 2_000, 10_000, 50) == 10_000  # 2,000 × (1 + 48 / 12)
    assert budget.odds_branches(10_000, 2) == 10_000
    assert budget.odds_branches(10_000, 50) == 2_000  # 10,000 / 5
    assert budget.odds_branches(1, 50) == 1
    # A fight: its measured CPU in 0.2 ms units, 10 at least.
    assert budget.fight_units("sistema-2d6", 2) == 10  # 0.4 ms: 2 units, raised to 10
    assert budget.fight_units("duel-2d6", 2) == 41  # 8.1 ms / 0.2
    assert budget.fight_units("sistema-2d6", 50) == 139  # 27.7 ms / 0.2
    assert budget.fight_units("duel-2d6", 50) == 8_797  # 1759.4 ms / 0.2
    assert budget.fight_units("a-plugin", 2) == 41  # unmeasured: the dearest
    # Between the measured sizes, interpolated: more combatants never cost less.
    for ruleset_id in budget.FIGHT_MS:
        costs = [budget.fight_units(ruleset_id, n) for n in range(2, 51)]
        assert costs == sorted(costs), ruleset_id
    fifty = {"ruleset": "sistema-2d6", "combatants": [{}] * 50}
    assert budget.simulation_cost(fifty, 250) == 34_750  # 250 × 139: the flat 10 a fight charged 2,500
    assert budget.max_fights(fifty) == 1_438  # 200,000 // 139


def big_template(client, ruleset_id: str, size: int) -> dict:
    """The example's combatants repeated (new ids and names) up to ``size``."""
    template = client.get(f"/rulesets/{ruleset_id}").get_json()["example"]["combat"]
    template = {k: v for k, v in template.items() if k not in ("dice", "seed")}
    people = template["combatants"]
    template["combatants"] = [{**people[i % len(people)], "id": f"c{i}", "name": f"C {i}"} for i in range(size)]
    return template


def test_a_simulation_costs_what_its_template_makes_it_do(store):
    client = limited_client(store, "", compute_limit="200000 per minute")
    template = big_template(client, "sistema-2d6", 50)
    # 100 fights of 50 combatants: 100 × 139 = 13,900 units, more than an inline request may
    # cost (12,500, about 2.5 s of a web worker; the flat cost charged 1,000 and ran them).
    inline = client.post("/simulations", json={"template": template, "fights": 100, "seed": 1, "background": False})
    assert inline.status_code == 422, inline.get_json()
    assert "at most 89 fights of this template inline" in str(inline.get_json()["errors"])  # 12,500 // 139
    # Past the most one request may cost (200,000 units): refused, naming how many fights fit.
    duel = big_template(client, "duel-2d6", 50)
    refused = client.post("/simulations", json={"template": duel, "fights": 23, "seed": 1, "background": True})
    assert refused.status_code == 422
    assert "at most 22 fights in one request" in str(refused.get_json()["errors"])  # 200,000 // 8,797


def queue_client(store, monkeypatch, max_chunks: int, compute_limit: str):
    """A client whose jobs go to a fakeredis queue taking ``max_chunks``; that Redis's queue; a sistema-2d6 template."""
    import fakeredis
    from rq import Queue

    from service.api import simulations as api_simulations
    from service.jobs.queue import QueueRunner
    from service.store.jobs import SimulationJobs

    redis = fakeredis.FakeRedis()
    runner = QueueRunner(SimulationJobs(redis), "test-queue", max_chunks=max_chunks)
    monkeypatch.setattr(api_simulations, "_runner", lambda: runner)
    client = limited_client(store, "", compute_limit=compute_limit)
    template = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    return client, Queue("test-queue", connection=redis), {k: v for k, v in template.items() if k != "dice"}


def test_a_full_simulation_queue_refuses_a_job_naming_its_limit(store, monkeypatch):
    client, queue, template = queue_client(store, monkeypatch, max_chunks=3, compute_limit="")
    # 4,001 fights: three chunks of 2,000 at most, as many as the queue takes.
    first = client.post("/simulations", json={"template": template, "fights": 4_001, "seed": 1})
    assert first.status_code == 202
    assert queue.count == 3
    # Any other client's job now waits for room (the queue is every client's).
    full = client.post("/simulations", json={"template": template, "fights": 300, "seed": 2})
    problem = full.get_json()
    assert full.status_code == 503 and problem["type"] == "/problems/simulation-queue-full", problem
    assert (problem["queued"], problem["limit"]) == (3, 3) and full.headers["Retry-After"] == "5"
    assert "SIMULATION_QUEUE_MAX_CHUNKS" in problem["detail"]
    assert queue.count == 3  # nothing more queued


def test_a_job_refused_by_a_full_queue_is_charged_nothing(store, monkeypatch):
    client, queue, template = queue_client(store, monkeypatch, max_chunks=9, compute_limit="200000 per minute")

    def post(fights: int) -> int:
        return client.post("/simulations", json={"template": template, "fights": fights, "seed": 1}).status_code

    assert post(2_000) == 202  # one chunk, 20,000 units (10 a fight): 180,000 left, room for 8 chunks
    assert post(18_000) == 503  # 9 chunks, 180,000 units: the queue refuses it
    queue.connection.delete(queue.key)  # the workers took the queued chunk
    # Had the refused job been charged, this client would have no unit left for it.
    assert post(18_000) == 202


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
