"""POST /combats/<id>/odds over HTTP: nothing in Redis changes, errors point at the field, roles apply."""

from __future__ import annotations

from service.rules.registry import get_ruleset
from service.store.keys import combat_keys
from tests.helpers import act, create

EXAMPLE = get_ruleset("sistema-2d6").example()
ATTACK = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola"}


def raw_combat(store, combat_id: str) -> dict:
    """Every key of the combat, serialized by Redis itself (DUMP), and the keys that exist."""
    keys = sorted(k.decode() for k in store.client.keys(f"combat:{{{combat_id}}}*"))
    return {"keys": keys, **{key: store.client.dump(key) for key in combat_keys(combat_id)}}


def test_odds_change_nothing_in_redis(client, store):
    location, combat = create(client, EXAMPLE["combat"])
    # An answered Idempotency-Key, so that its record is compared too.
    client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers={"Idempotency-Key": "k" * 20})
    before = raw_combat(store, combat["id"])
    response = client.post(
        f"{location}/odds", json={"action": {**ATTACK, "actor": "capanga", "target": "ana", "weapon": "faca"}}
    )
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["method"] == "exact"
    assert raw_combat(store, combat["id"]) == before


def test_odds_then_the_action_roll_the_same_dice_as_the_action_alone(client):
    location, _ = create(client, {**EXAMPLE["combat"], "seed": 7})
    other, _ = create(client, {**EXAMPLE["combat"], "seed": 7})
    assert (
        client.post(f"{location}/odds", json={"action": ATTACK, "method": "monte_carlo", "runs": 100}).status_code
        == 200
    )
    after_odds = act(client, location, ATTACK)
    alone = act(client, other, ATTACK)
    assert after_odds["rolls"] == alone["rolls"]


def test_odds_answer_exactly_with_the_default_defense(client):
    location, _ = create(client, EXAMPLE["combat"])
    body = client.post(f"{location}/odds", json={"action": ATTACK}).get_json()
    assert body["method"] == "exact" and body["leaves"] > 1
    assert body["assumed_answers"] == [{"type": "defend", "actor": "capanga"}]
    assert abs(sum(o["probability"] for o in body["outcomes"]) - 1) < 1e-9
    assert {o["outcome"] for o in body["outcomes"]} >= {"hit", "miss"}


def test_a_bad_action_is_a_422_pointing_into_the_request(client):
    location, _ = create(client, EXAMPLE["combat"])
    response = client.post(f"{location}/odds", json={"action": {**ATTACK, "target": "nobody"}})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/action/target"
    response = client.post(f"{location}/odds", json={"action": {**ATTACK, "bogus": 1}})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"].startswith("/action/bogus")
    response = client.post(f"{location}/odds", json={"action": ATTACK, "runs": 10**9})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/runs"


def test_exact_odds_of_a_tree_too_wide_is_a_422_on_method(client):
    location, _ = create(client, EXAMPLE["combat"])
    response = client.post(f"{location}/odds", json={"action": ATTACK, "method": "exact", "max_leaves": 50})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/method"


def test_a_player_asks_only_for_its_own_actions(client):
    location, combat = create(client, EXAMPLE["combat"])
    tokens = client.tokens[combat["id"]]["combatants"]
    as_capanga = {"Authorization": f"Bearer {tokens['capanga']}"}
    assert client.post(f"{location}/odds", json={"action": ATTACK}, headers=as_capanga).status_code == 403
    as_ana = {"Authorization": f"Bearer {tokens['ana']}"}
    assert client.post(f"{location}/odds", json={"action": ATTACK}, headers=as_ana).status_code == 200
    assert client.post(f"{location}/odds", json={"action": ATTACK}).status_code == 200  # the GM
    assert (
        client.post(f"{location}/odds", json={"action": ATTACK}, headers={"Authorization": "Bearer nope"}).status_code
        == 401
    )


def test_while_the_gm_hides_sheets_only_the_gm_asks_for_odds(client):
    location, combat = create(client, {**EXAMPLE["combat"], "hidden_sheets": ["capanga"]})
    tokens = client.tokens[combat["id"]]["combatants"]
    as_ana = {"Authorization": f"Bearer {tokens['ana']}"}
    refused = client.post(f"{location}/odds", json={"action": ATTACK}, headers=as_ana)
    assert refused.status_code == 403 and "capanga" in refused.get_json()["detail"]
    assert client.post(f"{location}/odds", json={"action": ATTACK}).status_code == 200  # the GM
    # The hidden combatant's own player still may: no other sheet is hidden from him.
    as_capanga = {"Authorization": f"Bearer {tokens['capanga']}"}
    act(client, location, {"type": "pass", "actor": "ana"})
    own = {"type": "pass", "actor": "capanga"}
    assert client.post(f"{location}/odds", json={"action": own}, headers=as_capanga).status_code == 200
