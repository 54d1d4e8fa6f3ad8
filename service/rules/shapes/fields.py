"""The fields a shape declares: text, whole numbers, booleans, lists, maps, nested shapes.

Each field turns one JSON value into the loaded value or raises
:class:`~service.rules.errors.InvalidInput` with the sentences marshmallow
wrote for the same input (clients and tests read them), and keeps what it
was declared with (``required``, ``load_default``, ``allow_none``,
``data_key``, ``attribute``, ``validators``, ``metadata``) for the
legal-action listing, the authority checks and the OpenAPI bridge.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final

from ..errors import InvalidInput

if TYPE_CHECKING:  # the package's __init__ imports this module
    from . import Schema


class _Missing:
    """The marker of a value absent from the input (and of a field without default)."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "<missing>"


missing: Final = _Missing()

Validators = Callable[[Any], Any] | Iterable[Callable[[Any], Any]] | None


class Field:
    """Any JSON value, kept as it is; the base of every field."""

    default_error_messages: dict[str, str] = {
        "required": "Missing data for required field.",
        "null": "Field may not be null.",
    }

    def __init__(
        self,
        *,
        load_default: Any = missing,
        data_key: str | None = None,
        attribute: str | None = None,
        validate: Validators = None,
        required: bool = False,
        allow_none: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        if required and load_default is not missing:
            raise ValueError("'load_default' must not be set for required fields.")
        self.load_default = load_default
        self.data_key = data_key
        self.attribute = attribute
        self.validate = validate
        if validate is None:
            self.validators: list[Callable[[Any], Any]] = []
        elif callable(validate):
            self.validators = [validate]
        else:
            self.validators = list(validate)
        self.required = required
        # A field whose default is None accepts null, as in marshmallow.
        self.allow_none = load_default is None if allow_none is None else allow_none
        self.metadata: Mapping[str, Any] = metadata or {}
        messages: dict[str, str] = {}
        for cls in reversed(type(self).__mro__):
            messages.update(getattr(cls, "default_error_messages", {}))
        self.error_messages = messages

    def __repr__(self) -> str:
        return f"<{type(self).__name__}(required={self.required}, load_default={self.load_default!r})>"

    def make_error(self, key: str) -> InvalidInput:
        return InvalidInput(self.error_messages[key])

    def default(self) -> Any:
        """The value an absent field takes (``missing``: it stays absent)."""
        default = self.load_default
        return default() if callable(default) else default

    def deserialize(self, value: Any, attr: str | None = None, data: Mapping[str, Any] | None = None) -> Any:
        """The loaded value of ``value`` (``missing`` when absent), or InvalidInput."""
        if value is missing:
            if self.required:
                raise self.make_error("required")
            default = self.load_default
            return default() if callable(default) else default
        if value is None:
            if self.allow_none:
                return None
            raise self.make_error("null")
        output = self._deserialize(value, attr, data)
        if self.validators:
            self._validate(output)
        return output

    def _validate(self, value: Any) -> None:
        errors: list[Any] = []
        for validator in self.validators:
            try:
                validator(value)
            except InvalidInput as error:
                if isinstance(error.messages, dict):
                    errors.append(error.messages)
                else:
                    errors.extend(error.messages)
        if errors:
            raise InvalidInput(errors)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None) -> Any:
        return value


class String(Field):
    default_error_messages = {"invalid": "Not a valid string.", "invalid_utf8": "Not a valid utf-8 string."}

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, bytes):
            try:
                return value.decode("utf-8")
            except UnicodeDecodeError as error:
                raise self.make_error("invalid_utf8") from error
        raise self.make_error("invalid")


class Integer(Field):
    """A whole number; ``strict``: only integers (no numeric text, no 2.0)."""

    default_error_messages = {"invalid": "Not a valid integer.", "too_large": "Number too large."}

    def __init__(self, *, strict: bool = False, **kwargs: Any) -> None:
        self.strict = strict
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None) -> int:
        if value is True or value is False:
            raise self.make_error("invalid")
        if type(value) is int:
            return value
        if self.strict and not isinstance(value, numbers.Integral):
            raise self.make_error("invalid")
        try:
            return int(value)
        except (TypeError, ValueError) as error:
            raise self.make_error("invalid") from error
        except OverflowError as error:
            raise self.make_error("too_large") from error


class Boolean(Field):
    """true or false; the texts and numbers marshmallow reads as one too ("true", "yes", 1, "0"...)."""

    truthy = {"t", "T", "true", "True", "TRUE", "on", "On", "ON", "y", "Y", "yes", "Yes", "YES", "1", 1}
    falsy = {"f", "F", "false", "False", "FALSE", "off", "Off", "OFF", "n", "N", "no", "No", "NO", "0", 0}
    default_error_messages = {"invalid": "Not a valid boolean."}

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None) -> bool:
        if value is True or value is False:
            return value
        try:
            if value in self.truthy:
                return True
            if value in self.falsy:
                return False
        except TypeError as error:  # unhashable: a list, an object
            raise self.make_error("invalid") from error
        raise self.make_error("invalid")


def _is_collection(value: Any) -> bool:
    return hasattr(value, "__iter__") and not hasattr(value, "strip") and not isinstance(value, Mapping)


class List(Field):
    """A list whose every element ``inner`` loads; errors by index."""

    default_error_messages = {"invalid": "Not a valid list."}

    def __init__(self, inner: Field, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not isinstance(inner, Field):
            raise ValueError("The list elements must be a Field instance.")
        self.inner = inner

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None) -> list[Any]:
        if not _is_collection(value):
            raise self.make_error("invalid")
        inner = self.inner.deserialize
        result = []
        errors: dict[int, Any] = {}
        for index, each in enumerate(value):
            try:
                result.append(inner(each))
            except InvalidInput as error:
                errors[index] = error.messages
        if errors:
            raise InvalidInput(errors)
        return result


class Dict(Field):
    """An object whose keys and values the given fields load (either may be None: kept as is)."""

    default_error_messages = {"invalid": "Not a valid mapping type."}

    def __init__(self, keys: Field | None = None, values: Field | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.key_field = keys
        self.value_field = values

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None) -> dict[Any, Any]:
        if not isinstance(value, Mapping):
            raise self.make_error("invalid")
        if self.key_field is None and self.value_field is None:
            return dict(value)
        errors: dict[Any, dict[str, Any]] = {}
        if self.key_field is None:
            keys = {key: key for key in value}
        else:
            keys = {}
            for key in value:
                try:
                    keys[key] = self.key_field.deserialize(key)
                except InvalidInput as error:
                    errors.setdefault(key, {})["key"] = error.messages
        result = {}
        if self.value_field is None:
            for key, each in value.items():
                if key in keys:
                    result[keys[key]] = each
        else:
            for key, each in value.items():
                try:
                    loaded = self.value_field.deserialize(each)
                except InvalidInput as error:
                    errors.setdefault(key, {})["value"] = error.messages
                else:
                    if key in keys:
                        result[keys[key]] = loaded
        if errors:
            raise InvalidInput(errors)
        return result


class Nested(Field):
    """An object loaded by another shape (a class of :class:`~service.rules.shapes.Schema`)."""

    def __init__(self, nested: type[Schema], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.nested = nested
        self.many = False
        self._schema: Schema | None = None

    @property
    def schema(self) -> Schema:
        """The nested shape (one instance, built on first use)."""
        if self._schema is None:
            self._schema = self.nested()
        return self._schema

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None) -> Any:
        return self.schema.load(value)
