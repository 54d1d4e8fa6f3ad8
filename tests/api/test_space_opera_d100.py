"""space-opera-d100 over HTTP: the example, refusals, and replay from a seed."""

import pytest

from service.rules.registry import get_ruleset

from ..helpers import act, codes, create, event, log, play

RULESET = get_ruleset("space-opera-d100")


def _sheet(combatant_id, side, **extra):
    return {
        "id": combatant_id,
        "name": combatant_id.capitalize(),
        "side": side,
        "attributes": {"DEX": 12, "CON": 12},
        "skills": {"Armes blanches": 55, "Armes contondantes": 55, "Esquive": 40, "Bloquer": 45},
        "pv": 14,
        "armour": 2,
        "weapons": [
            {"id": "epee", "catalog": "epee"},
            {"id": "matraque", "catalog": "matraque"},
            {"id": "bouclier", "catalog": "bouclier"},
        ],
        **extra,
    }


def _body(seed=None):
    body = {"ruleset": RULESET.id, "lang": "fr", "combatants": [_sheet("ana", "a"), _sheet("r2", "b", kind="droid")]}
    if seed is not None:
        body["seed"] = seed
    return body


def test_the_example_plays(client):
    example = RULESET.example()
    location, combat = create(client, example["combat"])
    assert combat["awaiting"][0]["actor"] == "kira"
    for action in example["actions"]:
        result = play(client, location, action)
    assert event(result, "paralysed")["target"] == "garde"
    # The Garde's token supplied his dodge and paralysis tests; Kira's attack was the server's.
    assert [(r["purpose"], r["source"]) for r in result["rolls"][:4]] == [
        ("dodge", "player"),
        ("attack", "server"),
        ("paralysis CON factor", "player"),
        ("paralysis CON test", "player"),
    ]
    assert all(e["text"] != e["code"] for e in result["events"])


ANA_FIRST = [12, 1]  # Ana D12 12 + DEX 12 = 24, R2 1 + 12 = 13


@pytest.mark.parametrize(
    ("action", "pointer"),
    [
        ({"weapon": "matraque", "mode": "stun"}, "/target"),  # droids cannot be stunned
        ({"weapon": "epee", "mode": "paralyse"}, "/weapon"),  # not a paralysing weapon
        ({"weapon": "matraque", "mode": "stun", "martial_arts": True}, "/target"),
        ({"weapon": "sabre"}, "/weapon"),
    ],
)
def test_illegal_choices_are_refused_with_422_and_change_nothing(client, action, pointer):
    location, _ = create(client, {**_body(), "dice": ANA_FIRST})
    before = client.get(location).get_json()
    response = client.post(f"{location}/actions", json={"type": "attack", "actor": "ana", "target": "r2", **action})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    assert response.get_json()["errors"][0]["pointer"] == pointer
    assert client.get(location).get_json() == before


def test_acting_out_of_turn_is_refused_with_409(client):
    location, _ = create(client, {**_body(), "dice": ANA_FIRST})
    before = client.get(location).get_json()
    response = client.post(
        f"{location}/actions", json={"type": "attack", "actor": "r2", "target": "ana", "weapon": "epee"}
    )
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["pointer"] == "/actor"
    assert client.get(location).get_json() == before


def test_stunning_with_an_edged_weapon_is_refused(client):
    body = _body()
    body["combatants"][1].pop("kind")
    location, combat = create(client, body)
    actor = combat["awaiting"][0]["actor"]
    other = "r2" if actor == "ana" else "ana"
    before = client.get(location).get_json()
    stun = {"type": "attack", "actor": actor, "target": other, "weapon": "epee", "mode": "stun"}
    response = client.post(f"{location}/actions", json=stun)
    assert response.status_code == 422
    # Said in the combat's language (fr), or in the one the reader asks for.
    assert response.get_json()["errors"] == [
        {"pointer": "/weapon", "detail": "Épée est une arme tranchante : une arme tranchante ne peut pas assommer"}
    ]
    for language, detail in (
        ("pt-BR", "Épée é uma arma cortante: uma arma cortante não pode nocautear"),
        ("en", "Épée is edged: an edged weapon cannot stun"),
    ):
        response = client.post(f"{location}/actions", json=stun, headers={"Accept-Language": language})
        assert response.get_json()["errors"] == [{"pointer": "/weapon", "detail": detail}]
    assert client.get(location).get_json() == before


