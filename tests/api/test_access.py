"""Who may do what: every endpoint about a combat, for every role."""

import pytest

from service.app import create_app
from service.settings import Settings

from ..helpers import create

EXAMPLE = None


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def fight(client):
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    body = {**body, "hidden_sheets": ["capanga"]}
    location, combat = create(client, body)
    tokens = client.tokens[combat["id"]]
    return {
        "location": location,
        "id": combat["id"],
        "gm": bearer(tokens["gm"]),
        "ana": bearer(tokens["combatants"]["ana"]),
        "capanga": bearer(tokens["combatants"]["capanga"]),
        "nobody": {"Authorization": ""},
        "forged": bearer("forged-token-that-was-never-issued"),
    }


READS = [("get", ""), ("get", "/events")]


@pytest.mark.parametrize(
    ("method", "suffix"), [*READS, ("post", "/actions"), ("delete", ""), ("get", "/tokens"), ("post", "/tokens")]
)
@pytest.mark.parametrize("who", ["nobody", "forged"])
def test_no_or_unknown_token_is_401_with_a_bearer_challenge(client, fight, method, suffix, who):
    response = getattr(client, method)(
        f"{fight['location']}{suffix}", json={"type": "pass", "actor": "ana"}, headers=fight[who]
    )
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert response.get_json()["type"] == "/problems/unauthorized"


def test_a_token_of_another_combat_does_not_open_this_one(client, fight):
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    _, other = create(client, body)
    other_gm = bearer(client.tokens[other["id"]]["gm"])
    assert client.get(fight["location"], headers=other_gm).status_code == 401


@pytest.mark.parametrize(("method", "suffix"), READS)
@pytest.mark.parametrize("who", ["gm", "ana", "capanga"])
def test_every_role_reads(client, fight, method, suffix, who):
    assert getattr(client, method)(f"{fight['location']}{suffix}", headers=fight[who]).status_code == 200


def test_a_player_acts_only_for_its_own_combatant(client, fight):
    as_capanga = client.post(
        f"{fight['location']}/actions", json={"type": "pass", "actor": "ana"}, headers=fight["capanga"]
    )
    assert as_capanga.status_code == 403
    assert "capanga" in as_capanga.get_json()["detail"]
    assert client.get(fight["location"], headers=fight["gm"]).get_json()["version"] == 1
    as_ana = client.post(f"{fight['location']}/actions", json={"type": "pass", "actor": "ana"}, headers=fight["ana"])
    assert as_ana.status_code == 200


@pytest.mark.parametrize("who", ["ana", "capanga"])
def test_game_master_things_need_the_gm_token(client, fight, who):
    location = fight["location"]
    assert (
        client.post(f"{location}/actions", json={"type": "end_combat", "actor": "gm"}, headers=fight[who]).status_code
        == 403
    )
    assert (
        client.post(f"{location}/actions", json={"type": "end_combat", "actor": who}, headers=fight[who]).status_code
        == 403
    )
    assert client.delete(location, headers=fight[who]).status_code == 403
    assert client.get(f"{location}/tokens", headers=fight[who]).status_code == 403
    assert client.post(f"{location}/tokens", json={"role": "gm"}, headers=fight[who]).status_code == 403
    assert client.get(location, headers=fight["gm"]).get_json()["status"] == "active"


def test_the_gm_acts_for_anyone_and_ends_the_fight(client, fight):
    location = fight["location"]
    assert (
        client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers=fight["gm"]).status_code
        == 200
    )
    ended = client.post(f"{location}/actions", json={"type": "end_combat", "actor": "gm"}, headers=fight["gm"])
    assert ended.get_json()["combat"]["status"] == "over"
    assert client.delete(location, headers=fight["gm"]).status_code == 204


