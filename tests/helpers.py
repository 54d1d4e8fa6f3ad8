"""Small helpers for tests that play fights through the API."""

from __future__ import annotations


def create(client, body: dict) -> tuple[str, dict]:
    """Create a combat; return its location and its state (tokens set apart)."""
    response = client.post("/combats", json=body)
    assert response.status_code == 201, response.get_json()
    combat = response.get_json()
    combat.pop("tokens")
    return response.headers["Location"], combat


def act(client, location: str, action: dict, status: int = 200) -> dict:
    response = client.post(f"{location}/actions", json=action)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def play(client, location: str, action: dict, status: int = 200) -> dict:
    """``act`` with the token of the action's actor (its player's, or the GM's for 'gm'),
    as a table plays: under the dice policy 'own' each player supplies only its combatant's dice."""
    tokens = client.tokens[location.rstrip("/").rsplit("/", 1)[-1]]
    token = tokens["gm"] if action["actor"] == "gm" else tokens["combatants"][action["actor"]]
    response = client.post(f"{location}/actions", json=action, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == status, response.get_json()
    return response.get_json()


def codes(result: dict) -> list[str]:
    return [event["code"] for event in result["events"]]


def event(result: dict, code: str) -> dict:
    found = [e for e in result["events"] if e["code"] == code]
    assert found, f"no {code} event in {codes(result)}"
    return found[0]["params"]


def log(client, location: str) -> list[dict]:
    entries, after = [], 0
    while True:
        page = client.get(f"{location}/events?after={after}&limit=200").get_json()
        entries.extend(page["items"])
        if page["next_after"] is None:
            return entries
        after = page["next_after"]
