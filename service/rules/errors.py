"""The errors the rules core raises.

Every error names what is wrong in a sentence a player can read, and, where
one field of the request is to blame, that field, so the HTTP layer can point
at it without knowing any rule.

The sentence is a :class:`Refusal` made by :func:`refusal`: English text (what
``str(error)`` and ``error.detail`` give) that keeps its English template and
its params, so the API says it again in the reader's language. ``refusal`` is
the marker ``python -m service.i18n update`` extracts (Babel's Python
extractor): its first argument must be a plain string literal, never an
f-string, and the template goes to the catalogue of the package it is written
in (a ruleset's own ``locales/``, else service/i18n/locales), as
``msgctxt "<ruleset>|refusal"`` (``common|refusal``). A plain ``str`` detail
still works, and stays English in every language.
"""

from collections.abc import Mapping
from typing import Any

from .events import fill

# What a refusal's template is filled with: counted nouns, optional parts and
# words for ids, as in events (docs/narration/README.md).
NO_NAMES: Mapping[str, str] = {}


class Refusal(str):
    """A sentence people read, in English, that can be said again in another language:
    ``template`` (the English, a catalogue's msgid) and ``params`` (ids, names, numbers)."""

    template: str
    params: Mapping[str, Any]
    names: Mapping[str, str]


def refusal(template: str, /, *, names: Mapping[str, str] | None = None, **params: Any) -> Refusal:
    """The English sentence of ``template`` filled with ``params``, remembering both.

    ``refusal("{actor} is not held", actor=actor["name"])``. A combatant param
    (``actor``, ``target``...) may hold the name or the id (the API shows an id by
    the combat's name for it); a list of ids in ``names`` (id -> name) reads as
    the language joins names ("Ana and Bob"); another id is shown by the
    ruleset's words for it in the reader's language (``weapon``, ``maneuver``...),
    as the events' params are."""
    text = Refusal(fill(template, params, "en", names or NO_NAMES) or template)
    text.template = template
    text.params = params
    text.names = names or NO_NAMES
    return text


class RulesError(Exception):
    """Base of every refusal by the rules core; nothing was changed."""

    code = "rules-error"
    status = 422  # the HTTP status the API answers with

    # The combat the refusal happened in, when known (``in_combat``): the language and
    # words the API says the refusal in when the reader names no language it speaks.
    ruleset: str | None = None
    lang: str | None = None
    names: Mapping[str, str] = NO_NAMES

    def __init__(self, detail: str, *, field: str | None = None):
        super().__init__(detail)
        self.detail = detail
        self.field = field

    def in_combat(self, ruleset: str, lang: str | None, names: Mapping[str, str] = NO_NAMES) -> "RulesError":
        """Note the combat this refusal happened in (its ruleset, language and names); returns itself."""
        self.ruleset, self.lang, self.names = ruleset, lang, names
        return self


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
