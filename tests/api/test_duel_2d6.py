"""Duel 2D6 over HTTP: the example, the seed's worked example F, refusals, replay."""

import pytest

from service.rules.registry import RULESETS

from ..helpers import act, codes, create, event, log, play

RULESET = RULESETS["duel-2d6"]


def fighter(combatant_id, side, **extra):
    return {
        "id": combatant_id,
        "name": combatant_id.capitalize(),
        "side": side,
        "pv": 6,
        "attributes": {"FOR": 0, "DEX": 1, "CON": 0, "SEN": 0},
        "skills": {"Bagarre": 1},
        **extra,
    }


def body(*combatants, **options):
    return {
        "ruleset": "duel-2d6",
        "lang": "fr",
        "combatants": list(combatants),
        "options": {"surprise": ["ana"], **options},
    }


def test_the_ruleset_describes_its_catalog(client):
    detail = client.get("/rulesets/duel-2d6").get_json()
    catalog = detail["catalog"]
    assert catalog["weapons"]["pied"] == {
        "name": "Pied",
        "damage": "1d3+1",
        "kind": "natural",
        "hit": -1,
        "skill": "Bagarre",
    }
    assert catalog["weapons"]["fusil_a_pompe"]["damage_by_band"]["moyen"] == "2d6"
    assert catalog["armours"]["casque"] == {"name": "Casque", "ip": 1, "fragments_only": True}
    assert catalog["defensive_items"]["bouclier_grand"]["defense"] == 5
    assert catalog["distance_malus"]["une_main"]["au_dela"] is None
    assert catalog["hit_locations"]["7"] == "poitrine"
    assert set(catalog["melee_attacks"]) == {
        "coup_simple",
        "attaque_ma",
        "coup_mortel",
        "balayage",
        "prise",
        "etrangler",
        "projection",
        "cle",
        "massue",
        "coup_bas",
        "briser",
        "desarmer",
    }
    assert detail["option_defaults"]["hit_location"] is False


def test_the_example_plays_the_seeds_worked_example_f(client):
    """Issue 27 item 16: the published example is F's fight, die for die (seed 3 had drifted to 2+3 and 2+4)."""
    example = RULESET.example()
    location, _ = create(client, example["combat"])
    results = [play(client, location, action) for action in example["actions"]]
    assert codes(results[0]) == codes(results[2]) == ["awaiting_defense"]
    # Each defender supplied only his own defense dice; the attackers' dice were the server's.
    assert [(r["roller"], r["source"], r["value"]) for r in results[1]["rolls"]] == [
        ("truand", "server", 2),
        ("truand", "server", 1),
        ("philip", "player", 3),
        ("philip", "player", 3),
    ]
    # Round 1: the punch 2+1 = 3 <= 7 + 1 = 8, a simple success; the dodge 3+3 = 6 <= 7, critical: no damage,
    # and Philip takes the initiative.
    blow, dodge = event(results[1], "attack_rolled"), event(results[1], "defense_rolled")
    assert (blow["target"], blow["total"], blow["level"]) == (8, 3, "reussite_simple")
    assert (dodge["target"], dodge["total"], dodge["level"]) == (7, 6, "reussite_critique")
    assert "damage_rolled" not in codes(results[1]) and event(results[1], "initiative_passes")["attacker"] == "philip"
    # Round 2: the kick 2+2 = 4 <= 7 - 1 = 6, critical (Dd 2); the block 4+6 = 10 > 8 + 1 = 9 fails;
    # 1D3+1 = 2+1, +2 (Dd) = 5 against PV 4: a grave wound, malus -3, PV 4 - (5 - 4) = 3.
    assert [(r["roller"], r["source"], r["value"]) for r in results[3]["rolls"]] == [
        ("philip", "server", 2),
        ("philip", "server", 2),
        ("truand", "player", 4),
        ("truand", "player", 6),
        ("philip", "server", 2),
    ]
    kick, block = event(results[3], "attack_rolled"), event(results[3], "defense_rolled")
    assert (kick["target"], kick["total"], kick["level"], kick["dd"]) == (6, 4, "reussite_critique", 2)
    assert (block["target"], block["total"], block["level"]) == (9, 10, "echec_simple")
    assert event(results[3], "damage_rolled")["total"] == 5
    wounded = event(results[3], "wounded")
    assert (wounded["level"], wounded["malus"], wounded["pv"]) == ("grave", -3, 3)


