"""L'Âge du Silicium over HTTP: the example, the Initiative phases, refusals, replay."""

from __future__ import annotations

from service.rules.registry import get_ruleset

from ..helpers import act, codes, create, event, log

RULESET = "age-du-silicium"


def _sheet(combatant_id, side, initiative, **extra):
    return {
        "id": combatant_id,
        "name": combatant_id.capitalize(),
        "side": side,
        "initiative": initiative,
        "vigilance": 50,
        "calme": 50,
        "endurance": 3,
        "blessures": 20,
        "skills": {"Armes de poing": 60, "Esquive": 40, "Bagarre": 45},
        "weapons": [{"id": "pistolet", "kind": "ranged", "skill": "Armes de poing", "damage": 8}],
        **extra,
    }


def test_the_example_plays(client):
    example = get_ruleset(RULESET).example()
    location, combat = create(client, example["combat"])
    assert combat["awaiting"][0]["actions"] == ["declare"]
    results = [act(client, location, action) for action in example["actions"]]
    assert codes(results[2])[:3] == ["attack", "attack_roll", "attack_hit"]
    assert event(results[2], "wounded") == {"target": "krieg", "amount": 5, "left": 15}
    text = [e["text"] for e in results[2]["events"]]
    assert "Krieg perd 5 points de Blessure (il en reste 15)." in text


def test_the_catalog_serves_the_tables(client):
    detail = client.get(f"/rulesets/{RULESET}").get_json()
    catalog = detail["catalog"]
    assert catalog["experience"]["veteran"]["modifier"] == 40
    assert catalog["stress_floor"] == 10
    assert catalog["range_bands"]["point_blank"]["modifier"] == 30
    assert catalog["hit_location_d10"]["1"] == "head"
    assert set(detail["actions"]) >= {"declare", "attack", "react", "choose_frenzy", "reason", "adjust", "end_combat"}


def test_three_combatants_declare_upwards_and_resolve_downwards(client):
    body = {
        "ruleset": RULESET,
        "lang": "en",
        "options": {"stress_test": False},
        "combatants": [
            _sheet("ana", "runners", 70, actions=2),
            _sheet("bob", "corpo", 30),
            _sheet("cy", "corpo", 50),
        ],
    }
    location, combat = create(client, body)
    declared = []
    while combat["awaiting"][0]["actions"] == ["declare"]:
        actor = combat["awaiting"][0]["actor"]
        declared.append(actor)
        entries = [{"kind": "attack", "target": "bob" if actor == "ana" else "ana"}]
        if actor == "ana":
            entries.append({"kind": "hold"})
        combat = act(client, location, {"type": "declare", "actor": actor, "actions": entries})["combat"]
    assert declared == ["bob", "cy", "ana"]
    resolved = []
    # Ana 70, Ana's hold 60, Cy 50, Bob 30; every shot misses (99 is a fumble).
    while combat["round"] == 1:
        waiting = combat["awaiting"][0]
        if waiting["reason"] == "held_action":
            # The round waits for Ana's held action until she uses it or gives it up.
            combat = act(client, location, {"type": "forgo", "actor": waiting["actor"]})["combat"]
            continue
        resolved.append(waiting["actor"])
        target = "bob" if waiting["actor"] == "ana" else "ana"
        result = act(client, location, {"type": "attack", "actor": waiting["actor"], "target": target, "dice": [99]})
        combat = result["combat"]
    assert resolved == ["ana", "cy", "bob"]
    entries = log(client, location)
    order = next(e for entry in entries for e in entry["events"] if e["code"] == "resolution_order")
    assert order["params"] == {"order": [["ana"], ["ana"], ["cy"], ["bob"]], "ranks": [70, 60, 50, 30]}
    assert order["text"] == "Resolution, from the highest Initiative: Ana > Ana > Cy > Bob (ranks 70, 60, 50, 30)."
    held = [e["params"] for entry in entries for e in entry["events"] if e["code"] == "action_held"]
    assert held == [{"actor": "ana", "rank": 60}]


