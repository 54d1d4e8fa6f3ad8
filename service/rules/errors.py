"""The errors the rules core raises.

Every error names what is wrong in a sentence a player can read, and, where
one field of the request is to blame, that field, so the HTTP layer can point
at it without knowing any rule.
"""

from typing import Any


class RulesError(Exception):
    """Base of every refusal by the rules core; nothing was changed."""

    code = "rules-error"
    status = 422  # the HTTP status the API answers with

    def __init__(self, detail: str, *, field: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.field = field


class InvalidAction(RulesError):
    """The action is malformed for this combat (unknown target, weapon, ...)."""

    code = "invalid-action"


class ActionNotAllowed(RulesError):
    """The action is well formed but the rules forbid it now."""

    code = "action-not-allowed"
    status = 409


class NotYourDecision(RulesError):
    """The caller set a field that is another's to decide: the GM's, or the answering combatant's (authority.py)."""

    code = "not-your-decision"
    status = 403


class CombatOver(ActionNotAllowed):
    code = "combat-over"


class NotYourTurn(ActionNotAllowed):
    code = "not-your-turn"


class DiceError(RulesError):
    """A dice expression or a client-supplied die is unusable."""

    code = "dice-error"

    def __init__(self, detail: str, *, field: str | None = "dice"):
        super().__init__(detail, field=field)


class DiceSyntaxError(DiceError):
    code = "dice-syntax"


class TooManyDice(DiceError):
    code = "too-many-dice"


class DieOutOfRange(DiceError):
    code = "die-out-of-range"


class UnusedDice(DiceError):
    code = "unused-dice"


class DiceNotYours(DiceError):
    """The combat's dice policy does not let this caller supply these dice (403)."""

    code = "dice-not-yours"
    status = 403


class InvalidInput(RulesError):
    """A body the schemas refuse: a field missing, of the wrong type or out of bounds, or unknown.

    ``messages`` holds every error found, nested by field as the input is
    (``{"combatants": {0: {"pv": ["Must be greater than or equal to 1."]}}}``):
    the messages of marshmallow's ValidationError when a schema refused the
    body (``Ruleset.load_*`` turns one into this), or the core's own.
    """

    code = "invalid-request"

    def __init__(self, messages: dict[Any, Any]):
        super().__init__(str(messages))
        self.messages = messages