def test_worked_example_f_the_thug_and_philip(client):
    """Section F, every stated outcome, with the seed's dice."""
    thug = {
        "id": "truand",
        "name": "Le truand",
        "side": "truands",
        "pv": 4,
        "attributes": {"FOR": 0, "DEX": 1, "CON": 0, "SEN": 0},
        "skills": {"Bagarre": 1},
        "specializations": ["bloquer"],
    }
    philip = {
        "id": "philip",
        "name": "Philip",
        "side": "heros",
        "pv": 5,
        "attributes": {"FOR": 0, "DEX": 1, "CON": 0, "SEN": 0},
    }
    location, combat = create(
        client, {"ruleset": "duel-2d6", "lang": "fr", "combatants": [thug, philip], "dice": [1, 2, 5, 6]}
    )
    assert combat["awaiting"][0]["actor"] == "truand"  # "Le truand a obtenu l'initiative"
    # Round 1: a punch, Philip dodges.
    act(
        client,
        location,
        {"type": "attack", "actor": "truand", "target": "philip", "maneuver": "coup_simple", "weapon": "poing"},
    )
    round1 = act(client, location, {"type": "defend", "actor": "philip", "defense": "esquiver", "dice": [2, 1, 3, 3]})
    blow, dodge = event(round1, "attack_rolled"), event(round1, "defense_rolled")
    assert (blow["target"], blow["total"], blow["level"]) == (8, 3, "reussite_simple")
    assert (dodge["target"], dodge["total"], dodge["level"]) == (7, 6, "reussite_critique")
    assert "damage_rolled" not in codes(round1) and "wounded" not in codes(round1)
    assert event(round1, "initiative_passes")["attacker"] == "philip"
    assert round1["combat"]["awaiting"][0]["actor"] == "philip"
    # Round 2: a kick, the thug blocks (8 + 1).
    round2 = act(
        client,
        location,
        {
            "type": "attack",
            "actor": "philip",
            "target": "truand",
            "weapon": "pied",
            "defense": {"defense": "bloquer"},
            "dice": [2, 2, 4, 6, 2],
        },
    )
    kick, block = event(round2, "attack_rolled"), event(round2, "defense_rolled")
    assert (kick["target"], kick["total"], kick["level"], kick["dd"]) == (6, 4, "reussite_critique", 2)
    assert (block["target"], block["total"], block["level"]) == (9, 10, "echec_simple")
    assert event(round2, "damage_rolled")["total"] == 5
    wounded = event(round2, "wounded")
    assert (wounded["level"], wounded["malus"], wounded["pv"]) == ("grave", -3, 3)
    thug_after = next(c for c in round2["combat"]["combatants"] if c["id"] == "truand")
    assert (thug_after["pv"], thug_after["malus"]) == (3, -3)
    assert "initiative_passes" not in codes(round2)
    assert round2["combat"]["awaiting"][0]["actor"] == "philip"
    text = next(e["text"] for e in round2["events"] if e["code"] == "wounded")
    assert text == (
        "Le truand subit 5 points de dommages (5 - 0 absorbés - IP 0) : "
        "blessure grave, perd 1 PV, il lui en reste 3 ; malus -3."
    )


PISTOL = [{"id": "pistolet", "catalog": "pistolet_9mm"}]
ANA_TAKES_COVER = [
    # Interruption: Cid 2 + DEX 1 = 3, 6 + 5 fails; Ana 2 + DEX 2 = 4, 1 + 2 succeeds.
    {"type": "join", "actor": "cid", "target": "ana", "dice": [6, 5, 1, 2]},
    {
        "type": "shoot",
        "actor": "bob",
        "target": "ana",
        "weapon": "pistolet",
        "distance": 20,
        "defense": {"defense": "couvert"},
    },
]


