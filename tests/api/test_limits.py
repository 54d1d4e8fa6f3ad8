"""Hostile input: rate limits, CORS, size caps."""

from service.app import create_app
from service.settings import Settings


def limited_client(store, limit="3 per minute"):
    return create_app(Settings(rate_limit=limit), store=store).test_client()


def test_a_client_over_its_rate_gets_a_429_problem_with_retry_after(store):
    client = limited_client(store)
    statuses = [client.get("/rulesets").status_code for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    response = client.get("/rulesets")
    assert response.content_type == "application/problem+json"
    assert response.get_json()["type"] == "/problems/rate-limited"
    assert int(response.headers["Retry-After"]) > 0


def test_clients_are_counted_apart_by_credential(store):
    client = limited_client(store, "2 per minute")
    for _ in range(2):
        client.get("/rulesets", headers={"X-API-Key": "alpha"})
    assert client.get("/rulesets", headers={"X-API-Key": "alpha"}).status_code == 429
    assert client.get("/rulesets", headers={"X-API-Key": "beta"}).status_code == 200


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
        headers={"Origin": "https://foundry.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "Idempotency-Key, If-Match"},
    )
    assert preflight.status_code == 200
    assert "idempotency-key" in preflight.headers["Access-Control-Allow-Headers"].lower()


def test_default_cors_is_open_without_credentials(client):
    response = client.get("/rulesets", headers={"Origin": "https://owlbear.example"})
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response.headers
