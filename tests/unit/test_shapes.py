"""service/rules/shapes/: the core's schema kit loads and refuses as the rulesets expect.

The messages are the sentences clients read in a 422's ``errors`` (the ones
marshmallow wrote when the core used it): each is written out here.
"""

from __future__ import annotations

import pytest

from service.rules.errors import InvalidInput, RulesError
from service.rules.shapes import Schema, fields, missing, post_load, validate, validates_schema


def StrictInt(**kwargs) -> fields.Integer:  # noqa: N802 (as service/rules/schemas.py's)
    return fields.Integer(strict=True, **kwargs)


class Inner(Schema):
    kind = fields.String(validate=validate.OneOf(["dodge", "parry"]), required=True)
    bonus = StrictInt(validate=validate.Range(-5, 5), load_default=0)


class Base(Schema):
    id = fields.String(required=True, validate=validate.Regexp(r"^[a-z]+$", error="lowercase letters only"))
    keyword = StrictInt(data_key="def", attribute="def_", load_default=None)


class Probe(Base):
    name = fields.String(validate=validate.Length(1, 5), load_default=None)
    flag = fields.Boolean(load_default=False)
    inner = fields.Nested(Inner, load_default=None)
    items = fields.List(fields.Nested(Inner), validate=validate.Length(max=2), load_default=list)
    scores = fields.Dict(
        keys=fields.String(validate=validate.Length(max=3)),
        values=StrictInt(validate=validate.Range(0, 9)),
        load_default=dict,
    )
    ruleset = fields.String(validate=validate.Equal("x"), load_default="x")
    anything = fields.Field(allow_none=True, load_default=None)

    @validates_schema
    def _b_names_differ(self, data, **kwargs):
        if data["name"] == data["id"]:
            raise InvalidInput("name and id must differ", "name")

    @validates_schema
    def _a_keyword_positive(self, data, **kwargs):
        if data["def_"] is not None and data["def_"] < 0:
            raise InvalidInput("must not be negative", "keyword")

    @post_load
    def _named(self, data, **kwargs):
        data["name"] = data["name"] or data["id"]
        return data


def refusal(body) -> dict:
    with pytest.raises(InvalidInput) as caught:
        Probe().load(body)
    return caught.value.messages


def test_a_body_loads_with_defaults_data_keys_and_post_load():
    assert Probe().load({"id": "ana", "def": 2, "inner": {"kind": "dodge"}}) == {
        "id": "ana",
        "def_": 2,
        "name": "ana",
        "flag": False,
        "inner": {"kind": "dodge", "bonus": 0},
        "items": [],
        "scores": {},
        "ruleset": "x",
        "anything": None,
    }


def test_fields_come_in_declaration_order_bases_first():
    assert list(Probe().fields) == ["id", "keyword", "name", "flag", "inner", "items", "scores", "ruleset", "anything"]


def test_callable_defaults_give_a_fresh_value_each_load():
    first, second = Probe().load({"id": "a"}), Probe().load({"id": "b"})
    first["items"].append(1)
    assert second["items"] == []


def test_every_field_error_is_reported_nested_as_the_input():
    assert refusal(
        {
            "name": "toolong",
            "flag": [],
            "inner": {"kind": "run", "bonus": True},
            "items": [{}, {"kind": 3}, {}],
            "scores": {"abcd": 10},
            "ruleset": "y",
            "zz": 1,
        }
    ) == {
        "id": ["Missing data for required field."],
        "name": ["Length must be between 1 and 5."],
        "flag": ["Not a valid boolean."],
        "inner": {"kind": ["Must be one of: dodge, parry."], "bonus": ["Not a valid integer."]},
        "items": {
            0: {"kind": ["Missing data for required field."]},
            1: {"kind": ["Not a valid string."]},
            2: {"kind": ["Missing data for required field."]},
        },  # the list's own validators run once its items load
        "scores": {
            "abcd": {
                "key": ["Longer than maximum length 3."],
                "value": ["Must be greater than or equal to 0 and less than or equal to 9."],
            }
        },
        "ruleset": ["Must be equal to x."],
        "zz": ["Unknown field."],
    }


def test_a_list_validator_runs_on_loaded_items():
    assert refusal({"id": "a", "items": [{"kind": "dodge"}] * 3}) == {"items": ["Longer than maximum length 2."]}


def test_types_null_and_custom_messages():
    assert refusal({"id": "Ana", "def": "3", "name": None, "inner": [], "items": {}, "scores": []}) == {
        "id": ["lowercase letters only"],
        "def": ["Not a valid integer."],
        "inner": {"_schema": ["Invalid input type."]},
        "items": ["Not a valid list."],
        "scores": ["Not a valid mapping type."],
    }
    assert refusal({"id": None}) == {"id": ["Field may not be null."]}
    assert refusal({"id": "a", "def": 2.0}) == {"def": ["Not a valid integer."]}


def test_booleans_read_the_usual_words():
    assert Probe().load({"id": "a", "flag": "yes"})["flag"] is True
    assert Probe().load({"id": "a", "flag": 0})["flag"] is False
    assert refusal({"id": "a", "flag": 2}) == {"flag": ["Not a valid boolean."]}


def test_schema_validators_run_in_name_order_after_the_fields_only():
    # Both validators fail; _a_... runs before _b_...; an error named by the field's name is stored under its data key.
    assert refusal({"id": "ab", "name": "ab", "def": -1}) == {
        "def": ["must not be negative"],
        "name": ["name and id must differ"],
    }
    # A field error: the schema validators do not run (their data would be incomplete).
    assert refusal({"id": "ab", "name": "ab", "def": -1, "flag": "maybe"}) == {"flag": ["Not a valid boolean."]}


def test_a_post_load_error_replaces_the_result():
    class Strict(Schema):
        target = fields.String(load_default=None)

        @post_load
        def _needed(self, data, **kwargs):
            if data["target"] is None:
                raise InvalidInput("give the combatant", "target")
            return data

    with pytest.raises(InvalidInput) as caught:
        Strict().load({})
    assert caught.value.messages == {"target": ["give the combatant"]}


def test_non_objects_are_refused_whole():
    for body in (None, [], "x", 3):
        with pytest.raises(InvalidInput) as caught:
            Probe().load(body)
        assert caught.value.messages == {"_schema": ["Invalid input type."]}


def test_the_error_is_the_cores_own_and_answers_422():
    error = InvalidInput("weapon ids must be unique", "weapons")
    assert isinstance(error, RulesError) and error.status == 422 and error.code == "invalid-request"
    assert error.messages == ["weapon ids must be unique"]
    assert error.normalized_messages() == {"weapons": ["weapon ids must be unique"]}
    assert InvalidInput({"type": ["unknown"]}).normalized_messages() == {"type": ["unknown"]}


def test_declarations_are_kept_for_the_listing_and_the_bridge():
    field = Probe().fields["keyword"]
    assert (field.data_key, field.attribute, field.required, field.load_default, field.allow_none) == (
        "def",
        "def_",
        False,
        None,
        True,
    )
    assert Probe().fields["id"].load_default is missing and Probe().fields["id"].allow_none is False
    bounds = Inner().fields["bonus"].validators[0]
    assert (bounds.min, bounds.max) == (-5, 5)
    with pytest.raises(ValueError):
        fields.String(required=True, load_default="x")


def test_from_dict_makes_a_named_shape():
    made = Schema.from_dict({"n": StrictInt(required=True)}, name="MadeUp")
    assert made.__name__ == "MadeUp" and made().load({"n": 1}) == {"n": 1}
