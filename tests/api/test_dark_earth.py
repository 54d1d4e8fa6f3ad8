"""Dark Earth through the HTTP API: secret allocations, refusals, replay."""

from __future__ import annotations

import copy

from service.i18n import catalogues
from service.rules.dark_earth import RULESET

from ..helpers import act, codes, create, event, log
from ..unit.dark_earth.fixtures import allocate, goule, kael


def body(seed=None, **extra):
    combat = {"ruleset": "dark-earth", "lang": "fr", "combatants": [kael(contact_with=["goule"]), goule()], **extra}
    if seed is not None:
        combat["seed"] = seed
    return combat


def test_the_example_plays(client):
    example = RULESET.example()
    location, created = create(client, example["combat"])
    assert created["awaiting"][0]["actions"] == ["allocate"]
    results = [act(client, location, action) for action in example["actions"]]
    assert "attack_rolled" in codes(results[-1]) and results[-1]["combat"]["round"] == 2


def test_the_first_allocation_stays_secret_until_the_second(client):
    # A trusted table (dice policy 'any'): the Goule's token supplies the whole tour's dice, Kael's too.
    location, combat = create(client, body(options={"dice_policy": "any"}))
    tokens = client.tokens[combat["id"]]
    as_kael = {"Authorization": f"Bearer {tokens['combatants']['kael']}"}
    as_goule = {"Authorization": f"Bearer {tokens['combatants']['goule']}"}
    response = client.post(
        f"{location}/actions", json=allocate("kael", "goule", (3, 2, 2), maneuver="coup de taille"), headers=as_kael
    )
    first = response.get_json()
    assert first["action"] == {"seq": 2, "type": "allocate", "actor": "kael"}
    assert codes(first) == ["allocation_received"] and first["rolls"] == []
    assert first["combat"]["allocations"]["kael"]["split"]["att"] == 2, "Kael's player sees his own split"
    secret = ("coup de taille", '"split"', '"att"', '"target": "goule"')
    seen_by_goule = (
        client.get(location, headers=as_goule).get_json(),
        client.get(f"{location}/events", headers=as_goule).get_json(),
    )
    for shown in seen_by_goule:
        text = str(shown).replace("'", '"')
        assert not any(word in text for word in secret), text
    state = seen_by_goule[0]
    assert state["allocated"] == ["kael"] and "allocations" not in state
    assert state["awaiting"] == [{"actor": "goule", "actions": ["allocate"], "reason": "allocation"}]
    assert seen_by_goule[1]["items"][-1]["action"] == {"type": "allocate", "actor": "kael"}
    assert "kael" in client.get(location).get_json()["allocations"], "the GM sees every split"

    # The second allocation resolves the tour: Kael [4,2] = 1 vs the Goule's [6,5] = 3 (bonus 2);
    # the Goule's riposte 3 + 2 dice [4,4,6,1,1] = 4 vs [4,1] = 1: DEG 3; Kael RES [5,1,1] = 1: 6.
    dice = [4, 2, 6, 5, 4, 4, 6, 1, 1, 4, 1, 5, 1, 1]
    last = client.post(
        f"{location}/actions", json=allocate("goule", "kael", (1, 3, 2), dice=dice), headers=as_goule
    ).get_json()
    assert event(last, "attack_failed") == {
        "attacker": "kael",
        "target": "goule",
        "riposte_bonus": 2,
        "riposte_later": True,
    }
    assert event(last, "wounded") == {"target": "kael", "amount": 6, "pv": 6, "wounds": 6, "choc": 6}
    revealed = [e["params"] for e in last["events"] if e["code"] == "allocation_revealed"]
    assert revealed[0]["maneuver"] == "coup de taille" and revealed[0]["att"] == 2
    assert (
        event(last, "wounded")["amount"] == 6
        and "Kael perd 6 PV" in last["events"][codes(last).index("wounded")]["text"]
    )
    assert last["combat"]["round"] == 2 and last["combat"]["allocated"] == []
    assert log(client, location)[1]["action"]["split"] == {"init": 3, "att": 2, "def": 2}


def test_an_allocation_not_adding_up_to_the_pot_is_a_422_and_changes_nothing(client):
    location, _ = create(client, body())
    before = client.get(location).get_json()
    response = client.post(f"{location}/actions", json=allocate("kael", "goule", (2, 3, 3)))
    assert response.status_code == 422 and response.content_type == "application/problem+json"
    problem = response.get_json()
    assert problem["type"] == "/problems/invalid-action" and problem["errors"][0]["pointer"] == "/split"
    # The combat is in French (2 + 3 + 3 = 8 against Kael's POT of 7).
    assert problem["detail"] == "init + att + def = 8, mais le POT est de 7 dés : leur somme doit l'égaler"
    assert response.headers["Content-Language"] == "fr"
    english = client.post(
        f"{location}/actions", json=allocate("kael", "goule", (2, 3, 3)), headers={"Accept-Language": "en"}
    ).get_json()
    assert english["detail"] == "init + att + def = 8, but the POT is 7 dice: they must add up to it"
    assert client.get(location).get_json() == before


def test_a_negative_allocation_is_a_422_and_changes_nothing(client):
    location, _ = create(client, body())
    before = client.get(location).get_json()
    response = client.post(f"{location}/actions", json=allocate("kael", "goule", (5, 3, -1)))
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["pointer"] == "/split/def"
    assert client.get(location).get_json() == before


