"""The checks every ruleset passes, built-in or plugin: the shared ruleset test kit.

A ruleset package's tests subclass :class:`RulesetKit` and name their ruleset;
pytest then runs every check below on it (docs/rulesets.md)::

    from melee_testing.ruleset_kit import RulesetKit

    class TestCoinDuel(RulesetKit):
        ruleset_id = "coin-duel"

The ruleset must be installed (its entry point found by the registry). Each
check builds its own service on an in-process fakeredis: no Redis, no
network. Melee's own suite runs the kit on its five rulesets
(tests/kit/test_builtin_rulesets.py) and on a plugin distribution
(tests/plugin_ruleset/).
"""

from __future__ import annotations

import copy
from functools import cache

import fakeredis
import jsonschema
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from service.api import schema_name
from service.app import create_app
from service.i18n import SOURCE_LANGUAGE, TRANSLATED, catalogues, labels
from service.i18n.__main__ import problems
from service.i18n.corpus import samples
from service.rules.engine import create_combat
from service.rules.events import render, variant
from service.rules.registry import get_ruleset
from service.rules.tactics import Tactic
from service.settings import Settings
from service.store import CombatStore

from .listing import walk
from .prose import faults

LANGUAGES = (SOURCE_LANGUAGE, *TRANSLATED)


def _base(code: str) -> str:
    return code.split(".")[0]


def prose_faults(ruleset_id: str, played: list[tuple[dict, dict]]) -> list[str]:
    """What reads wrong in any language among the ``played`` (event, names) of a ruleset (melee_testing/prose.py)."""
    messages, words = catalogues(ruleset_id), labels(ruleset_id)
    found = set()
    for event, names in played:
        chosen = variant(event["code"], event["params"], messages["en"]).split(".")
        # A word that chose the sentence (reason=one_side_standing) is not shown: not a raw id.
        shown = {key: value for key, value in event["params"].items() if f"{key}={value}" not in chosen}
        for lang in LANGUAGES:
            text = render(event, lang, messages, names, words[lang])
            for fault in faults(text, lang, event["code"], shown, names, words[lang]):
                found.add(f"{lang} {'.'.join(chosen)}: {fault} in {text!r}")
    return sorted(found)


def unplayed_codes(ruleset_id: str, played: list[tuple[dict, dict]]) -> set[str]:
    """The ruleset's own event codes no ``played`` event has."""
    emitted = {event["code"] for event, _ in played}
    return {_base(key) for key in get_ruleset(ruleset_id).messages["en"]} - emitted


@cache
def played_samples(ruleset_id: str) -> list[tuple[dict, dict]]:
    """Every (event, names) the narration corpus plays for a ruleset (service/i18n/corpus.py), computed once."""
    return samples(ruleset_id)


class Table:
    """A service of its own, on an in-process fakeredis: what one check talks to over HTTP."""

    def __init__(self):
        store = CombatStore(fakeredis.FakeRedis(server=fakeredis.FakeServer()), 3600)
        self.app = create_app(Settings(combat_ttl_seconds=3600, rate_limit=""), store=store)
        self.http = self.app.test_client()

    def create(self, body: dict) -> tuple[str, dict]:
        response = self.http.post("/combats", json=body)
        assert response.status_code == 201, response.get_json()
        combat = response.get_json()
        return response.headers["Location"], combat

    def post(self, location: str, path: str, body: dict, token: str):
        return self.http.post(f"{location}{path}", json=body, headers={"Authorization": f"Bearer {token}"})


def _token(combat: dict, actor: str) -> str:
    return combat["tokens"]["gm"] if actor == "gm" else combat["tokens"]["combatants"][actor]


def json_schema(spec: dict, component: str) -> jsonschema.Draft7Validator:
    """A validator of one component (OpenAPI 3.0's `nullable` said as JSON Schema's null)."""
    return jsonschema.Draft7Validator(
        {"$ref": f"#/components/schemas/{component}", "components": _with_null(spec["components"])}
    )


