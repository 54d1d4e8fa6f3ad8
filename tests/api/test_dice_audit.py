"""Dice nobody can predict, still auditable: the commitment, the reveal, the documented audit
script (docs/audit_dice.py, run as a subprocess on the fetched JSON), and fresh dice after an undo."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from service.rules.registry import get_ruleset

from ..helpers import act, create, log

AUDIT = Path(__file__).resolve().parents[2] / "docs" / "audit_dice.py"


def _unseeded_sistema() -> dict:
    """The sistema-2d6 example without its seed and dice: fresh keys, every die the server's."""
    return {k: v for k, v in get_ruleset("sistema-2d6").example()["combat"].items() if k not in ("seed", "dice")}


def _next_action(combat: dict) -> dict | None:
    """The awaited combatant's plain move (a defense, a death test, else an attack), or None
    once the fight is decided or someone is down (the dice decide which)."""
    waiting = combat["awaiting"][0] if combat["status"] == "active" and combat["awaiting"] else None
    if waiting is None or waiting["actor"] == "gm" or any(c["conditions"] for c in combat["combatants"]):
        return None
    if waiting["actions"] in (["defend"], ["death_test"]):
        return {"type": waiting["actions"][0], "actor": waiting["actor"]}
    foe = "capanga" if waiting["actor"] == "ana" else "ana"
    weapon = "pistola" if waiting["actor"] == "ana" else "faca"
    return {"type": "attack", "actor": waiting["actor"], "target": foe, "weapon": weapon}


def _audit(tmp_path: Path, combat: dict, entries: list[dict]) -> subprocess.CompletedProcess:
    (tmp_path / "combat.json").write_text(json.dumps(combat))
    (tmp_path / "log.json").write_text(json.dumps({"items": entries}))
    return subprocess.run(
        [sys.executable, str(AUDIT), str(tmp_path / "combat.json"), str(tmp_path / "log.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_fight_with_server_dice_passes_the_documented_audit_and_a_tampered_die_fails_it(client, tmp_path):
    location, created = create(client, _unseeded_sistema())
    assert created["dice_commitments"][0]["stream"] == 0 and len(created["dice_commitments"][0]["sha256"]) == 64
    seen = [json.dumps(created)]
    # Initiative is the server's too: whoever is awaited acts first.
    seen.append(json.dumps(act(client, location, _next_action(client.get(location).get_json()))))
    seen.append(json.dumps(client.post(f"{location}/undo").get_json()))  # a second stream
    seen.append(json.dumps(client.post(f"{location}/redo").get_json()))  # the first stream's dice again
    for _ in range(6):
        action = _next_action(client.get(location).get_json())
        if action is None:
            break
        seen.append(json.dumps(act(client, location, action)))
    before_end = client.get(location).get_json()
    seen += [json.dumps(before_end), json.dumps(log(client, location))]
    assert "dice_secrets" not in before_end and "dice_keys" not in before_end and "seed" not in before_end
    act(client, location, {"type": "end_combat", "actor": "gm", "reason": "audit"})

    combat, entries = client.get(location).get_json(), log(client, location)
    assert [s["stream"] for s in combat["dice_secrets"]] == [0, 1]
    assert not any(secret["key"] in text for secret in combat["dice_secrets"] for text in seen), (
        "no key shown before the end"
    )
    server_dice = [r for e in entries for r in e["rolls"] if r["source"] == "server"]
    assert len(server_dice) >= 6

    passed = _audit(tmp_path, combat, entries)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert passed.stdout.startswith("OK: ")

    tampered = copy.deepcopy(entries)
    roll = next(
        r for e in tampered if e["action"]["type"] not in ("redo",) for r in e["rolls"] if r["source"] == "server"
    )
    roll["value"] = roll["value"] % roll["sides"] + 1  # another face of the same die
    failed = _audit(tmp_path, combat, tampered)
    assert failed.returncode == 1 and "MISMATCH" in failed.stdout and "but the key gives" in failed.stdout

    other_key = copy.deepcopy(combat)
    other_key["dice_secrets"][1]["key"] = "00" * 32
    failed = _audit(tmp_path, other_key, entries)
    assert failed.returncode == 1 and "does not have the SHA-256 published for it" in failed.stdout


def test_an_active_combat_cannot_be_audited_yet(client, tmp_path):
    location, combat = create(client, _unseeded_sistema())
    result = _audit(tmp_path, client.get(location).get_json(), log(client, location))
    assert result.returncode == 2 and "revealed only once the fight is over" in result.stderr


def test_after_an_undo_a_new_action_never_draws_the_dice_the_undone_one_showed(client):
    # The GM supplies the initiative (Ana first); every later die is the server's, from fresh keys.
    location, _ = create(client, {**_unseeded_sistema(), "dice": [6, 5, 1, 2]})
    attack = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola"}
    first = [r["value"] for r in act(client, location, attack)["rolls"]]
    same = 0
    for undos in range(1, 21):
        assert client.post(f"{location}/undo").status_code == 200
        rolls = act(client, location, attack)["rolls"]
        # The generator is not rewound: each attack after an undo draws from the undo's new stream, from its start.
        assert [(r["source"], r["stream"], r["draw"]) for r in rolls] == [("server", undos, 0), ("server", undos, 1)]
        same += [r["value"] for r in rolls] == first
    # With fresh keys the two attack dice repeat the undone ones with probability 1/36 each time
    # (before, the restored generator repeated them every time: 20 of 20). The count X of repeats in
    # 20 undos is Binomial(20, 1/36): P(X >= 5) = sum_{k>=5} C(20,k) (1/36)^k (35/36)^(20-k) = 1.8e-4.
    assert same <= 4, same
