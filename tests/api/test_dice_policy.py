"""Who may supply which dice, per combat (`dice_policy`), through HTTP, with three tokens:
the game master's, the attacker's player's and the defender's player's, for every ruleset.

In each scenario the defender's answer (or, in dark-earth, the second
allocation) rolls dice of both combatants: the answering player's own, and
the other combatant's (the attack the answer resolves, its damage...).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from service.rules.registry import RULESETS, get_ruleset

from ..helpers import create
from ..unit.dark_earth.fixtures import allocate, goule, kael


@dataclass
class Scenario:
    combat: dict
    setup: list[dict]  # played from each actor's own token, before the answer
    answer: dict  # the answering player's action, without dice
    own: list[int]  # the answering player's own dice, for its first own rolls
    every: list[int]  # every die of the answer, in the order the rules roll them (the GM's table)
    foreign: tuple[int, str]  # the index of the first die the answering player may not supply, and whose (a name)
    server_seed: int | None = None  # a seed whose server dice reach the answer without the setup's dice
    attacker: str = field(init=False)

    def __post_init__(self):
        self.attacker = next(c["id"] for c in self.combat["combatants"] if c["id"] != self.answer["actor"])


def _age_sheet(combatant_id, side, initiative):
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
    }


SCENARIOS = {
    # Ana shoots (her dice 5, 4); Capanga's dodge 2, 3 is his, the damage die after it Ana's.
    "sistema-2d6": Scenario(
        get_ruleset("sistema-2d6").example()["combat"],
        [{"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", "dice": [5, 4]}],
        {"type": "defend", "actor": "capanga", "skill": "Esquiva"},
        own=[2, 3],
        every=[2, 3, 6],
        foreign=(2, "Ana"),
    ),
    # The thug punches; Philip's answer rolls the thug's attack 2, 1 first, then his dodge 3, 3.
    "duel-2d6": Scenario(
        get_ruleset("duel-2d6").example()["combat"],
        [{"type": "attack", "actor": "truand", "target": "philip", "maneuver": "coup_simple", "weapon": "poing"}],
        {"type": "defend", "actor": "philip", "defense": "esquiver"},
        own=[3, 3],
        every=[2, 1, 3, 3],
        foreign=(0, "Le truand"),
    ),
    # Kira attacks twice; the Garde's parry 70 comes first, then Kira's attack 23 and her damage 3, 4.
    "space-opera-d100": Scenario(
        get_ruleset("space-opera-d100").example()["combat"],
        [{"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "attacks": 2}],
        {"type": "react", "actor": "garde", "kind": "parry", "item": "bouclier"},
        own=[70],
        every=[70, 23, 3, 4],
        foreign=(1, "Kira"),
        server_seed=1,
    ),
    # Ana hits Bob (10 under 60); Bob's dodge 90 fails, so Ana's hit location 3 and wound 4 follow.
    "age-du-silicium": Scenario(
        {
            "ruleset": "age-du-silicium",
            "lang": "en",
            "seed": 1,
            "options": {"stress_test": False},
            "combatants": [_age_sheet("ana", "runners", 70), _age_sheet("bob", "corpo", 30)],
        },
        [
            {"type": "declare", "actor": "bob", "actions": [{"kind": "defend"}]},
            {"type": "declare", "actor": "ana", "actions": [{"kind": "attack", "target": "bob"}]},
            {"type": "attack", "actor": "ana", "target": "bob", "dice": [10]},
        ],
        {"type": "react", "actor": "bob", "reaction": "dodge"},
        own=[90],
        every=[90, 3, 4],
        foreign=(1, "Ana"),
        server_seed=2,
    ),
    # The Goule's allocation resolves the tour: Kael's attack [4, 2] is rolled first, then the Goule's [6, 5]...
    # (tests/api/test_dark_earth.py plays the same tour with these 14 dice).
    "dark-earth": Scenario(
        {"ruleset": "dark-earth", "lang": "en", "seed": 5, "combatants": [kael(contact_with=["goule"]), goule()]},
        [allocate("kael", "goule", (3, 2, 2), maneuver="coup de taille")],
        allocate("goule", "kael", (1, 3, 2)),
        own=[6, 5],
        every=[4, 2, 6, 5, 4, 4, 6, 1, 1, 4, 1, 5, 1, 1],
        foreign=(0, "Kael"),
    ),
}
assert set(SCENARIOS) == set(RULESETS), "every ruleset has a dice-policy scenario"


def _bearer(client, combat_id: str, actor: str) -> dict:
    tokens = client.tokens[combat_id]
    return {"Authorization": f"Bearer {tokens['gm'] if actor == 'gm' else tokens['combatants'][actor]}"}


def _setup(client, scenario: Scenario, policy: str | None, *, with_dice: bool = True) -> tuple[str, str]:
    combat = dict(scenario.combat)
    if not with_dice:
        combat.pop("dice", None)
        combat["seed"] = scenario.server_seed or combat["seed"]
    if policy is not None:
        combat["options"] = {**combat.get("options", {}), "dice_policy": policy}
    location, created = create(client, combat)
    for action in scenario.setup:
        action = action if with_dice else {k: v for k, v in action.items() if k != "dice"}
        response = client.post(
            f"{location}/actions", json=action, headers=_bearer(client, created["id"], action["actor"])
        )
        assert response.status_code == 200, response.get_json()
    return location, created["id"]


def _answer(client, location: str, combat_id: str, scenario: Scenario, sender: str, dice: list[int]):
    body = {**scenario.answer, "dice": dice}
    # In English whatever the combat's language: the details below are checked word for word.
    headers = {**_bearer(client, combat_id, sender), "Accept-Language": "en"}
    return client.post(f"{location}/actions", json=body, headers=headers)


def _refused_unchanged(client, location: str, response, status: int, kind: str, pointer: str, before: dict) -> dict:
    assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["type"] == f"/problems/{kind}" and problem["errors"][0]["pointer"] == pointer
    assert client.get(location).get_json() == before, "a refusal changes nothing"
    return problem


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_own_is_the_default_and_published_with_the_other_options(client, ruleset):
    detail = client.get(f"/rulesets/{ruleset}").get_json()
    assert detail["option_defaults"]["dice_policy"] == "own"
    location, _ = create(client, {k: v for k, v in SCENARIOS[ruleset].combat.items() if k != "options"})
    assert client.get(location).get_json()["options"]["dice_policy"] == "own"


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_own_a_player_cannot_supply_another_combatants_dice_they_are_unused_and_named(client, ruleset):
    scenario = SCENARIOS[ruleset]
    location, combat_id = _setup(client, scenario, None)
    before = client.get(location).get_json()
    response = _answer(client, location, combat_id, scenario, scenario.answer["actor"], scenario.every)
    _, whose = scenario.foreign
    assert response.status_code == 422, response.get_json()
    problem = response.get_json()
    assert problem["type"] == "/problems/unused-dice" and problem["errors"][0]["pointer"].startswith("/dice/")
    assert f"with the dice policy 'own' the server rolled the dice of {whose} itself" in problem["detail"]
    assert client.get(location).get_json() == before, "a refusal changes nothing"


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_own_one_die_more_than_a_players_own_rolls_is_unused_in_every_ruleset(client, ruleset):
    """Issue 27 item 15: one extra die is not someone else's die (dark-earth said 403 dice-not-yours)."""
    scenario = SCENARIOS[ruleset]
    location, combat_id = _setup(client, scenario, None)
    played = _answer(client, location, combat_id, scenario, scenario.answer["actor"], [])
    assert played.status_code == 200, played.get_json()
    mine = [r["value"] for r in played.get_json()["rolls"] if r["roller"] == scenario.answer["actor"]]
    # The same fight again (same seed, same setup): the player's own dice, then one die more.
    location, combat_id = _setup(client, scenario, None)
    before = client.get(location).get_json()
    response = _answer(client, location, combat_id, scenario, scenario.answer["actor"], [*mine, 1])
    problem = _refused_unchanged(client, location, response, 422, "unused-dice", f"/dice/{len(mine)}", before)
    assert problem["detail"].startswith(
        f"1 of the {len(mine) + 1} supplied dice was not needed (the rules took {len(mine)})"
    )


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_own_the_answering_player_supplies_its_own_dice_and_the_server_rolls_the_others(client, ruleset):
    scenario = SCENARIOS[ruleset]
    location, combat_id = _setup(client, scenario, None)
    response = _answer(client, location, combat_id, scenario, scenario.answer["actor"], scenario.own)
    assert response.status_code == 200, response.get_json()
    rolls = response.get_json()["rolls"]
    mine = [r for r in rolls if r["roller"] == scenario.answer["actor"]]
    assert [r["value"] for r in mine[: len(scenario.own)]] == scenario.own
    assert {r["source"] for r in mine[: len(scenario.own)]} == {"player"}
    assert all(r["source"] == "server" for r in rolls if r["roller"] != scenario.answer["actor"])
    assert any(r["roller"] == scenario.attacker for r in rolls), "the answer rolled the other combatant's dice too"


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_own_the_game_masters_token_supplies_any_die(client, ruleset):
    scenario = SCENARIOS[ruleset]
    location, combat_id = _setup(client, scenario, None)
    response = _answer(client, location, combat_id, scenario, "gm", scenario.every)
    assert response.status_code == 200, response.get_json()
    rolls = response.get_json()["rolls"]
    assert [r["value"] for r in rolls[: len(scenario.every)]] == scenario.every
    assert {r["source"] for r in rolls[: len(scenario.every)]} == {"gm"}
    assert {r["roller"] for r in rolls[: len(scenario.every)]} == {scenario.attacker, scenario.answer["actor"]}


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_server_refuses_every_supplied_die_the_game_masters_too(client, ruleset):
    scenario = SCENARIOS[ruleset]
    location, combat_id = _setup(client, scenario, "server", with_dice=False)
    before = client.get(location).get_json()
    assert before["options"]["dice_policy"] == "server"
    for sender, dice in ((scenario.answer["actor"], scenario.own), ("gm", scenario.every)):
        response = _answer(client, location, combat_id, scenario, sender, dice)
        problem = _refused_unchanged(client, location, response, 403, "dice-not-yours", "/dice", before)
        assert "'server'" in problem["detail"]
    # Without dice, the answer is played, every die the server's.
    answered = _answer(client, location, combat_id, scenario, scenario.answer["actor"], [])
    assert answered.status_code == 200, answered.get_json()
    played = [r for entry in client.get(f"{location}/events?after=0").get_json()["items"] for r in entry["rolls"]]
    assert answered.get_json()["rolls"] and {r["source"] for r in played} == {"server"}


def test_server_refuses_dice_at_creation(client):
    body = {**SCENARIOS["sistema-2d6"].combat, "options": {"dice_policy": "server"}}
    response = client.post("/combats", json=body)
    assert response.status_code == 403 and response.get_json()["type"] == "/problems/dice-not-yours"
    created = client.post("/combats", json={k: v for k, v in body.items() if k != "dice"})
    assert created.status_code == 201


@pytest.mark.parametrize("ruleset", sorted(SCENARIOS))
def test_any_a_trusted_table_takes_a_players_dice_for_every_roll(client, ruleset):
    scenario = SCENARIOS[ruleset]
    location, combat_id = _setup(client, scenario, "any")
    response = _answer(client, location, combat_id, scenario, scenario.answer["actor"], scenario.every)
    assert response.status_code == 200, response.get_json()
    rolls = response.get_json()["rolls"]
    assert [r["value"] for r in rolls[: len(scenario.every)]] == scenario.every
    assert {r["source"] for r in rolls[: len(scenario.every)]} == {"player"}
