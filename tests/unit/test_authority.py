"""service/rules/authority.py: who may set each field of an action."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from marshmallow import Schema, fields

from service.rules import authority
from service.rules.errors import NotYourDecision
from service.rules.registry import RULESETS, get_ruleset
from service.rules.viewer import GM_VIEWER, Viewer

SISTEMA = get_ruleset("sistema-2d6")
SPACE = get_ruleset("space-opera-d100")
STATE = {
    "combatants": [
        {"id": "ana", "name": "Ana"},
        {"id": "capanga", "name": "Capanga"},
        {"id": "marcus", "name": "Marcus"},
    ]
}
ANA, CAPANGA = Viewer(combatant="ana"), Viewer(combatant="capanga")


@dataclass(frozen=True)
class Several:
    """A caller controlling several combatants (a player with two characters)."""

    ids: frozenset[str]
    gm: bool = False

    def controls(self, combatant_id: str) -> bool:
        return combatant_id in self.ids


def attack(**fields_) -> dict:
    return SISTEMA.load_action({"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", **fields_})


def refusal(caller, action, ruleset=SISTEMA) -> NotYourDecision:
    with pytest.raises(NotYourDecision) as caught:
        authority.check(ruleset, STATE, action, caller)
    assert caught.value.status == 403
    return caught.value


def test_the_owners_of_sistema_attack_as_declared_next_to_the_schema():
    owners = authority.published(SISTEMA)["attack"]
    assert owners == {
        "target": "actor",
        "weapon": "actor",
        "modifier": "gm",
        "location": "actor",
        "location_penalty": "gm",
        "condition": "gm",
        "difficulty": "gm",
        "defense": "target",
        "defense.skill": "target",
        "defense.attribute": "target",
        "defense.modifier": "gm",
        "burst": "actor",
        "lethal": "gm",
    }


def test_every_field_of_a_game_master_action_is_the_gms():
    assert set(authority.published(SISTEMA)["modify"].values()) == {"gm"}
    # duel-2d6's join is both: a player engages (target), the GM brings a newcomer (combatant).
    assert authority.published(get_ruleset("duel-2d6"))["join"]["combatant"] == "gm"
    assert authority.published(get_ruleset("duel-2d6"))["join"]["target"] == "actor"


def test_the_gm_may_set_everything():
    authority.check(SISTEMA, STATE, attack(modifier=2, difficulty=6, lethal=False), GM_VIEWER)
    authority.check(SISTEMA, STATE, attack(defense={"skill": "Esquiva", "modifier": -2}), GM_VIEWER)


def test_a_player_sets_his_own_choices():
    authority.check(SISTEMA, STATE, attack(location="head", burst=False), ANA)


@pytest.mark.parametrize(
    ("sent", "field"), [({"modifier": 2}, "modifier"), ({"difficulty": 6}, "difficulty"), ({"lethal": False}, "lethal")]
)
def test_a_player_may_not_set_a_gm_field(sent, field):
    error = refusal(ANA, attack(**sent))
    assert error.field == field
    assert error.detail.startswith(f"{field} is the game master's to set (the game master")
    assert error.detail.endswith("; send it with the GM's token")


def test_a_default_value_decides_nothing_and_a_required_field_always_decides():
    authority.check(SISTEMA, STATE, attack(modifier=0, difficulty=None, lethal=None, defense=None), ANA)
    test = SISTEMA.load_action({"type": "test", "actor": "ana", "attribute": "DES", "difficulty": 8})
    assert refusal(ANA, test).field == "difficulty"


def test_an_inline_answer_belongs_to_the_answering_combatant():
    error = refusal(ANA, attack(defense={}))
    assert error.field == "defense"
    assert "is for Capanga to decide" in error.detail and "let Capanga answer" in error.detail


def test_a_caller_controlling_both_answers_but_not_with_the_gms_field_inside():
    both = Several(frozenset({"ana", "capanga"}))
    authority.check(SISTEMA, STATE, attack(defense={"skill": "Esquiva"}), both)
    assert refusal(both, attack(defense={"skill": "Esquiva", "modifier": 2})).field == "defense.modifier"


def test_another_combatants_player_may_not_answer_either():
    marcus = Viewer(combatant="marcus")
    action = SISTEMA.load_action({"type": "attack", "actor": "marcus", "target": "capanga", "defense": {}})
    assert refusal(marcus, action).field == "defense"


def test_space_opera_the_attacker_may_not_announce_the_targets_reaction():
    action = SPACE.load_action({"type": "attack", "actor": "ana", "target": "capanga", "reaction": {"kind": "none"}})
    error = refusal(ANA, action, SPACE)
    assert error.field == "reaction"
    assert "annoncer l'esquive / la parade" in error.detail
    authority.check(SPACE, STATE, action, GM_VIEWER)


def test_acting_for_another_or_as_the_gm_is_refused():
    assert refusal(CAPANGA, attack()).field == "actor"
    modify = SISTEMA.load_action({"type": "modify", "actor": "gm", "target": "ana", "value": 2})
    assert refusal(ANA, modify).field == "type"


def test_is_set_compares_with_the_default():
    class Probe(Schema):
        plain = fields.Integer(load_default=0)
        listed = fields.List(fields.String(), load_default=list)
        needed = fields.Integer(required=True)

    probe = Probe().fields
    assert not authority.is_set(probe["plain"], 0) and authority.is_set(probe["plain"], 1)
    assert not authority.is_set(probe["listed"], []) and authority.is_set(probe["listed"], ["x"])
    assert authority.is_set(probe["needed"], 0)


DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_each_rulesets_doc_names_every_field_someone_else_decides(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    section = (DOCS / f"{ruleset_id}.md").read_text().split("## Who decides", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z_.]+)`", section))
    for action_type, owners in authority.published(ruleset).items():
        if action_type in ruleset.gm_only_actions:
            continue
        for path, owner in owners.items():
            assert owner == "actor" or _named(path, owner, owners, named), f"{action_type}.{path} ({owner}) is missing"


def _named(path: str, owner: str, owners: dict, named: set[str]) -> bool:
    """The path, its last name, or the object it is in (of the same owner) is in the table."""
    if path in named or path.rsplit(".", 1)[-1] in named:
        return True
    parent = path.rsplit(".", 1)[0] if "." in path else None
    return parent is not None and owners.get(parent) == owner and _named(parent, owner, owners, named)
