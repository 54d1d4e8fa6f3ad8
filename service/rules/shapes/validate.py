"""The validators a field may carry: bounds, lengths, choices, patterns, one value.

Each raises :class:`~service.rules.errors.InvalidInput` with a sentence
(marshmallow's wording, which clients and tests already read), and exposes
what it checks (``min``, ``max``, ``choices``, ``regex``, ``comparable``) so
the legal-action listing describes a field and the HTTP layer publishes it in
the OpenAPI document.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..errors import InvalidInput


class Validator:
    """Base of the validators: a callable that returns the value or raises InvalidInput."""

    error: str | None = None

    def __call__(self, value: Any) -> Any:
        raise NotImplementedError


class Range(Validator):
    """``min <= value <= max`` (either bound may be None: not checked)."""

    message_min = "Must be greater than or equal to {min}."
    message_max = "Must be less than or equal to {max}."
    message_all = "Must be greater than or equal to {min} and less than or equal to {max}."

    def __init__(self, min: Any = None, max: Any = None, *, error: str | None = None) -> None:  # noqa: A002
        self.min = min
        self.max = max
        self.error = error

    def _fail(self, value: Any, message: str) -> InvalidInput:
        return InvalidInput((self.error or message).format(input=value, min=self.min, max=self.max))

    def __call__(self, value: Any) -> Any:
        if self.min is not None and value < self.min:
            raise self._fail(value, self.message_min if self.max is None else self.message_all)
        if self.max is not None and value > self.max:
            raise self._fail(value, self.message_max if self.min is None else self.message_all)
        return value


class Length(Validator):
    """``min <= len(value) <= max``, or ``len(value) == equal``."""

    message_min = "Shorter than minimum length {min}."
    message_max = "Longer than maximum length {max}."
    message_all = "Length must be between {min} and {max}."
    message_equal = "Length must be {equal}."

    def __init__(
        self,
        min: int | None = None,
        max: int | None = None,
        *,  # noqa: A002
        equal: int | None = None,
        error: str | None = None,
    ) -> None:
        if equal is not None and any([min, max]):
            raise ValueError("The `equal` parameter was provided, maximum or minimum parameter must not be provided.")
        self.min = min
        self.max = max
        self.equal = equal
        self.error = error

    def _fail(self, value: Any, message: str) -> InvalidInput:
        return InvalidInput((self.error or message).format(input=value, min=self.min, max=self.max, equal=self.equal))

    def __call__(self, value: Any) -> Any:
        length = len(value)
        if self.equal is not None:
            if length != self.equal:
                raise self._fail(value, self.message_equal)
            return value
        if self.min is not None and length < self.min:
            raise self._fail(value, self.message_min if self.max is None else self.message_all)
        if self.max is not None and length > self.max:
            raise self._fail(value, self.message_max if self.min is None else self.message_all)
        return value


class OneOf(Validator):
    """The value is one of ``choices``."""

    default_message = "Must be one of: {choices}."

    def __init__(self, choices: Iterable[Any], *, error: str | None = None) -> None:
        self.choices = choices
        self.choices_text = ", ".join(str(choice) for choice in self.choices)
        self.error = error or self.default_message

    def _fail(self, value: Any) -> InvalidInput:
        return InvalidInput((self.error or self.default_message).format(input=value, choices=self.choices_text))

    def __call__(self, value: Any) -> Any:
        try:
            if value not in self.choices:
                raise self._fail(value)
        except TypeError as error:  # an unhashable value against a set of choices
            raise self._fail(value) from error
        return value


class Equal(Validator):
    """The value equals ``comparable``."""

    default_message = "Must be equal to {other}."

    def __init__(self, comparable: Any, *, error: str | None = None) -> None:
        self.comparable = comparable
        self.error = error or self.default_message

    def __call__(self, value: Any) -> Any:
        if value != self.comparable:
            raise InvalidInput((self.error or self.default_message).format(input=value, other=self.comparable))
        return value


class Regexp(Validator):
    """The text matches ``regex`` from its start (``re.match``)."""

    default_message = "String does not match expected pattern."

    def __init__(self, regex: str | re.Pattern[str], flags: int = 0, *, error: str | None = None) -> None:
        self.regex = re.compile(regex, flags) if isinstance(regex, str) else regex
        self.error = error or self.default_message

    def __call__(self, value: Any) -> Any:
        if self.regex.match(value) is None:
            raise InvalidInput((self.error or self.default_message).format(input=value, regex=self.regex.pattern))
        return value
