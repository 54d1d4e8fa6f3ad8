"""The README's curl walkthrough works as written."""

import json
import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def walkthrough_bodies() -> list[dict]:
    section = README.read_text().split("## A fight with curl", 1)[1].split("\n## ", 1)[0]
    return [json.loads(body) for body in re.findall(r"-d '(\{.*?\})'", section)]


def test_the_readme_fight_plays_as_described(client):
    creation, *actions = walkthrough_bodies()
    assert len(actions) == 4
    response = client.post("/combats", json=creation)
    assert response.status_code == 201
    location = response.headers["Location"]
    texts = []
    for action in actions:
        result = client.post(f"{location}/actions", json=action)
        assert result.status_code == 200, result.get_json()
        texts.append([e["text"] for e in result.get_json()["events"]])
    assert texts[0][0] == "Ana attacks Capanga with Pistola: 5, 4 → 15."
    assert "Capanga loses 9 PV and has 6 left." in texts[0]
    assert "Capanga misses Ana (critical failure: no)." in texts[1] and "Round 2 begins." in texts[1]
    assert "Capanga dies." in texts[2]
    combat = result.get_json()["combat"]
    assert combat["status"] == "over" and isinstance(combat["seed"], int)
