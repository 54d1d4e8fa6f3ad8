"""The combat lifecycle over HTTP."""

from service.rules.registry import RULESETS

from ..helpers import act, codes, create, log, play


def example(client, ruleset="sistema-2d6"):
    return client.get(f"/rulesets/{ruleset}").get_json()["example"]


def test_rulesets_list_and_detail(client):
    listed = client.get("/rulesets").get_json()
    assert {r["id"] for r in listed} == set(RULESETS)
    detail = client.get("/rulesets/sistema-2d6").get_json()
    assert detail["language"] == "pt"
    assert {"attack", "defend", "death_test", "stabilize", "test", "pass", "end_combat"} <= set(detail["actions"])
    assert detail["option_defaults"]["death_threshold"] == "realistic"
    assert "tiro" in detail["catalog"]["weapons"]
    assert detail["sheet"]["properties"]["weapons"]["items"]["properties"]["damage"]["type"] == "string"


def test_a_ruleset_publishes_the_words_of_its_choices_per_language(client):
    # /play's menus show these instead of ids: left_arm is a hit location of the space opera.
    labels = client.get("/rulesets/space-opera-d100").get_json()["labels"]
    assert {"en", "fr", "pt"} <= set(labels)
    assert [labels[lang]["location"]["left_arm"] for lang in ("en", "fr", "pt")] == [
        "left arm",
        "bras gauche",
        "braço esquerdo",
    ]


def test_unknown_ruleset_is_a_404_problem(client):
    response = client.get("/rulesets/nope")
    assert response.status_code == 404
    assert response.content_type == "application/problem+json"
    assert "sistema-2d6" in response.get_json()["detail"]


def test_every_ruleset_example_plays(client):
    for ruleset in RULESETS:
        body = example(client, ruleset)
        location, combat = create(client, body["combat"])
        assert combat["ruleset"] == ruleset and combat["version"] == 1
        for action in body["actions"]:  # each from its actor's token: the examples follow the dice policy 'own'
            result = play(client, location, action)
        assert result["combat"]["version"] == 1 + len(body["actions"])


def test_create_returns_location_etag_and_the_state(client):
    response = client.post("/combats", json=example(client)["combat"])
    assert response.status_code == 201
    combat = response.get_json()
    assert response.headers["Location"] == f"/combats/{combat['id']}"
    assert response.headers["ETag"] == '"1"'
    assert combat["status"] == "active" and combat["round"] == 1
    assert combat["awaiting"] == [{"actor": "ana", "actions": ["attack", "test", "pass"], "reason": "turn"}]
    assert combat["expires_at"].endswith("Z")
    assert "rng" not in combat and "seed" not in combat, "future rolls must not be predictable"


def test_action_response_has_every_roll_and_event_with_text(client):
    body = example(client)
    location, _ = create(client, body["combat"])
    result = act(client, location, body["actions"][0])
    assert result["action"] == {"seq": 2, "type": "attack", "actor": "ana"}
    assert result["rolls"] == [
        {"sides": 6, "value": 5, "purpose": "attack", "roller": "ana", "source": "gm"},
        {"sides": 6, "value": 4, "purpose": "attack", "roller": "ana", "source": "gm"},
    ]
    assert codes(result) == ["attack_rolled", "awaiting_defense"]
    assert result["events"][0]["text"] == "Ana ataca Capanga com Pistola: 5, 4 → 15."
    assert result["combat"]["awaiting"] == [{"actor": "capanga", "actions": ["defend"], "reason": "defense"}]
    result = act(client, location, body["actions"][1])
    damage = [r for r in result["rolls"] if r["purpose"] == "damage"]
    assert len(damage) == 1 and damage[0]["source"] == "server"


def test_get_combat_with_etag_and_if_none_match(client):
    location, combat = create(client, example(client)["combat"])
    response = client.get(location)
    assert response.get_json() == combat
    assert response.headers["ETag"] == '"1"'
    assert client.get(location, headers={"If-None-Match": '"1"'}).status_code == 304


def test_events_log_is_ordered_and_paginated(client):
    body = example(client)
    location, _ = create(client, body["combat"])
    for action in body["actions"]:
        act(client, location, action)
    page = client.get(f"{location}/events?after=0&limit=2").get_json()
    assert [e["seq"] for e in page["items"]] == [1, 2]
    assert page["next_after"] == 2 and page["last_seq"] == 3
    page = client.get(f"{location}/events?after=2&limit=2").get_json()
    assert [e["seq"] for e in page["items"]] == [3] and page["next_after"] is None
    entries = log(client, location)
    assert entries[0]["action"]["type"] == "start"
    assert [e["code"] for e in entries[0]["events"]][:2] == ["combat_started", "initiative_rolled"]
    assert all("text" in e for entry in entries for e in entry["events"])


def test_if_match_makes_an_action_conditional(client):
    body = example(client)
    location, _ = create(client, body["combat"])
    stale = client.post(f"{location}/actions", json=body["actions"][0], headers={"If-Match": '"7"'})
    assert stale.status_code == 412
    assert stale.get_json()["current_version"] == 1
    assert client.get(location).get_json()["version"] == 1
    fresh = client.post(f"{location}/actions", json=body["actions"][0], headers={"If-Match": '"1"'})
    assert fresh.status_code == 200 and fresh.headers["ETag"] == '"2"'


def test_delete(client):
    location, _ = create(client, example(client)["combat"])
    assert client.delete(location).status_code == 204
    assert client.get(location).status_code == 404
    assert client.delete(location).status_code == 404


def test_the_seed_is_revealed_when_the_fight_is_over(client):
    body = {**example(client)["combat"], "seed": 1234}
    location, _ = create(client, body)
    result = act(client, location, {"type": "end_combat", "actor": "gm", "reason": "the villains flee"})
    assert result["combat"]["status"] == "over"
    assert result["combat"]["seed"] == 1234
    # The reason as the GM typed it, in the Portuguese sentence.
    assert result["events"][0]["text"] == "O mestre encerra o combate (motivo: the villains flee)."


def test_health_and_readiness(client):
    assert client.get("/healthz").get_json() == {"status": "ok"}
    assert client.get("/readyz").get_json() == {"status": "ready"}


def test_problem_types_are_documented(client):
    response = client.get("/problems/not-your-turn")
    assert response.status_code == 200 and "awaiting" in response.get_json()["description"]


def test_accept_language_overrides_the_combat_language_per_request(client):
    body = example(client)
    location, _ = create(client, body["combat"])  # lang "pt"
    act(client, location, body["actions"][0])

    def first_text(headers):
        page = client.get(f"{location}/events?after=1", headers=headers).get_json()
        return page["items"][0]["events"][0]["text"]

    assert first_text({}) == "Ana ataca Capanga com Pistola: 5, 4 → 15."
    assert first_text({"Accept-Language": "fr-FR,fr;q=0.9"}) == "Ana attaque Capanga avec Pistola : 5, 4 → 15."
    assert first_text({"Accept-Language": "en"}) == "Ana attacks Capanga with Pistola: 5, 4 → 15."
    assert first_text({"Accept-Language": "de"}) == "Ana ataca Capanga com Pistola: 5, 4 → 15."
    # Node's fetch sends "*": any language will do, so the combat's own one it is.
    assert first_text({"Accept-Language": "*"}) == "Ana ataca Capanga com Pistola: 5, 4 → 15."
    assert first_text({"Accept-Language": "de, *;q=0.5"}) == "Ana ataca Capanga com Pistola: 5, 4 → 15."
    assert first_text({"Accept-Language": "en, *;q=0.5"}) == "Ana attacks Capanga with Pistola: 5, 4 → 15."
