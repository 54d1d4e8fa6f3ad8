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


def _json_schema(node):
    """An OpenAPI 3.0 schema as JSON Schema: `nullable` admits null (the only difference these schemas use)."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items() if key != "discriminator"}
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    ref = node.get("$ref")
    if isinstance(ref, str):
        node["$ref"] = ref.replace("#/components/schemas/", "#/$defs/")
    return node


def test_the_legal_actions_of_every_ruleset_are_typed_by_its_action_fields(client):
    schemas = client.get("/openapi.json").get_json()["components"]["schemas"]
    attack = schemas["Duel2d6AttackLegalAction"]["properties"]
    assert attack["type"] == {"type": "string", "enum": ["attack"]}
    maneuver = attack["params"]["properties"]["maneuver"]["allOf"]
    assert maneuver[0] == {"$ref": "#/components/schemas/LegalParam"}
    # The choices of a parameter are values of the action's own field (reused, not declared again).
    field = schemas["Duel2d6AttackAction"]["properties"]["maneuver"]
    assert maneuver[1]["properties"]["choices"]["items"]["enum"] == field["enum"]
    for ruleset in RULESETS.values():
        prefix = ruleset.schema_prefix
        actions = schemas[f"{prefix}Action"]["discriminator"]["mapping"]
        legal = schemas[f"{prefix}LegalAction"]["discriminator"]["mapping"]
        assert set(legal) == set(actions)
        for action_type, ref in legal.items():
            params = schemas[ref.rsplit("/", 1)[1]]["properties"]["params"]["properties"]
            fields = schemas[actions[action_type].rsplit("/", 1)[1]]["properties"]
            assert set(params) == set(fields) - {"type", "actor", "dice"}, (prefix, action_type)
        options = schemas[f"{prefix}ActionOptions"]["properties"]["actions"]["items"]
        assert options == {"$ref": f"#/components/schemas/{prefix}LegalAction"}


def test_every_answer_of_options_is_valid_against_its_rulesets_schema(client):
    """Each ruleset's example, played: at each step every actor's /options (and the GM's) fits the document."""
    import jsonschema

    schemas = _json_schema(client.get("/openapi.json").get_json()["components"]["schemas"])
    for ruleset in RULESETS.values():
        validator = jsonschema.Draft202012Validator(
            {"$ref": f"#/$defs/{ruleset.schema_prefix}ActionOptions", "$defs": schemas}
        )
        example = ruleset.example()
        created = client.post("/combats", json=example["combat"]).get_json()
        gm = {"Authorization": f"Bearer {created['tokens']['gm']}"}
        for action in [None, *example["actions"]]:
            if action is not None:
                token = created["tokens"]["combatants"].get(action["actor"], created["tokens"]["gm"])
                client.post(
                    f"/combats/{created['id']}/actions", json=action, headers={"Authorization": f"Bearer {token}"}
                )
            for actor in ["gm", *created["tokens"]["combatants"]]:
                answer = client.get(f"/combats/{created['id']}/options?actor={actor}", headers=gm).get_json()
                errors = [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator.iter_errors(answer)]
                assert not errors, (ruleset.id, actor, errors[:3])