@pytest.mark.parametrize(
    ("sheets", "options", "setup", "illegal", "status", "pointer"),
    [
        ({}, {}, [], {"type": "attack", "actor": "ana", "target": "bob", "maneuver": "cle"}, 409, "/maneuver"),
        (
            {"ana": {"weapons": [{"id": "pistolet", "catalog": "pistolet_9mm"}]}},
            {},
            [],
            {"type": "shoot", "actor": "ana", "target": "bob", "weapon": "pistolet", "distance": 600},
            409,
            "/distance",
        ),
        (
            {"ana": {"weapons": [{"id": "pistolet", "catalog": "pistolet_9mm"}]}},
            {},
            [
                {
                    "type": "shoot",
                    "actor": "ana",
                    "target": "bob",
                    "weapon": "pistolet",
                    "distance": 20,
                    "defense": {"defense": "plongeon"},
                    "dice": [1, 2, 1, 2],
                }
            ],
            {
                "type": "shoot",
                "actor": "ana",
                "target": "bob",
                "weapon": "pistolet",
                "distance": 20,
                "defense": {"defense": "plongeon"},
            },
            409,
            "/defense/defense",
        ),
        ({}, {}, [], {"type": "join", "actor": "ana", "target": "cid"}, 409, "/target"),
        (
            # Bob (surprise) shoots Ana, who takes Couvert; she then attacks Cid in the same round.
            {"ana": {"attributes": {"FOR": 0, "DEX": 2, "CON": 0, "SEN": 0}}, "bob": {"weapons": PISTOL}},
            {"surprise": ["bob"]},
            ANA_TAKES_COVER,
            {"type": "attack", "actor": "ana", "target": "cid"},
            409,
            "/type",
        ),
        ({}, {}, [], {"type": "attack", "actor": "bob", "target": "ana"}, 409, "/actor"),
        ({}, {}, [], {"type": "attack", "actor": "ana", "target": "bob", "weapon": "bazooka"}, 422, "/weapon"),
    ],
    ids=[
        "cle-without-hold",
        "one-hand-beyond-500m",
        "plongeon-twice",
        "more-opponents-than-dex",
        "acts-after-couvert",
        "not-your-turn",
        "unknown-weapon",
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(client, sheets, options, setup, illegal, status, pointer):
    combatants = [
        fighter(i, side, **sheets.get(i, {}))
        for i, side in (("ana", "heroes"), ("bob", "villains"), ("cid", "villains"))
    ]
    location, _ = create(client, body(*combatants, **options))
    for action in setup:
        act(client, location, action)
    before = client.get(location).get_json()
    response = client.post(f"{location}/actions", json=illegal)
    assert response.status_code == status
    assert response.headers["Content-Type"].startswith("application/problem+json")
    problem = response.get_json()
    assert problem["errors"][0]["pointer"] == pointer and problem["detail"]
    assert client.get(location).get_json() == before


def test_the_refusal_after_couvert_names_the_rule(client):
    ana = fighter("ana", "heroes", attributes={"FOR": 0, "DEX": 2, "CON": 0, "SEN": 0})
    location, _ = create(
        client, body(ana, fighter("bob", "villains", weapons=PISTOL), fighter("cid", "villains"), surprise=["bob"])
    )
    for action in ANA_TAKES_COVER:
        act(client, location, action)
    response = client.post(f"{location}/actions", json={"type": "threaten", "actor": "ana", "target": "cid"})
    assert response.status_code == 409
    # Said in the combat's language (French here): the problem details follow it (issue 38).
    assert response.get_json()["detail"] == (
        "Ana s'abrite (Couvert) ce tour : ni action ni déplacement avant le prochain tour, "
        "seulement laisser passer l'échange (pass) ou choisir qui affronter"
    )
    english = client.post(
        f"{location}/actions",
        json={"type": "threaten", "actor": "ana", "target": "cid"},
        headers={"Accept-Language": "en"},
    )
    assert english.get_json()["detail"].startswith("Ana took cover (Couvert) this round: no action nor movement")


def _play_to_the_end(client, location, combat, actions=None):
    """Play a whole fight: each attacker swings a two-handed sword, each defender dodges."""
    played, index = [], 0
    while combat["status"] == "active":
        if actions is not None:
            action = actions[index]
            index += 1
        else:
            waiting = combat["awaiting"][0]
            if "defend" in waiting["actions"]:
                action = {"type": "defend", "actor": waiting["actor"], "defense": "esquiver"}
            else:
                duel = next(d for d in combat["duels"] if d["attacker"] == waiting["actor"] and not d["done"])
                target = duel["b"] if duel["a"] == waiting["actor"] else duel["a"]
                action = {"type": "attack", "actor": waiting["actor"], "target": target, "weapon": "epee"}
        played.append(action)
        combat = act(client, location, action)["combat"]
        assert len(played) < 300
    return played, combat


def test_a_fight_with_server_dice_from_a_seed_replays_identically(client):
    sword = [{"id": "epee", "catalog": "epee_2m"}]
    creation = {
        "ruleset": "duel-2d6",
        "seed": 2024,
        "lang": "en",
        "options": {"auto_end": True},
        "combatants": [fighter("ana", "heroes", weapons=sword), fighter("bob", "villains", weapons=sword)],
    }
    first, combat = create(client, creation)
    played, end = _play_to_the_end(client, first, combat)
    second, combat = create(client, creation)
    _, end_again = _play_to_the_end(client, second, combat, actions=played)
    strip = lambda entries: [(e["seq"], e["rolls"], e["events"]) for e in entries]  # noqa: E731
    assert strip(log(client, first)) == strip(log(client, second))
    assert end["status"] == end_again["status"] == "over" and end["seed"] == 2024
    assert any(e["code"] == "wounded" for entry in log(client, first) for e in entry["events"])