def test_a_second_allocation_by_the_same_fighter_is_a_409_and_changes_nothing(client):
    location, _ = create(client, body())
    act(client, location, allocate("kael", "goule", (2, 3, 2)))
    before = client.get(location).get_json()
    response = client.post(f"{location}/actions", json=allocate("kael", "goule", (3, 2, 2)))
    assert response.status_code == 409 and response.get_json()["errors"][0]["pointer"] == "/actor"
    assert client.get(location).get_json() == before


def test_a_shooter_in_contact_with_a_bow_is_a_409(client):
    location, _ = create(client, body())
    response = client.post(f"{location}/actions", json=allocate("kael", "goule", (1, 2, 2), weapon="arc"))
    assert response.status_code == 409 and response.get_json()["errors"][0]["pointer"] == "/weapon"


def play(client, seed):
    """A whole fight on the server's dice, with the same choices every tour."""
    location, _ = create(client, body(seed=seed, options={"auto_end": True}))
    for _ in range(30):
        state = client.get(location).get_json()
        if state["status"] == "over":
            break
        for waiting in copy.deepcopy(state["awaiting"]):
            if waiting["actor"] == "kael":
                act(client, location, allocate("kael", "goule", (2, 3, 2)))
            elif waiting["actor"] == "goule":
                act(client, location, allocate("goule", "kael", (2, 3, 1)))
            if client.get(location).get_json()["status"] == "over":
                break
    assert client.get(location).get_json()["status"] == "over"
    return log(client, location)


def test_a_fight_on_server_dice_from_a_fixed_seed_replays_identically(client):
    first, second = ([{"rolls": e["rolls"], "events": e["events"]} for e in play(client, 4242)] for _ in range(2))
    assert first == second
    assert all(roll["source"] == "server" for entry in first for roll in entry["rolls"])
    assert sum(len(entry["rolls"]) for entry in first) > 10


def test_every_event_of_a_fight_has_its_french_text(client):
    shown = [event for entry in play(client, 77) for event in entry["events"]]
    assert {"attack_rolled", "defense_rolled", "resistance_rolled", "combat_over"} <= {e["code"] for e in shown}
    assert all(e["text"] != e["code"] and "None" not in e["text"] for e in shown if e["code"] != "allocation_revealed")
    assert set(catalogues(RULESET.id)["en"]) == set(catalogues(RULESET.id)["fr"])


def test_two_critique_fighters_roll_no_die_under_their_pain_and_hit_past_it(client):
    # G16: the pain (critique -5D) empties every pool it reaches; nothing but a split carrying ATT past it rolls.
    location, _ = create(client, body())
    for target in ("kael", "goule"):
        act(client, location, {"type": "adjust", "actor": "gm", "target": target, "set": {"wound_level": "critique"}})
    act(client, location, allocate("kael", "goule", (2, 3, 2)))
    # Kael ATT 3 - 5, the Goule's ATT 2 - 5, both DEF 2 - 5: no die anywhere; 0 against 0 fails twice.
    empty = act(client, location, allocate("goule", "kael", (2, 2, 2)))
    assert empty["rolls"] == [] and codes(empty).count("attack_failed") == 2 and "wounded" not in codes(empty)
    assert empty["combat"]["round"] == 2 and [c["pv"] for c in empty["combat"]["combatants"]] == [12, 10]
    act(client, location, allocate("kael", "goule", (0, 7, 0)))
    # The Goule (INIT 2) fails again; Kael ATT 7 - 5 = 2 dice [4, 1] = 1 against no DEF die: DEG 1;
    # Goule RES [1, 1, 1] = 0: DEG 1 + DOM 3 + FOR 2 - PROT 0 - RES 0 = 6 -> PV 10 - 6 = 4.
    hit = act(client, location, allocate("goule", "kael", (2, 2, 2), dice=[4, 1, 1, 1, 1]))
    assert event(hit, "attack_hit") == {"attacker": "kael", "target": "goule", "deg": 1}
    assert [c["pv"] for c in hit["combat"]["combatants"]] == [12, 4]


def test_the_pain_beyond_pot_option_takes_a_fighter_out_and_says_so_in_french(client):
    weak = goule(attributes={"MEL": 1, "TIR": 1, "AGI": 4, "FOR": 3, "RES": 2})  # POT 1 + 3 = 4, bare hands 1
    combat = {**body(options={"pain_beyond_pot": "out"}), "combatants": [kael(contact_with=["goule"]), weak]}
    location, _ = create(client, combat)
    act(client, location, allocate("kael", "goule", (2, 3, 2)))
    # Kael ATT [4, 1, 1] = 1 against DEF [1] = 0: DEG 1; RES [6, 1] = 2: 1 + DOM 3 + FOR 2 - 2 = 4 -> PV 6,
    # critique (4 >= 2 x RES 2): pain 5 >= the best POT 4, out of the fight; its riposte is lost.
    result = act(client, location, allocate("goule", "kael", (1, 2, 1), dice=[4, 1, 1, 1, 6, 1]))
    assert event(result, "incapacitated_by_pain") == {"target": "goule", "pain": 5, "pot": 4}
    shown = next(e for e in result["events"] if e["code"] == "incapacitated_by_pain")
    assert shown["text"] == (
        "Goule s'effondre de douleur et ne peut plus combattre : ses blessures lui retirent 5 dés, "
        "et son meilleur POT n'est que de 4."
    )
    assert "attack_lost" in codes(result)
    goule_now = next(c for c in result["combat"]["combatants"] if c["id"] == "goule")
    assert goule_now["pv"] == 6 and "incapacitated" in {c["code"] for c in goule_now["conditions"]}