def _with_null(node):
    if isinstance(node, list):
        return [_with_null(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _with_null(value) for key, value in node.items() if key not in ("discriminator", "nullable")}
    return {"anyOf": [converted, {"type": "null"}]} if node.get("nullable") else converted


def _without_dice(body: dict) -> dict:
    return {key: value for key, value in body.items() if key != "dice"}


class RulesetKit:
    """Subclass with ``ruleset_id`` set: every ``test_`` method below runs on that ruleset."""

    ruleset_id: str
    fights = 20  # of the small simulation
    steps = 12  # random listed actions per property example
    # Own event codes no rule emits (kept for older logs...), each with its reason: not required to be played.
    never_emitted: dict[str, str] = {}

    @pytest.fixture
    def table(self) -> Table:
        return Table()

    @property
    def ruleset(self):
        return get_ruleset(self.ruleset_id)

    def test_the_ruleset_is_listed_with_its_details(self, table):
        assert self.ruleset_id in {r["id"] for r in table.http.get("/rulesets").get_json()}
        detail = table.http.get(f"/rulesets/{self.ruleset_id}")
        assert detail.status_code == 200, detail.get_json()
        assert set(detail.get_json()["actions"]) >= set(self.ruleset.action_schemas)

    def test_a_combat_is_created_from_the_example(self, table):
        body = self.ruleset.example()["combat"]
        _, combat = table.create(body)
        assert combat["ruleset"] == self.ruleset_id and combat["status"] == "active"
        assert [c["id"] for c in combat["combatants"]] == [c["id"] for c in body["combatants"]]
        assert combat["awaiting"], "nobody is awaited at the start"

    def test_the_example_plays_with_each_players_token(self, table):
        example = self.ruleset.example()
        location, combat = table.create(example["combat"])
        for action in example["actions"]:
            response = table.post(location, "/actions", action, _token(combat, action["actor"]))
            assert response.status_code == 200, (action, response.get_json())

    # No "explain" phase: replaying a whole fight per explanation is slow and adds nothing here.
    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
    )
    @given(data=st.data())
    def test_options_and_awaiting_agree_with_what_the_engine_accepts(self, data):
        body = _without_dice(copy.deepcopy(self.ruleset.example()["combat"]))
        state, _ = create_combat(body, combat_id="kit", seed=11)
        walk(data, state, self.steps)

    def test_odds_of_the_first_attack(self, table):
        location, combat = table.create({**_without_dice(self.ruleset.example()["combat"]), "seed": 7})
        waiting = combat["awaiting"][0]
        actor = next(c for c in combat["combatants"] if c["id"] == waiting["actor"])
        tactic = self.ruleset.tactic
        answers = [
            table.post(location, "/odds", {"action": body}, combat["tokens"]["gm"])
            for body in tactic.candidates(combat, actor, waiting, Tactic())
        ]
        answered = [r.get_json() for r in answers if r.status_code == 200]
        assert answered, f"the odds of none of the tactic's first choices: {[r.get_json() for r in answers]}"
        odds = answered[0]
        assert odds["outcomes"] and abs(sum(o["probability"] for o in odds["outcomes"]) - 1) < 1e-9

    def test_a_small_simulation_adds_up(self, table):
        template = _without_dice(self.ruleset.example()["combat"])
        response = table.http.post("/simulations", json={"template": template, "fights": self.fights, "seed": 1})
        assert response.status_code == 200, response.get_json()
        result = response.get_json()
        assert (
            result["ruleset"] == self.ruleset_id and result["tactic"]["description"] == self.ruleset.tactic.description
        )
        assert sum(side["wins"] for side in result["sides"].values()) + result["undecided"] == self.fights
        for side in result["sides"].values():
            assert 0 <= side["ci95"][0] <= side["win_rate"] <= side["ci95"][1] <= 1
        assert sum(result["rounds"]["histogram"].values()) == self.fights
        assert set(result["combatants"]) == {c["id"] for c in template["combatants"]}

    def test_every_event_is_translated_and_reads_as_prose(self):
        assert [p for lang in TRANSLATED for p in problems(lang, (self.ruleset_id,))] == []
        assert prose_faults(self.ruleset_id, played_samples(self.ruleset_id)) == []

    def test_every_event_code_of_the_ruleset_is_played(self):
        unplayed = unplayed_codes(self.ruleset_id, played_samples(self.ruleset_id))
        assert unplayed - set(self.never_emitted) == set(), (
            "the example, seeded fights and the GM scene (service/i18n/corpus.py) never emit these codes"
        )
        assert not set(self.never_emitted) - unplayed, "emitted now: drop it from never_emitted"

    def test_the_openapi_document_has_the_rulesets_schemas(self, table):
        spec = table.http.get("/openapi.json").get_json()
        schemas = spec["components"]["schemas"]
        prefix = self.ruleset.schema_prefix
        assert f"{prefix}CreateCombat" in schemas
        assert {"$ref": f"#/components/schemas/{prefix}CreateCombat"} in schemas["CreateCombat"]["anyOf"]
        for action_schema in self.ruleset.action_schemas.values():
            assert schema_name(action_schema) in schemas, schema_name(action_schema)

    def test_every_answer_of_the_example_matches_the_rulesets_schemas(self, table):
        spec = table.http.get("/openapi.json").get_json()
        created_schema, combat_schema, result_schema, log_schema = (
            json_schema(spec, self.ruleset.schema_prefix + name)
            for name in ("CreatedCombat", "Combat", "ActionResult", "LogPage")
        )
        example = self.ruleset.example()
        location, created = table.create(example["combat"])
        created_schema.validate(created)
        tokens = {"gm": created["tokens"]["gm"], **created["tokens"]["combatants"]}
        for action in [*example["actions"], {"type": "end_combat", "actor": "gm"}]:
            # Each action from its own player's token: under the dice policy 'own' its dice are that player's rolls.
            answer = table.post(location, "/actions", action, tokens.get(action["actor"], tokens["gm"]))
            assert answer.status_code == 200, answer.get_json()
            result_schema.validate(answer.get_json())
            for token in tokens.values():  # as each viewer sees it
                viewer = {"Authorization": f"Bearer {token}"}
                combat_schema.validate(table.http.get(location, headers=viewer).get_json())
                log_schema.validate(table.http.get(f"{location}/events", headers=viewer).get_json())
        assert not combat_schema.is_valid({**created, "ruleset": "another"}), "the discriminator's value is checked"
        assert not result_schema.is_valid(
            {**answer.get_json(), "events": [{"code": "atakk", "params": {}, "text": "?"}]}
        )
