"""Who decides what (service/rules/authority.py), through HTTP with three tokens:
the game master's, the attacker's player's and the defender's player's.

A player cannot set a field the seed gives to the game master, nor answer for
another combatant; the GM's token can do both; the defender's player sends
his own answer. Every refusal is a 403 problem+json pointing at the field and
leaves the combat as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from service.rules.registry import get_ruleset

from ..helpers import create


@dataclass
class Table:
    """A ruleset's example fight, brought (by the GM) to the attacker's move."""

    ruleset: str
    attacker: str
    defender: str
    prelude: list[dict] = field(default_factory=list)  # sent with the GM's token
    gm_fields: list[tuple[dict, str]] = field(default_factory=list)  # the attacker's action -> the field refused
    answers_for_another: list[tuple[dict, str]] = field(default_factory=list)  # from the attacker's token -> the field
    own_answer: list[dict] = field(default_factory=list)  # the attacker's plain move, then the defender's own answer
    defender_gm_fields: list[tuple[dict, str]] = field(default_factory=list)  # the defender's answer with a GM field
    answers_prelude: list[dict] | None = None  # where the answers are tried, when not after the prelude


SISTEMA_ATTACK = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola"}
DUEL_ATTACK = {"type": "attack", "actor": "truand", "target": "philip", "maneuver": "coup_simple", "weapon": "poing"}
SPACE_ATTACK = {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "attacks": 2}
DARK_ALLOCATE = {"type": "allocate", "actor": "kael", "target": "goule", "split": {"init": 2, "att": 3, "def": 2}}
AGE_ATTACK = {"type": "attack", "actor": "ana", "target": "krieg", "range": "short"}
AGE_DECLARATIONS = [
    {"type": "declare", "actor": "krieg", "actions": [{"kind": "attack", "target": "ana"}]},
    {"type": "declare", "actor": "ana", "actions": [{"kind": "attack", "target": "krieg"}]},
]

TABLES = [
    Table(
        "sistema-2d6",
        "ana",
        "capanga",
        gm_fields=[
            ({**SISTEMA_ATTACK, "modifier": 2}, "modifier"),  # "o mestre define a penalidade"
            ({**SISTEMA_ATTACK, "difficulty": 6}, "difficulty"),  # "o Mestre determina a dificuldade"
            ({**SISTEMA_ATTACK, "lethal": False}, "lethal"),  # "Letal ou Não-Letal, determinado pelo Mestre"
            ({**SISTEMA_ATTACK, "location": "head", "condition": "blind"}, "condition"),
        ],
        answers_for_another=[
            ({**SISTEMA_ATTACK, "defense": {"skill": "Esquiva"}}, "defense"),
            ({**SISTEMA_ATTACK, "defense": {}}, "defense"),
        ],
        own_answer=[SISTEMA_ATTACK, {"type": "defend", "actor": "capanga", "skill": "Esquiva"}],
        defender_gm_fields=[
            ({"type": "defend", "actor": "capanga", "modifier": 3}, "modifier"),
            ({"type": "defend", "actor": "capanga", "difficulty": 4}, "difficulty"),
        ],
    ),
    Table(
        "duel-2d6",
        "truand",
        "philip",
        gm_fields=[({**DUEL_ATTACK, "modifier": 3}, "modifier")],
        answers_for_another=[({**DUEL_ATTACK, "defense": {"defense": "esquiver"}}, "defense")],
        own_answer=[DUEL_ATTACK, {"type": "defend", "actor": "philip", "defense": "esquiver"}],
        defender_gm_fields=[({"type": "defend", "actor": "philip", "defense": "esquiver", "modifier": 2}, "modifier")],
    ),
    Table(
        "space-opera-d100",
        "kira",
        "garde",
        gm_fields=[
            ({**SPACE_ATTACK, "modifier": 20}, "modifier"),
            ({**SPACE_ATTACK, "sneak": True}, "sneak"),  # "sans que son ennemi s'en aperçoive": the GM judges it
        ],
        # "Il faut annoncer l'esquive / la parade avant que l'attaque ne soit portée": the defender announces.
        answers_for_another=[({**SPACE_ATTACK, "reaction": {"kind": "none"}}, "reaction")],
        own_answer=[SPACE_ATTACK, {"type": "react", "actor": "garde", "kind": "parry", "item": "bouclier"}],
        defender_gm_fields=[({"type": "react", "actor": "garde", "kind": "dodge", "modifier": 10}, "modifier")],
    ),
    Table(
        "dark-earth",
        "kael",
        "goule",
        gm_fields=[
            ({**DARK_ALLOCATE, "dice_modifier": 20}, "dice_modifier"),  # dice the GM adds
        ],
        # The goule's split is its own secret: the attacker's token cannot make it.
        answers_for_another=[
            (
                {"type": "allocate", "actor": "goule", "target": "kael", "split": {"init": 1, "att": 3, "def": 2}},
                "actor",
            )
        ],
        own_answer=[
            DARK_ALLOCATE,
            {"type": "allocate", "actor": "goule", "target": "kael", "split": {"init": 1, "att": 3, "def": 2}},
        ],
        defender_gm_fields=[
            (
                {
                    "type": "allocate",
                    "actor": "goule",
                    "target": "kael",
                    "split": {"init": 1, "att": 3, "def": 2},
                    "shot": {"cover": "half"},
                },
                "shot.cover",
            ),
        ],
    ),
    Table(
        "age-du-silicium",
        "ana",
        "krieg",
        prelude=AGE_DECLARATIONS,
        gm_fields=[
            ({**AGE_ATTACK, "modifier": 10}, "modifier"),
            ({**AGE_ATTACK, "cover": 20}, "cover"),
            ({**AGE_ATTACK, "situation": ["blind_fire"]}, "situation"),
        ],
        # Declarations are each combatant's own, announced in initiative order (Krieg first).
        answers_for_another=[(AGE_DECLARATIONS[0], "actor")],
        answers_prelude=[],
        own_answer=[AGE_ATTACK, {"type": "attack", "actor": "krieg", "target": "ana"}],
        defender_gm_fields=[({"type": "attack", "actor": "krieg", "target": "ana", "visibility": "dim"}, "visibility")],
    ),
]
IDS = [table.ruleset for table in TABLES]


def start(client, table: Table, prelude: list[dict] | None = None) -> tuple[str, dict]:
    location, _ = create(client, get_ruleset(table.ruleset).example()["combat"])
    for action in table.prelude if prelude is None else prelude:
        assert client.post(f"{location}/actions", json=action).status_code == 200
    tokens = client.tokens[location.rsplit("/", 1)[1]]
    return location, {
        "gm": {"Authorization": f"Bearer {tokens['gm']}"},
        "attacker": {"Authorization": f"Bearer {tokens['combatants'][table.attacker]}"},
        "defender": {"Authorization": f"Bearer {tokens['combatants'][table.defender]}"},
    }


def assert_refused(client, location: str, headers: dict, action: dict, pointer: str) -> dict:
    before = client.get(location, headers=headers)
    response = client.post(f"{location}/actions", json=action, headers=headers)
    assert response.status_code == 403, response.get_json()
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["errors"][0]["pointer"] == pointer, problem
    after = client.get(location, headers=headers)
    assert after.headers["ETag"] == before.headers["ETag"]
    assert after.get_json()["version"] == before.get_json()["version"]
    return problem


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_a_player_cannot_set_a_field_the_game_master_decides(client, table):
    location, tokens = start(client, table)
    for action, name in table.gm_fields:
        english = {**tokens["attacker"], "Accept-Language": "en"}
        problem = assert_refused(client, location, english, action, f"/{name}")
        assert problem["type"] == "/problems/not-your-decision"
        assert f"{name} is the game master's to set" in problem["detail"] and "GM's token" in problem["detail"]


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_a_player_cannot_answer_for_another_combatant(client, table):
    location, tokens = start(client, table, table.answers_prelude)
    for action, name in table.answers_for_another:
        assert_refused(client, location, tokens["attacker"], action, f"/{name}")


@pytest.mark.parametrize("table", TABLES, ids=IDS)
@pytest.mark.parametrize("what", ["gm_fields", "answers_for_another"])
def test_the_game_master_may_send_all_of_it(client, table, what):
    for action, _ in getattr(table, what):
        location, tokens = start(client, table, table.answers_prelude if what == "answers_for_another" else None)
        response = client.post(f"{location}/actions", json=action, headers=tokens["gm"])
        assert response.status_code == 200, response.get_json()


@pytest.mark.parametrize("table", TABLES, ids=IDS)
def test_the_defender_answers_with_his_own_token(client, table):
    location, tokens = start(client, table)
    attack, answer = table.own_answer
    for action, name in table.defender_gm_fields:
        assert client.post(f"{location}/actions", json=attack, headers=tokens["attacker"]).status_code == 200
        assert_refused(client, location, tokens["defender"], action, "/" + name.replace(".", "/"))
        location, tokens = start(client, table)
    assert client.post(f"{location}/actions", json=attack, headers=tokens["attacker"]).status_code == 200
    response = client.post(f"{location}/actions", json=answer, headers=tokens["defender"])
    assert response.status_code == 200, response.get_json()


def test_the_refusal_names_the_field_who_decides_and_why(client):
    table = TABLES[0]
    location, tokens = start(client, table)
    english = {**tokens["attacker"], "Accept-Language": "en"}
    problem = assert_refused(client, location, english, {**SISTEMA_ATTACK, "defense": {"skill": "Esquiva"}}, "/defense")
    assert problem["status"] == 403
    assert problem["detail"] == (
        "defense is for Capanga to decide (the defender rolls the defense: "
        '"se um personagem puder se defender, rola o teste oposto"): '
        "send it with the token of Capanga or the GM's, or leave it out and let Capanga answer"
    )


def test_sending_a_default_value_decides_nothing(client):
    """A typed client that sends every field with its default is not refused."""
    location, tokens = start(client, TABLES[0])
    action = {**SISTEMA_ATTACK, "modifier": 0, "difficulty": None, "defense": None, "lethal": None, "condition": None}
    assert client.post(f"{location}/actions", json=action, headers=tokens["attacker"]).status_code == 200


def test_a_player_token_cannot_act_for_another_combatant_and_the_problem_points_at_actor(client):
    location, tokens = start(client, TABLES[0])
    response = client.post(f"{location}/actions", json={"type": "pass", "actor": "ana"}, headers=tokens["defender"])
    assert response.status_code == 403
    assert response.get_json()["errors"][0]["pointer"] == "/actor"


# -- /options and /odds follow the same authority ------------------------------------------------


def params_of(client, location: str, actor: str, headers: dict, action_type: str) -> list[dict]:
    response = client.get(f"{location}/options?actor={actor}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return [entry["params"] for entry in response.get_json()["actions"] if entry["type"] == action_type]


def test_a_players_options_leave_out_what_is_not_theirs_to_set(client):
    location, tokens = start(client, TABLES[0])
    mine = params_of(client, location, "ana", tokens["attacker"], "attack")
    as_gm = params_of(client, location, "ana", tokens["gm"], "attack")
    assert mine and as_gm
    # The GM sees every parameter; Ana neither the GM's nor Capanga's inline defense.
    assert {"modifier", "difficulty", "lethal", "defense"} <= set(as_gm[0])
    assert all(not {"modifier", "difficulty", "lethal", "condition", "defense"} & set(params) for params in mine)
    assert {"target", "weapon", "location"} <= set(mine[0])
    client.post(f"{location}/actions", json=SISTEMA_ATTACK, headers=tokens["attacker"])
    defend = params_of(client, location, "capanga", tokens["defender"], "defend")
    assert defend == [
        {
            "skill": {"required": False, "type": "string", "minLength": 1, "maxLength": 40},
            "attribute": {"required": False, "type": "string"},
        }
    ]


def test_a_player_is_not_offered_a_choice_that_needs_the_gms_value(client):
    """Attacking a helpless target needs the difficulty the GM sets: only the GM's token is offered it."""
    location, tokens = start(client, TABLES[0])
    assert (
        client.post(
            f"{location}/actions", json={"type": "condition", "actor": "gm", "target": "capanga", "code": "unconscious"}
        ).status_code
        == 200
    )
    assert params_of(client, location, "ana", tokens["attacker"], "attack") == []
    gm_choices = params_of(client, location, "ana", tokens["gm"], "attack")
    assert gm_choices and all(params["difficulty"]["required"] for params in gm_choices)