def test_hidden_sheets_reach_the_gm_and_their_own_player_only(client, fight):
    def capanga_seen_by(who):
        combat = client.get(fight["location"], headers=fight[who]).get_json()
        return next(c for c in combat["combatants"] if c["id"] == "capanga")

    assert "sheet" not in capanga_seen_by("ana")
    assert capanga_seen_by("ana")["pv"] == 15, "current values stay visible, as at the table"
    assert "sheet" in capanga_seen_by("gm")
    assert "sheet" in capanga_seen_by("capanga")
    result = client.post(
        f"{fight['location']}/actions", json={"type": "pass", "actor": "ana"}, headers=fight["ana"]
    ).get_json()
    assert "sheet" not in next(c for c in result["combat"]["combatants"] if c["id"] == "capanga")


def test_hidden_sheets_must_name_combatants(client):
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    response = client.post("/combats", json={**body, "hidden_sheets": ["ghost"]})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/hidden_sheets/0"


def test_the_gm_mints_lists_and_revokes_tokens(client, fight):
    location = fight["location"]
    minted = client.post(f"{location}/tokens", json={"role": "player", "combatant": "ana"}, headers=fight["gm"])
    assert minted.status_code == 201
    token = minted.get_json()
    assert token["combatant"] == "ana" and len(token["token"]) >= 32
    listed = client.get(f"{location}/tokens", headers=fight["gm"]).get_json()
    assert {t["id"] for t in listed} >= {token["id"]}
    assert all("token" not in t for t in listed), "tokens are never listed, only their ids"
    second_ana = bearer(token["token"])
    assert (
        client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers=second_ana).status_code == 200
    )
    assert client.delete(f"{location}/tokens/{token['id']}", headers=fight["gm"]).status_code == 204
    assert client.get(location, headers=second_ana).status_code == 401
    assert client.delete(f"{location}/tokens/{token['id']}", headers=fight["gm"]).status_code == 404
    # An unknown id is not echoed back (no quotes, escapes or 200 characters of input in the sentence).
    unknown = client.delete(f"{location}/tokens/%00{'x' * 200}", headers=fight["gm"])
    assert unknown.status_code == 404
    assert unknown.get_json()["detail"] == "this combat has no token with that id"


def test_minting_for_an_unknown_combatant_is_422(client, fight):
    response = client.post(
        f"{fight['location']}/tokens", json={"role": "player", "combatant": "ghost"}, headers=fight["gm"]
    )
    assert response.status_code == 422 and response.get_json()["errors"][0]["pointer"] == "/combatant"


def test_the_last_gm_token_cannot_be_revoked(client, fight):
    listed = client.get(f"{fight['location']}/tokens", headers=fight["gm"]).get_json()
    gm_id = next(t["id"] for t in listed if t["role"] == "gm")
    response = client.delete(f"{fight['location']}/tokens/{gm_id}", headers=fight["gm"])
    assert response.status_code == 409
    assert client.get(fight["location"], headers=fight["gm"]).status_code == 200


def everything_stored(client, key) -> bytes:
    kind = client.type(key)
    if kind == b"hash":
        return b"".join(client.hgetall(key).values())
    if kind == b"list":
        return b"".join(client.lrange(key, 0, -1))
    if kind == b"stream":
        return b"".join(v for _, fields in client.xrange(key) for v in fields.values())
    raise AssertionError(f"unexpected key type {kind!r} for {key!r}")


def test_tokens_are_stored_as_digests_only(client, fight, store):
    raw = b"".join(
        everything_stored(store.client, key) for key in store.client.scan_iter(match=f"combat:{{{fight['id']}}}:*")
    )
    keys = b"".join(store.client.hkeys(f"combat:{{{fight['id']}}}:access"))
    for who in ("gm", "ana", "capanga"):
        token = fight[who]["Authorization"].split()[1].encode()
        assert token not in raw and token not in keys


def test_api_keys_restrict_who_creates_combats(store):
    client = create_app(Settings(rate_limit="", api_keys=("k-123",)), store=store).test_client()
    body = client.get("/rulesets/sistema-2d6").get_json()["example"]["combat"]
    refused = client.post("/combats", json=body)
    assert refused.status_code == 401 and refused.get_json()["type"] == "/problems/unauthorized"
    assert client.post("/combats", json=body, headers={"X-API-Key": "wrong"}).status_code == 401
    assert client.post("/combats", json=body, headers={"X-API-Key": "k-123"}).status_code == 201
