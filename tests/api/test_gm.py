"""Game-master controls over HTTP: options, a newcomer's token, the end summary."""

from ..helpers import act, codes, create, event

ANA = {
    "id": "ana",
    "name": "Ana",
    "side": "heros",
    "pv": 6,
    "attributes": {"FOR": 0, "DEX": 1, "CON": 0, "SEN": 0},
    "skills": {"Bagarre": 1},
}


def duel(client):
    bob = {**ANA, "id": "bob", "name": "Bob", "side": "truands"}
    location, _ = create(client, {"ruleset": "duel-2d6", "combatants": [ANA, bob], "seed": 3})
    return location, location.rsplit("/", 1)[1]


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def test_a_newcomer_gets_a_token_and_joins_with_the_interruption_roll(client):
    location, combat_id = duel(client)
    carl = {**ANA, "id": "carl", "name": "Carl"}
    result = act(client, location, {"type": "join", "actor": "gm", "combatant": carl, "reason": "reinforcements"})
    assert event(result, "joined") == {"combatant": "carl", "side": "heros", "author": "gm", "reason": "reinforcements"}
    token = result["tokens"]["combatants"]["carl"]
    options = client.get(f"{location}/options?actor=carl", headers=bearer(token))
    assert options.status_code == 200
    joins = [o for o in options.get_json()["actions"] if o["type"] == "join"]
    assert joins and joins[0]["params"]["target"]["choices"] == ["bob"]
    response = client.post(
        f"{location}/actions", json={"type": "join", "actor": "carl", "target": "bob"}, headers=bearer(token)
    )
    assert response.status_code == 200, response.get_json()
    assert "interruption_rolled" in codes(response.get_json())
    assert client.tokens[combat_id]  # the creation tokens are still the test client's


def test_options_are_filtered_by_role_and_name_a_bad_actor(client):
    location, combat_id = duel(client)
    bob_token = client.tokens[combat_id]["combatants"]["bob"]
    assert client.get(f"{location}/options?actor=ana", headers=bearer(bob_token)).status_code == 403
    assert client.get(f"{location}/options?actor=gm", headers=bearer(bob_token)).status_code == 403
    mine = client.get(f"{location}/options?actor=bob", headers=bearer(bob_token))
    assert mine.status_code == 200 and mine.get_json()["actor"] == "bob"
    bad = client.get(f"{location}/options?actor=zed")
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["pointer"] == "/actor"
    gm = client.get(f"{location}/options?actor=gm").get_json()
    assert {"adjust", "modify", "override", "condition", "join", "leave", "end_combat"} <= {
        o["type"] for o in gm["actions"]
    }


def test_a_player_cannot_adjust_and_the_ended_fight_stays_readable_with_its_summary(client):
    location, combat_id = duel(client)
    ana_token = client.tokens[combat_id]["combatants"]["ana"]
    refused = client.post(
        f"{location}/actions",
        json={"type": "adjust", "actor": "ana", "target": "ana", "set": {"pv": 9}},
        headers=bearer(ana_token),
    )
    assert refused.status_code == 403
    result = act(client, location, {"type": "end_combat", "actor": "gm", "reason": "enough"})
    assert result["events"][-1]["code"] == "combat_summary"
    assert result["events"][-1]["params"]["rounds"] == 1
    combat = client.get(location)
    assert combat.status_code == 200 and combat.get_json()["status"] == "over"
    assert client.get(f"{location}/options?actor=ana").get_json()["actions"] == []


def test_the_gms_reason_is_in_the_sentence_in_the_readers_language(client):
    location, _ = duel(client)
    result = act(
        client, location, {"type": "adjust", "actor": "gm", "target": "ana", "set": {"pv": 2}, "reason": "poison"}
    )
    adjusted = next(e for e in result["events"] if e["code"] == "value_adjusted")
    # ANA's sheet: 6 PV, set to 2.
    assert adjusted["params"]["reason"] == "poison"
    assert adjusted["text"] == "The game master sets Ana's HP from 6 to 2 (reason: poison)."
    seq = result["action"]["seq"]
    texts = {}
    for lang in ("fr", "pt"):
        page = client.get(f"{location}/events?after={seq - 1}", headers={"Accept-Language": lang}).get_json()
        texts[lang] = next(e["text"] for e in page["items"][0]["events"] if e["code"] == "value_adjusted")
    assert texts == {
        "fr": "Ana : le meneur de jeu fait passer les PV de 6 à 2 (motif : poison).",
        "pt": "Ana: o mestre muda os PV de 6 para 2 (motivo: poison).",
    }
    ended = act(client, location, {"type": "end_combat", "actor": "gm"})
    assert [e["text"] for e in ended["events"] if e["code"] == "combat_ended"] == ["The game master ends the fight."]