def test_an_illegal_action_is_a_problem_naming_the_field_and_changes_nothing(client):
    body = {
        "ruleset": RULESET,
        "options": {"stress_test": False},
        "combatants": [_sheet("ana", "a", 60), _sheet("bob", "b", 40)],
    }
    location, _ = create(client, body)
    before = client.get(location).get_json()
    response = client.post(
        f"{location}/actions", json={"type": "declare", "actor": "ana", "actions": [{"kind": "other"}]}
    )
    assert response.status_code == 409
    assert response.content_type == "application/problem+json"
    problem = response.get_json()
    assert problem["type"] == "/problems/not-your-turn"
    assert problem["errors"][0]["pointer"] == "/actor"
    response = client.post(
        f"{location}/actions", json={"type": "declare", "actor": "bob", "actions": [{"kind": "attack"}]}
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/actions/0/target"
    assert client.get(location).get_json() == before


def _next_action(combat: dict) -> dict:
    """A fixed strategy: everyone attacks the first standing enemy and always dodges."""
    waiting = combat["awaiting"][0]
    actor = waiting["actor"]
    me = next(c for c in combat["combatants"] if c["id"] == actor)
    foes = [
        c["id"]
        for c in combat["combatants"]
        if c["side"] != me["side"] and not any(x["code"] == "dead" for x in c["conditions"])
    ]
    kind = waiting["actions"][0]
    if kind == "choose_frenzy":
        return {"type": kind, "actor": actor, "behaviour": "berserker"}
    if kind == "react":
        return {"type": kind, "actor": actor, "reaction": "dodge"}
    if kind == "declare":
        frenzy = next((x.get("behaviour") for x in me["conditions"] if x["code"] == "frenzy"), None)
        surprised = next((x for x in me["conditions"] if x["code"] == "surprised"), None)
        # A surprised combatant's action must be defensive, even a berserker's (docs, gap G9).
        entry = {"kind": "defend"} if surprised and surprised["defend"] else {"kind": "attack", "target": foes[0]}
        if frenzy == "flight" and not surprised:
            entry = {"kind": "flee"}
        return {"type": kind, "actor": actor, "actions": [entry]}
    return {"type": "attack", "actor": actor, "target": foes[0]}


def _play(client, body: dict) -> list[dict]:
    location, combat = create(client, body)
    for _ in range(40):
        if combat["status"] != "active" or not combat["awaiting"]:
            break
        combat = act(client, location, _next_action(combat))["combat"]
    return [{"rolls": e["rolls"], "events": e["events"]} for e in log(client, location)]


def test_a_seeded_fight_replays_to_the_identical_log(client):
    body = {
        "ruleset": RULESET,
        "seed": 424242,
        "options": {"surprise_difficulty": 20, "auto_end": True},
        "combatants": [
            _sheet("ana", "runners", 60, ambusher=True),
            _sheet("bob", "corpo", 40, blessures=8),
        ],
    }
    first = _play(client, body)
    second = _play(client, body)
    assert first == second
    assert len(first) > 5
    played = [e["code"] for entry in first for e in entry["events"]]
    assert {"surprise_test", "stress_test", "declared", "attack_roll"} <= set(played)
    assert all(roll["source"] == "server" for entry in first for roll in entry["rolls"])


def test_full_auto_is_decided_in_one_place_for_the_options_and_the_action(client, monkeypatch):
    """Issue 38: GET /options and POST /actions both follow attacks.full_auto_refusal, changed in one place."""
    from service.rules.age_du_silicium import attacks
    from service.rules.errors import ActionNotAllowed

    from ..unit.rules_helpers import replace_everywhere

    rifle = {"id": "fusil", "kind": "ranged", "skill": "Armes de poing", "damage": 8, "burst": True, "full_auto": True}
    body = {
        "ruleset": RULESET,
        "options": {"stress_test": False, "full_auto": "bursts"},
        "combatants": [_sheet("ana", "a", 60, weapons=[rifle]), _sheet("bob", "b", 40)],
    }
    location, _ = create(client, body)
    act(client, location, {"type": "declare", "actor": "bob", "actions": [{"kind": "other"}]})
    act(client, location, {"type": "declare", "actor": "ana", "actions": [{"kind": "attack", "target": "bob"}]})

    def full_auto_listed():
        listed = client.get(f"{location}/options?actor=ana").get_json()["actions"]
        return [e["params"]["full_auto"]["choices"] for e in listed if "full_auto" in e["params"]]

    assert full_auto_listed() == [[2, 3, 4, 5]]
    replace_everywhere(
        monkeypatch,
        "service.rules.age_du_silicium",
        attacks.full_auto_refusal,
        lambda options, weapon: ActionNotAllowed("the rifle is jammed", field="full_auto"),
    )
    assert full_auto_listed() == []
    before = client.get(location).get_json()
    response = client.post(
        f"{location}/actions", json={"type": "attack", "actor": "ana", "target": "bob", "full_auto": 2}
    )
    assert response.status_code == 409
    assert response.get_json()["errors"][0]["pointer"] == "/full_auto"
    assert client.get(location).get_json() == before


def test_a_refusal_reads_in_the_reader_s_language(client):
    """A refusal of this ruleset in English, French and Brazilian Portuguese: the seed's words, names, no ids."""
    body = {
        "ruleset": RULESET,
        "options": {"stress_test": False},
        "combatants": [
            _sheet("ana", "a", 60, name="Ana Lopes"),
            _sheet(
                "bob",
                "b",
                40,
                weapons=[{"id": "p9", "name": "Pistolet", "kind": "ranged", "skill": "Armes de poing", "damage": 8}],
            ),
        ],
    }
    location, _ = create(client, body)
    act(client, location, {"type": "declare", "actor": "bob", "actions": [{"kind": "other"}]})
    act(client, location, {"type": "declare", "actor": "ana", "actions": [{"kind": "attack", "target": "bob"}]})
    blind_melee = {"type": "attack", "actor": "ana", "target": "bob", "weapon": "unarmed", "situation": ["blind_fire"]}
    texts = {}
    for lang in ("en", "fr", "pt-BR"):
        response = client.post(f"{location}/actions", json=blind_melee, headers={"Accept-Language": lang})
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["pointer"] == "/situation"
        texts[lang] = response.get_json()["detail"]
    assert texts == {
        "en": "Blind fire: for ranged attacks only",
        "fr": "Tir en aveugle : seulement pour les attaques à distance",
        "pt-BR": "Tiro às cegas: só para ataques à distância",
    }
    not_yours = {"type": "attack", "actor": "bob", "target": "ana"}
    texts = {
        lang: client.post(f"{location}/actions", json=not_yours, headers={"Accept-Language": lang}).get_json()["detail"]
        for lang in ("en", "fr", "pt-BR")
    }
    assert texts == {
        "en": "it is not Bob's action; waiting for Ana Lopes",
        "fr": "Bob n'agit pas maintenant ; on attend Ana Lopes",
        "pt-BR": "não é a vez de Bob; aguardando Ana Lopes",
    }
