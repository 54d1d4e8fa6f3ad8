"""Ruleset.load_*: the rulesets' marshmallow schemas load bodies, and refuse them with the core's own error.

Nothing above the rules core sees marshmallow's ValidationError: a refusal is
an InvalidInput (a RulesError, 422) carrying marshmallow's messages, nested by
field as the input is. The messages are the sentences clients read in a 422's
``errors``: each is written out here.
"""

from __future__ import annotations

import copy

import pytest
from marshmallow import ValidationError

from service.rules.errors import InvalidInput, RulesError
from service.rules.registry import get_ruleset

SISTEMA = get_ruleset("sistema-2d6")


def refusal(load, body) -> dict:
    with pytest.raises(InvalidInput) as caught:
        load(body)
    assert not isinstance(caught.value, ValidationError)
    assert isinstance(caught.value, RulesError) and caught.value.status == 422
    assert caught.value.code == "invalid-request"
    return caught.value.messages


def creation(**first) -> dict:
    body = copy.deepcopy(SISTEMA.example()["combat"])
    body["combatants"][0].update(first)
    return body


def test_a_refused_creation_says_every_field_nested_as_the_input():
    assert refusal(SISTEMA.load_creation, creation(pv=0, wings=2)) == {
        "combatants": {
            0: {
                "pv": ["Must be greater than or equal to 1 and less than or equal to 500."],
                "wings": ["Unknown field."],
            }
        }
    }


def test_a_schema_validator_refuses_under_its_field():
    weapons = [{"id": "faca", "damage": "1d6"}, {"id": "faca", "damage": "1d4"}]
    assert refusal(SISTEMA.load_creation, creation(weapons=weapons)) == {
        "combatants": {0: {"weapons": ["weapon ids must be unique"]}}
    }


def test_a_post_load_refusal_names_its_field():
    load = get_ruleset("age-du-silicium").load_action
    assert refusal(load, {"type": "adjust", "actor": "gm", "blessures": 1}) == {
        "target": ["give the combatant to adjust"]
    }


def test_an_action_of_the_wrong_type_or_shape_is_refused():
    assert refusal(SISTEMA.load_action, {"type": "attack", "actor": "ana", "target": 3, "weapon": "x"}) == {
        "target": ["Not a valid string."]
    }
    assert refusal(SISTEMA.load_action, []) == {"_schema": ["the action must be a JSON object"]}
    assert refusal(SISTEMA.load_sheet, "ana") == {"_schema": ["Invalid input type."]}


def test_one_schema_instance_serves_every_load_without_sharing_values():
    # The loaders are built once (Ruleset._action_loaders); a callable default is called anew each load.
    body = {"type": "pass", "actor": "ana"}
    first, second = SISTEMA.load_action(body), SISTEMA.load_action(body)
    first["dice"].append(3)
    assert second["dice"] == []
    assert SISTEMA.action_schema("pass") is SISTEMA.action_schema("pass")
