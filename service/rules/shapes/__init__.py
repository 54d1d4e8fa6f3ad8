"""Shapes: the declarative input schemas of the rules core (sheets, options, actions).

A small kit written for the rules core, so that it depends on no
serialization library: the subset of marshmallow's declarations the rulesets
use, with the same names (``Schema``, ``fields.String``, ``validate.Range``,
``@validates_schema``, ``@post_load``...), the same loading rules (unknown
fields refused, ``load_default``, ``allow_none``, ``data_key``,
``attribute``, schema validators skipped after a field error, post-load hooks
chained) and the same error messages, nested the same way: a refusal raises
:class:`~service.rules.errors.InvalidInput` whose ``messages`` is the dict
marshmallow produced (``{"weapons": {0: {"damage": ["..."]}}}``).

The HTTP layer turns shapes into marshmallow schemas to publish them in the
OpenAPI document (service/api/shapes.py); nothing here knows of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar, cast

from ..errors import InvalidInput
from . import fields, validate
from .fields import Field, missing

__all__ = ["InvalidInput", "Schema", "fields", "missing", "post_load", "validate", "validates_schema"]

SCHEMA = "_schema"
_HOOK = "__shape_hook__"
VALIDATES_SCHEMA, POST_LOAD = "validates_schema", "post_load"
INVALID_TYPE = "Invalid input type."
UNKNOWN = "Unknown field."

F = TypeVar("F", bound=Callable[..., Any])


def validates_schema(method: F) -> F:
    """Decorate a method ``(self, data, **kwargs)`` that checks the loaded object as a whole.

    It runs only when every field loaded; raising ``InvalidInput(message, field)``
    refuses the input with the message under that field (``_schema`` when none).
    """
    setattr(method, _HOOK, VALIDATES_SCHEMA)
    return method


def post_load(method: F) -> F:
    """Decorate a method ``(self, data, **kwargs)`` that returns the loaded object completed (catalog merges...)."""
    setattr(method, _HOOK, POST_LOAD)
    return method


def merge_errors(errors1: Any, errors2: Any) -> Any:
    """Deeply merge two error structures (marshmallow's rules: lists add up, dicts merge by key)."""
    if not errors1:
        return errors2
    if not errors2:
        return errors1
    if isinstance(errors1, list):
        if isinstance(errors2, list):
            errors1.extend(errors2)
            return errors1
        if isinstance(errors2, dict):
            errors2[SCHEMA] = merge_errors(errors1, errors2.get(SCHEMA))
            return errors2
        errors1.append(errors2)
        return errors1
    if isinstance(errors1, dict):
        if isinstance(errors2, dict):
            for key, value in errors2.items():
                errors1[key] = merge_errors(errors1[key], value) if key in errors1 else value
            return errors1
        errors1[SCHEMA] = merge_errors(errors1.get(SCHEMA), errors2)
        return errors1
    if isinstance(errors2, list):
        return [errors1, *errors2]
    if isinstance(errors2, dict):
        errors2[SCHEMA] = merge_errors(errors1, errors2.get(SCHEMA))
        return errors2
    return [errors1, errors2]


def _store(errors: dict[Any, Any], messages: Any, field_name: str = SCHEMA) -> dict[Any, Any]:
    if field_name != SCHEMA or not isinstance(messages, dict):
        messages = {field_name: messages}
    merged: dict[Any, Any] = merge_errors(errors, messages)
    return merged


class SchemaMeta(type):
    """Collects a shape's fields and hooks once, when the class is made."""

    def __new__(mcs, name: str, bases: tuple[type, ...], attrs: dict[str, Any]) -> SchemaMeta:
        own = {key: value for key, value in attrs.items() if isinstance(value, Field)}
        for key in own:  # fields live in _declared_fields, not as class attributes
            del attrs[key]
        attrs["_own_fields"] = own
        klass = super().__new__(mcs, name, bases, attrs)
        inherited: list[tuple[str, Field]] = []
        for base in klass.__mro__[:0:-1]:
            source = base.__dict__.get("_declared_fields", {})
            inherited += list(source.items())
        declared = dict(inherited + list(own.items()))
        klass._declared_fields = declared  # type: ignore[attr-defined]
        klass._plan = tuple(  # type: ignore[attr-defined]
            (field.data_key if field.data_key is not None else key, field.attribute or key, field)
            for key, field in declared.items()
        )
        klass._data_keys = frozenset(entry[0] for entry in klass._plan)  # type: ignore[attr-defined]
        hooks: dict[str, list[str]] = {VALIDATES_SCHEMA: [], POST_LOAD: []}
        for attr_name in dir(klass):  # sorted by name, as marshmallow resolves its hooks
            for parent in klass.__mro__:
                if attr_name in parent.__dict__:
                    kind = getattr(parent.__dict__[attr_name], _HOOK, None)
                    if kind is not None:
                        hooks[kind].append(attr_name)
                    break
        klass._validators = tuple(hooks[VALIDATES_SCHEMA])  # type: ignore[attr-defined]
        klass._post_loads = tuple(hooks[POST_LOAD])  # type: ignore[attr-defined]
        return klass


class Schema(metaclass=SchemaMeta):
    """An object shape: declare fields as class attributes, load JSON with :meth:`load`.

    Loading keeps no state on the instance: one instance serves every call.
    """

    _declared_fields: ClassVar[dict[str, Field]]
    _plan: ClassVar[tuple[tuple[str, str, Field], ...]]
    _data_keys: ClassVar[frozenset[str]]
    _validators: ClassVar[tuple[str, ...]]
    _post_loads: ClassVar[tuple[str, ...]]

    @property
    def fields(self) -> dict[str, Field]:
        """Attribute name -> field, in declaration order (bases first)."""
        return self._declared_fields

    @classmethod
    def from_dict(cls, fields: Mapping[str, Field], *, name: str = "GeneratedSchema") -> type[Schema]:
        """A shape class made of ``fields`` (marshmallow's ``Schema.from_dict``)."""
        return cast("type[Schema]", SchemaMeta(name, (cls,), {**fields, "__module__": cls.__module__}))

    def load(self, data: Any) -> Any:
        """The loaded object, or :class:`InvalidInput` carrying every error found, nested by field."""
        errors: dict[Any, Any] = {}
        result: dict[str, Any] = {}
        if not isinstance(data, Mapping):
            raise InvalidInput({SCHEMA: [INVALID_TYPE]})
        get = data.get
        for key, attribute, field in self._plan:
            try:
                value = field.deserialize(get(key, missing), key, data)
            except InvalidInput as error:
                errors = _store(errors, error.messages, key)
                continue
            if value is not missing:
                result[attribute] = value
        if not data.keys() <= self._data_keys:
            for key in set(data) - self._data_keys:
                errors = _store(errors, [UNKNOWN], key)
        if self._validators and not errors:
            for name in self._validators:
                try:
                    getattr(self, name)(result)
                except InvalidInput as error:
                    errors = _store(errors, error.messages, self._data_key(error.field_name))
        if errors:
            raise InvalidInput(errors)
        for name in self._post_loads:
            try:
                result = getattr(self, name)(result)
            except InvalidInput as error:
                raise InvalidInput(error.normalized_messages()) from None
        return result

    def _data_key(self, field_name: str) -> str:
        field = self._declared_fields.get(field_name)
        if field_name == SCHEMA or field is None or field.data_key is None:
            return field_name
        return field.data_key
