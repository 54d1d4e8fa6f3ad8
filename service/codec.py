"""JSON in and out: orjson, with the standard library for what orjson refuses.

Encoding and decoding the combat's state, its log entry and the answer were
the largest single cost of an action in Python's ``json`` (measured on 2026-11-29:
``git log -p -- docs/performance.md``);
orjson does the same work in a fraction of the time. What it writes is what
``json.dumps(value, separators=(",", ":"), ensure_ascii=False)`` writes, as
UTF-8 bytes: compact, keys in order, non-ASCII text as is; the only
differences: the spelling of some floats (``1e-05`` comes out as ``0.00001``,
the same number) and NaN or an infinity, which come out as ``null`` (the
standard library writes ``NaN``, which is not JSON). What orjson cannot
encode (a key that is not a string, an integer beyond 64 bits, a string with
a lone surrogate) is encoded by the standard library as before, and what it
cannot decode is decoded by it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import orjson


def dumps(value: Any, default: Callable[[Any], Any] | None = None, option: int | None = None) -> bytes:
    """Compact JSON as UTF-8 bytes (``default`` for objects JSON has no type for;
    ``option``: orjson's options)."""
    try:
        return orjson.dumps(value, default=default, option=option)
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=default).encode()


def dumps_text(value: Any, default: Callable[[Any], Any] | None = None, option: int | None = None) -> str:
    return dumps(value, default, option).decode()


def loads(data: bytes | bytearray | str) -> Any:
    """The document in ``data``; ``json.JSONDecodeError`` (a ``ValueError``) when it is not JSON."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)
