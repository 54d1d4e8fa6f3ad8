"""The checked-in OpenAPI document is the one the code generates."""

import json

from service.openapi import OUTPUT, generate, render


def test_checked_in_openapi_matches_the_code():
    assert OUTPUT.read_text() == render(generate()), "openapi/openapi.json is stale: run python -m service.openapi"


def test_served_document_is_the_checked_in_one(client):
    assert client.get("/openapi.json").get_json() == json.loads(OUTPUT.read_text())


def test_every_ruleset_action_is_documented(client):
    spec = client.get("/openapi.json").get_json()
    refs = {ref["$ref"].rsplit("/", 1)[1] for ref in spec["components"]["schemas"]["Action"]["anyOf"]}
    for ruleset in client.get("/rulesets").get_json():
        detail = client.get(f"/rulesets/{ruleset['id']}").get_json()
        assert set(detail["actions"]) >= {"end_combat"}
        assert len(refs) >= len(detail["actions"])


def test_docs_render_without_network(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html, "the docs page must not load anything from a CDN"
    for asset in ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"):
        assert f"/docs/static/{asset}" in html
        response = client.get(f"/docs/static/{asset}")
        assert response.status_code == 200 and len(response.data) > 1000
