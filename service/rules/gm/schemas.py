"""The game master's action types, the same for every ruleset."""

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from ..errors import refusal
from ..schemas import ActionBase, EndCombatAction, StrictInt, identifier

MODIFIER_RANGE = validate.Range(-100, 100)
MAX_ROUNDS = 100
REASON: dict[str, Any] = {"validate": validate.Length(max=200), "load_default": None}
VALUE_PATH = r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_.-]{1,64})?$"
LEAVE_WAYS = ("flight", "surrender", "removed")
# The largest current value the GM may set or reach (PV, ammunition...):
# far above any sheet, far below what breaks arithmetic or JSON readers.
MAX_VALUE = 100_000
MAX_TEXT_VALUE = 80


class AdjustedValue(fields.Field[Any]):
    """A value the GM sets: null, true/false, a whole number within ±MAX_VALUE, or a short text."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int):
            if abs(value) > MAX_VALUE:
                raise ValidationError(refusal("must be between -{limit} and {limit}", limit=MAX_VALUE))
            return value
        if isinstance(value, str):
            if len(value) > MAX_TEXT_VALUE:
                raise ValidationError(refusal("at most {limit} characters", limit=MAX_TEXT_VALUE))
            return value
        raise ValidationError(refusal("must be null, true or false, a whole number or a text"))


NARRATIVE_LABEL_LENGTH = 40


class GmAction(ActionBase):
    """What every GM action has: why (shown in the log)."""

    reason = fields.String(**REASON, metadata={"description": "Why, in the GM's words (shown in the log)."})


class TargetedGmAction(GmAction):
    target = identifier(required=True, metadata={"description": "The combatant concerned."})


class AdjustAction(TargetedGmAction):
    """Set or change current values of a combatant (PV, wound level, maluses, ammunition...)."""

    set = fields.Dict(
        keys=fields.String(
            validate=validate.Regexp(VALUE_PATH, error="must be a value name such as 'pv' or 'ammo.pistol'")
        ),
        values=AdjustedValue(
            allow_none=True,
            metadata={
                "anyOf": [
                    {"type": "integer", "minimum": -MAX_VALUE, "maximum": MAX_VALUE},
                    {"type": "string", "maxLength": MAX_TEXT_VALUE},
                    {"type": "boolean"},
                ],
                "nullable": True,
            },
        ),
        load_default=dict,
        validate=validate.Length(max=20),
        metadata={
            "description": "Value name -> new value. 'key' or 'key.sub' (ammo.pistol); the type must stay the same."
        },
    )
    change = fields.Dict(
        keys=fields.String(
            validate=validate.Regexp(VALUE_PATH, error="must be a value name such as 'pv' or 'ammo.pistol'")
        ),
        values=StrictInt(validate=validate.Range(-1000, 1000)),
        load_default=dict,
        validate=validate.Length(max=20),
        metadata={"description": "Value name -> amount added to a numeric value (negative to lower it)."},
    )


class ModifyAction(TargetedGmAction):
    """A situational modifier on the target's rolls: its next roll, or for N rounds."""

    value = StrictInt(
        required=True,
        validate=MODIFIER_RANGE,
        metadata={"description": "Added to the target's rolls (positive helps)."},
    )
    rounds = StrictInt(
        validate=validate.Range(1, MAX_ROUNDS),
        load_default=None,
        metadata={"description": "Lasts this many rounds, this one included; absent: the target's next roll only."},
    )


class OverrideAction(TargetedGmAction):
    """The GM decides the outcome of the target's next roll."""

    result = fields.String(required=True, validate=validate.OneOf(["success", "failure"]))


class ConditionAction(TargetedGmAction):
    """Add or remove a condition the ruleset knows (GET /rulesets/{id}: catalog.gm.conditions), or a narrative one."""

    code = fields.String(
        validate=validate.Length(1, 40),
        load_default=None,
        metadata={"description": "A condition of the ruleset's rules (give code or label)."},
    )
    label = fields.String(
        validate=validate.Length(1, NARRATIVE_LABEL_LENGTH),
        load_default=None,
        metadata={
            "description": "A narrative condition in the GM's words (prone, blinded by smoke...): shown and "
            "expiring like the others, with no effect on the rules (give code or label)."
        },
    )
    remove = fields.Boolean(load_default=False)
    rounds = StrictInt(
        validate=validate.Range(1, MAX_ROUNDS),
        load_default=None,
        metadata={"description": "Lasts this many rounds; absent: until removed."},
    )
    modifier = StrictInt(
        validate=MODIFIER_RANGE, load_default=0, metadata={"description": "Added to the bearer's rolls while it lasts."}
    )

    @validates_schema
    def _removal_is_bare(self, data: dict[str, Any], **kwargs: Any) -> None:
        if (data["code"] is None) == (data["label"] is None):
            raise ValidationError(
                refusal("give either code (a condition of the rules) or label (a narrative one)"), "code"
            )
        if data["remove"] and (data["rounds"] is not None or data["modifier"]):
            raise ValidationError(refusal("rounds and modifier belong to adding a condition"), "rounds")
        if data["label"] is not None and data["modifier"]:
            raise ValidationError(refusal("a narrative condition has no effect on the rules: no modifier"), "modifier")


class JoinAction(GmAction):
    """A new combatant enters the running fight (the sheet as in POST /combats)."""

    combatant = fields.Dict(required=True, metadata={"description": "The newcomer's sheet, as in POST /combats."})


class LeaveAction(TargetedGmAction):
    """A combatant leaves the fight: flight, surrender, or removal by the GM."""

    how = fields.String(validate=validate.OneOf(LEAVE_WAYS), load_default="removed")


GM_ACTIONS: dict[str, type[Schema]] = {
    "end_combat": EndCombatAction,
    "adjust": AdjustAction,
    "modify": ModifyAction,
    "override": OverrideAction,
    "condition": ConditionAction,
    "join": JoinAction,
    "leave": LeaveAction,
}
