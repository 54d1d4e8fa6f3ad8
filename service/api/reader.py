"""The language a problem is told in, and its sentences said in it.

A problem's ``title``, ``detail`` and each ``errors[].detail`` are said in the
language the request's Accept-Language prefers among those the service speaks
(en, fr, pt; a regional tag counts for its language: pt-BR is pt), else in the
combat's language when the problem happened in a combat, else in English; the
answer's Content-Language names it. A sentence made by ``rules.errors.refusal``
is said again from its catalogue entry (``i18n.say``); marshmallow's usual
messages (a required field, a value of the wrong type or out of bounds, an
unknown field) are recognised and said likewise. Anything else stays English.
The machine fields (``type``, ``status``, ``errors[].pointer``, ids and the
like) are never translated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from flask import has_request_context

from ..i18n import SOURCE_LANGUAGE, preferred_language, say
from ..proxied import current_request
from ..rules.errors import NO_NAMES, Refusal, refusal
from ..rules.schemas import LANGUAGES

# The Content-Language of a problem said in each language (Portuguese is Brazil's).
CONTENT_LANGUAGE = {"en": "en", "fr": "fr", "pt": "pt-BR"}

# marshmallow's default messages the service's schemas give (marshmallow.fields,
# marshmallow.validate.Range/Length/OneOf, Schema's unknown field), as templates.
MARSHMALLOW_MESSAGES = (
    refusal("Missing data for required field."),
    refusal("Field may not be null."),
    refusal("Unknown field."),
    refusal("Invalid value."),
    refusal("Invalid input type."),
    refusal("Not a valid integer."),
    refusal("Not a valid number."),
    refusal("Not a valid string."),
    refusal("Not a valid boolean."),
    refusal("Not a valid list."),
    refusal("Not a valid mapping type."),
    refusal("Not a valid tuple."),
    refusal("Not a valid datetime."),
    refusal("Number too large."),
    refusal("Must be one of: {choices}."),
    refusal("Must be greater than or equal to {min}."),
    refusal("Must be less than or equal to {max}."),
    refusal("Must be greater than or equal to {min} and less than or equal to {max}."),
    refusal("Must be greater than {min}."),
    refusal("Must be less than {max}."),
    refusal("Length must be between {min} and {max}."),
    refusal("Length must be {equal}."),
    refusal("Longer than maximum length {max}."),
    refusal("Shorter than minimum length {min}."),
)


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each marshmallow template as a pattern whose groups are its params."""
    found = []
    # The longest first: "Must be greater than or equal to {min}." would also match the range's
    # message, its {min} taking "1 and less than or equal to 200".
    for message in sorted(MARSHMALLOW_MESSAGES, key=lambda message: len(message.template), reverse=True):
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(message.template))
        found.append((re.compile(f"^{pattern}$"), message.template))
    return tuple(found)


def as_refusal(text: Any) -> Any:
    """``text`` as a refusal when it is one of marshmallow's usual messages, else as it is."""
    if isinstance(text, Refusal) or not isinstance(text, str):
        return text
    for pattern, template in _patterns():
        if match := pattern.match(text):
            params: dict[str, Any] = match.groupdict()
            return refusal(template, **params)
    return text


@dataclass(frozen=True)
class Reader:
    """Who reads a problem: the language it is said in, and the combat's words for ids."""

    lang: str = SOURCE_LANGUAGE
    ruleset: str | None = None
    names: Mapping[str, str] = field(default_factory=lambda: NO_NAMES)

    def say(self, text: Any) -> Any:
        """A sentence of the problem in the reader's language (anything but a sentence as it is)."""
        text = as_refusal(text)
        return say(text, self.lang, self.ruleset, self.names) if isinstance(text, str) else text

    @property
    def content_language(self) -> str:
        return CONTENT_LANGUAGE[self.lang]


def reader(combat_lang: str | None = None, ruleset: str | None = None, names: Mapping[str, str] = NO_NAMES) -> Reader:
    """The reader of the current request's problem: its Accept-Language, else ``combat_lang``, else English."""
    default = combat_lang if combat_lang in LANGUAGES else SOURCE_LANGUAGE
    lang = preferred_language(current_request().accept_languages, default) if has_request_context() else default
    return Reader(lang, ruleset, names)