def test_space_opera_the_attacker_is_not_offered_the_targets_reaction(client):
    location, tokens = start(client, TABLES[2])
    mine = params_of(client, location, "kira", tokens["attacker"], "attack")
    assert mine and all("reaction" not in params and "sneak" not in params for params in mine)
    assert all("reaction" in params for params in params_of(client, location, "kira", tokens["gm"], "attack"))


def test_a_players_odds_may_not_set_the_gms_fields_or_answer_for_another(client):
    location, tokens = start(client, TABLES[0])
    for sent, pointer in (
        ({"modifier": 4}, "/action/modifier"),
        ({"defense": {"skill": "Esquiva"}}, "/action/defense"),
    ):
        response = client.post(
            f"{location}/odds", json={"action": {**SISTEMA_ATTACK, **sent}}, headers=tokens["attacker"]
        )
        assert response.status_code == 403, response.get_json()
        assert response.get_json()["errors"][0]["pointer"] == pointer
        assert (
            client.post(
                f"{location}/odds", json={"action": {**SISTEMA_ATTACK, **sent}}, headers=tokens["gm"]
            ).status_code
            == 200
        )
    # The defender's answer may still be assumed: an assumption, not a decision.
    assumed = {"action": SISTEMA_ATTACK, "answers": [{"type": "defend", "actor": "capanga", "skill": "Esquiva"}]}
    assert client.post(f"{location}/odds", json=assumed, headers=tokens["attacker"]).status_code == 200