def test_an_undeclared_dodge_after_the_attack_roll_is_refused(client):
    body = _body()
    body["options"] = {"ask_reactions": False}
    location, combat = create(client, body)
    actor = combat["awaiting"][0]["actor"]
    other = "r2" if actor == "ana" else "ana"
    act(client, location, {"type": "attack", "actor": actor, "target": other, "weapon": "epee"})
    before = client.get(location).get_json()
    response = client.post(f"{location}/actions", json={"type": "react", "actor": other, "kind": "dodge"})
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["pointer"] == "/type"
    assert client.get(location).get_json() == before


def test_a_declared_dodge_is_collected_before_the_roll(client):
    location, combat = create(client, _body())
    actor = combat["awaiting"][0]["actor"]
    other = "r2" if actor == "ana" else "ana"
    declared = act(client, location, {"type": "attack", "actor": actor, "target": other, "weapon": "epee"})
    assert declared["rolls"] == []
    assert declared["combat"]["awaiting"] == [{"actor": other, "actions": ["react"], "reason": "declare_reaction"}]
    resolved = act(client, location, {"type": "react", "actor": other, "kind": "dodge"})
    assert [r["purpose"] for r in resolved["rolls"][:2]] == ["dodge", "attack"]


def _usable(combatant, item):
    state = combatant["items"].get(item)
    return state is None or not (state["destroyed"] or state["dropped"] or state["jam"])


def _next_action(combat):
    waiting = combat["awaiting"][0]
    if waiting["actor"] == "gm":
        return {"type": "end_combat", "actor": "gm"}
    me = next(c for c in combat["combatants"] if c["id"] == waiting["actor"])
    if waiting["actions"] == ["react"]:
        if _usable(me, "bouclier"):
            return {"type": "react", "actor": me["id"], "kind": "parry", "item": "bouclier"}
        return {"type": "react", "actor": me["id"], "kind": "dodge"}
    dropped = [item for item, state in me["items"].items() if state["dropped"] and not state["destroyed"]]
    if dropped:
        return {"type": "recover", "actor": me["id"], "weapon": dropped[0]}
    other = next(c["id"] for c in combat["combatants"] if c["id"] != me["id"])
    weapon = "epee" if _usable(me, "epee") else "unarmed"
    return {"type": "attack", "actor": me["id"], "target": other, "weapon": weapon}


def _play(client, body, turns=40):
    location, combat = create(client, body)
    for _ in range(turns):
        if combat["status"] != "active":
            break
        combat = act(client, location, _next_action(combat))["combat"]
    return [(entry["action"], entry["rolls"], entry["events"]) for entry in log(client, location)]


def test_a_fight_from_a_fixed_seed_replays_to_the_identical_log(client):
    body = _body(seed=123456789)
    body["options"] = {"auto_end": True}
    first, second = _play(client, body), _play(client, body)
    assert first == second
    assert len(first) > 10
    assert any("attack_rolled" in [e["code"] for e in events] for _, _, events in first)
    assert all(roll["source"] == "server" for _, rolls, _ in first for roll in rolls)
    assert codes({"events": first[0][2]})[0] == "combat_started"


def test_a_sheet_refused_by_the_rules_reads_in_the_readers_language(client):
    body = _body()
    body["combatants"][0]["weapons"].append({"id": "epee", "catalog": "epee"})
    response = client.post("/combats", json=body, headers={"Accept-Language": "pt-BR"})
    assert response.status_code == 422
    details = [e["detail"] for e in response.get_json()["errors"]]
    assert details == ["os ids das armas devem ser únicos"]  # as every ruleset says it
