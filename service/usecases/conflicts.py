"""One conflict policy for every write to a combat (act, undo, redo).

- With If-Match naming another version than the stored one: ``Stale`` (412),
  before anything is computed, or when another writer commits first.
- Without If-Match: a lost compare-and-set is resolved again on the new
  state, after a jittered wait (retry.py); when other writers keep winning
  for the whole budget: ``ConflictPersisted`` (409, Retry-After).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from . import retry
from .port_errors import VersionConflict

Loaded = TypeVar("Loaded")
Result = TypeVar("Result")


class Stale(Exception):
    """If-Match named another version than the combat's ``current``."""

    def __init__(self, current: int):
        super().__init__(f"If-Match names another version; the combat is at version {current}")
        self.current = current


class ConflictPersisted(Exception):
    """Other writers kept committing first for the whole retry budget."""


def write_with_retries(
    load: Callable[[], tuple[int, Loaded]],
    write: Callable[[Loaded], Result],
    expected_version: int | None,
) -> Result:
    """``load()`` gives the stored version and what ``write`` needs;
    ``write(loaded)`` computes and commits (VersionConflict when it lost the race)."""
    waits = retry.conflict_waits()
    while True:
        version, loaded = load()
        if expected_version is not None and expected_version != version:
            raise Stale(version)
        try:
            return write(loaded)
        except VersionConflict as conflict:
            if expected_version is not None:
                raise Stale(conflict.current) from conflict
            if (wait := next(waits, None)) is None:
                raise ConflictPersisted() from conflict
            retry.sleep(wait)
