"""The checked-in OpenAPI document is the one the code generates."""

import json

from service.i18n import english
from service.openapi import OUTPUT, generate, render
from service.rules.registry import RULESETS


def test_checked_in_openapi_matches_the_code():
    assert OUTPUT.read_text() == render(generate()), "openapi/openapi.json is stale: run python -m service.openapi"


def test_served_document_is_the_checked_in_one(client):
    assert client.get("/openapi.json").get_json() == json.loads(OUTPUT.read_text())


def test_every_ruleset_action_is_a_branch_of_its_discriminated_union(client):
    spec = client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    unions = {ref["$ref"].rsplit("/", 1)[1] for ref in schemas["Action"]["anyOf"]}
    assert unions == {f"{ruleset.schema_prefix}Action" for ruleset in RULESETS.values()}
    for ruleset in RULESETS.values():
        union = schemas[f"{ruleset.schema_prefix}Action"]
        mapping = union["discriminator"]["mapping"]
        assert union["discriminator"]["propertyName"] == "type"
        assert set(mapping) == set(client.get(f"/rulesets/{ruleset.id}").get_json()["actions"])
        assert sorted(ref["$ref"] for ref in union["anyOf"]) == sorted(mapping.values())
        for action_type, ref in mapping.items():
            assert schemas[ref.rsplit("/", 1)[1]]["properties"]["type"] == {"type": "string", "enum": [action_type]}


def test_a_joining_combatant_is_typed_by_the_ruleset_sheet(client):
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    join = schemas["Sistema2d6Action"]["discriminator"]["mapping"]["join"].rsplit("/", 1)[1]
    assert schemas[join]["properties"]["combatant"]["allOf"] == [{"$ref": "#/components/schemas/Sistema2d6Sheet"}]


def test_every_operation_has_an_id_security_and_problem_answers(client):
    spec = client.get("/openapi.json").get_json()
    ids = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            ids.append(operation["operationId"])
            assert operation["summary"] and operation["description"], (method, path)
            assert "security" in operation, (method, path)
            if path.startswith("/combats/{combat_id}"):  # each declares it: undeclared is public
                assert operation["security"] == [{"bearer": []}], (method, path)
            if operation["security"] and path not in ("/healthz", "/readyz"):
                assert "401" in operation["responses"], (method, path)
    assert len(ids) == len(set(ids))
    assert {"createCombat", "postAction", "getCombat", "listEvents"} <= set(ids)
    assert spec["paths"]["/rulesets"]["get"]["security"] == []
    assert set(spec["components"]["securitySchemes"]) == {"bearer", "apiKey"}


def test_links_lead_from_creating_a_combat_to_acting_and_reading_the_log(client):
    paths = client.get("/openapi.json").get_json()["paths"]
    created = paths["/combats"]["post"]["responses"]["201"]["links"]
    assert created["postAction"] == {
        "operationId": "postAction",
        "parameters": {"combat_id": "$response.body#/id"},
        "description": "Post the next action to this combat.",
    }
    acted = paths["/combats/{combat_id}/actions"]["post"]["responses"]["200"]["links"]
    assert acted["listEvents"]["parameters"] == {"combat_id": "$request.path.combat_id"}


def test_docs_render_without_network(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "http://" not in html and "https://" not in html, "the docs page must not load anything from a CDN"
    for asset in ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js"):
        assert f"/docs/static/{asset}" in html
        response = client.get(f"/docs/static/{asset}")
        assert response.status_code == 200 and len(response.data) > 1000


# Every answer of each ruleset's example fight matches its ruleset's schemas: the ruleset kit (tests/kit/).


def test_each_event_code_of_a_ruleset_has_its_schema_naming_its_params(client):
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    mapping = schemas["Sistema2d6Event"]["discriminator"]["mapping"]
    assert set(mapping) == {
        key.split(".")[0] for key in english("sistema-2d6")
    }  # "code.flag": a variant of code's sentence
    taken = schemas[mapping["damage_taken"].rsplit("/", 1)[1]]
    assert taken["properties"]["code"] == {"type": "string", "enum": ["damage_taken"]}
    # "{target} loses {amount} PV and has {pv} left."
    assert set(taken["properties"]["params"]["properties"]) == {"target", "amount", "pv"}
