"""Marshmallow building blocks shared by every ruleset's sheets and actions.

The rules core owns its input shapes: the HTTP layer publishes these same
schemas in the OpenAPI document, so the contract cannot drift from the rules.
"""

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from .dice import DEFAULT_POLICY, MAX_EXPRESSION_LENGTH, POLICIES, DiceExpression
from .errors import DiceError

ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
MAX_SUPPLIED_DICE = 200
LANGUAGES = ("en", "fr", "pt")


class StrictInt(fields.Integer):
    """An integer that refuses booleans and numeric strings."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


class DiceExpressionField(fields.String):
    """A dice expression such as ``1d6+3``, checked at load time."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validate=validate.Length(max=MAX_EXPRESSION_LENGTH), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            DiceExpression.parse(text)
        except DiceError as error:
            raise ValidationError(error.detail) from error
        return text


def identifier(**kwargs: Any) -> fields.String:
    return fields.String(
        validate=validate.Regexp(ID_PATTERN, error="must be 1-64 letters, digits, '_', '.' or '-'"), **kwargs
    )


def name(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Length(1, 80), **kwargs)


class CombatantBase(Schema):
    """What every combatant has, whatever the ruleset."""

    id = identifier(required=True, metadata={"description": "Stable id, unique in the combat."})
    name = name(required=True)
    side = identifier(required=True, metadata={"description": "Combatants of one side are allies."})


class ActionBase(Schema):
    """What every action has: its type, who acts, and optional physical dice."""

    type = fields.String(required=True)
    actor = identifier(
        required=True,
        metadata={"description": "The acting combatant's id, or 'gm' for game-master actions."},
    )
    dice = fields.List(
        StrictInt(validate=validate.Range(1, 100)),
        validate=validate.Length(max=MAX_SUPPLIED_DICE),
        load_default=list,
        metadata={
            "description": "Physical dice, consumed in order by the rolls the combat's dice_policy lets this "
            "token supply ('own': its own combatant's rolls; the GM's token: any; 'server': none); "
            "the server rolls the rest. Every value must fit the die it stands for, and none may be left over."
        },
    )


class EndCombatAction(ActionBase):
    """The game master ends the fight (every ruleset)."""

    reason = fields.String(validate=validate.Length(max=200), load_default=None)


# -- combat options: every one has a default and says what it means --------------------


def flag(default: bool, description: str) -> fields.Boolean:
    return fields.Boolean(load_default=default, metadata={"description": description})


def auto_end() -> fields.Boolean:
    """The ``auto_end`` option, the same in every ruleset (service/rules/ending.py says why it is off)."""
    return flag(
        False,
        "End the fight by itself once at most one side has a fighter standing; "
        "otherwise the game master is awaited with end_combat.",
    )


def choice(values: Any, default: Any, description: str) -> fields.String:
    return fields.String(validate=validate.OneOf(values), load_default=default, metadata={"description": description})


def number(default: Any, description: str, low: int, high: int) -> StrictInt:
    return StrictInt(validate=validate.Range(low, high), load_default=default, metadata={"description": description})


class CommonOptions(Schema):
    """The options of every ruleset; each ruleset's ``Options`` adds its own."""

    dice_policy = choice(
        POLICIES,
        DEFAULT_POLICY,
        "Whose supplied dice count: 'own' (a player's token supplies only the dice of its own combatant's "
        "rolls; the GM's token any), 'server' (the server rolls every die; supplied dice are refused), "
        "'any' (a trusted table: every token's dice go to the rolls in order).",
    )