def test_get_ruleset_publishes_who_decides_each_field(client):
    detail = client.get("/rulesets/sistema-2d6").get_json()
    attack = detail["decided_by"]["attack"]
    assert (
        attack["modifier"],
        attack["defense"],
        attack["defense.modifier"],
        attack["defense.skill"],
        attack["weapon"],
    ) == (
        "gm",
        "target",
        "gm",
        "target",
        "actor",
    )
    assert set(detail["decided_by"]["end_combat"].values()) == {"gm"}
    schema = detail["actions"]["attack"]["properties"]
    assert schema["modifier"]["x-decided-by"] == "gm"
    assert "o mestre define a penalidade" in schema["modifier"]["x-rule"]
    assert schema["defense"]["x-decided-by"] == "target"
    assert "x-decided-by" not in schema["weapon"]  # the actor's: the default
    space = client.get("/rulesets/space-opera-d100").get_json()["decided_by"]["attack"]
    assert (space["reaction"], space["reaction.kind"], space["reaction.modifier"], space["sneak"]) == (
        "target",
        "target",
        "gm",
        "gm",
    )
    dark = client.get("/rulesets/dark-earth").get_json()["decided_by"]["allocate"]
    assert (dark["dice_modifier"], dark["shot.cover"], dark["shot.range"], dark["split"]) == (
        "gm",
        "gm",
        "actor",
        "actor",
    )
