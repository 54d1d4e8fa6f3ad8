"""Every request body, checked once before any endpoint reads it.

A body must say it is JSON (``Content-Type: application/json``, or a
``+json`` type): anything else is a 415, so a cross-site "simple" POST
(text/plain, form types: no CORS preflight) can never act on a combat.
Then it must be JSON every later step can handle: nested at most
``MAX_DEPTH`` levels (the parsers and the store recurse), strings that UTF-8
can encode (a lone surrogate such as ``\\ud800`` cannot be stored), finite
numbers (``NaN``, ``1e400``) and integers that fit 64 bits. Each breach is a
400 problem saying which; the schemas then bound every value to what the
rules mean (docs/security.md).
"""

from __future__ import annotations

import json
import math

from flask import Flask, request
from werkzeug.exceptions import RequestEntityTooLarge

from .problems import problem

MAX_DEPTH = 32
MAX_INTEGER = 2**63 - 1
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class UnusableJson(ValueError):
    """A body that is not JSON the service can handle; the message says why."""


def _refuse_constant(name: str):
    raise UnusableJson(f"{name} is not a number JSON allows")


def _check_tree(document) -> None:
    """Depth, strings, numbers: iteratively, so no depth makes this recurse."""
    pending = [(document, 1)]
    while pending:
        node, depth = pending.pop()
        if isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                raise UnusableJson(f"the body nests more than {MAX_DEPTH} levels of objects and arrays")
            children = node.items() if isinstance(node, dict) else enumerate(node)
            for key, value in children:
                if isinstance(key, str):
                    _check_string(key)
                pending.append((value, depth + 1))
        elif isinstance(node, str):
            _check_string(node)
        elif isinstance(node, bool):
            continue
        elif isinstance(node, int) and abs(node) > MAX_INTEGER:
            raise UnusableJson(f"an integer in the body is beyond ±{MAX_INTEGER} (2^63 - 1)")
        elif isinstance(node, float) and not math.isfinite(node):
            raise UnusableJson("a number in the body is too large to be finite")


def _check_string(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnusableJson(
            "a string in the body holds a lone UTF-16 surrogate (such as \\ud800), which is not text"
        ) from None


def parse(data: bytes):
    """The JSON document in ``data``; UnusableJson when the service could not handle it."""
    try:
        document = json.loads(data, parse_constant=_refuse_constant)
    except UnusableJson:
        raise
    except RecursionError:
        raise UnusableJson(f"the body nests more than {MAX_DEPTH} levels of objects and arrays") from None
    except UnicodeDecodeError:
        raise UnusableJson("the body is not UTF-8 text") from None
    except json.JSONDecodeError as error:
        raise UnusableJson(
            f"the body is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except ValueError:
        # Python refuses to convert integers of more than 4,300 digits.
        raise UnusableJson(f"an integer in the body is beyond ±{MAX_INTEGER} (2^63 - 1)") from None
    _check_tree(document)
    return document


def is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def check_body():
    """Before every endpoint: None to go on, or the problem that answers instead."""
    if request.method not in BODY_METHODS:
        return None
    data = request.get_data(cache=True)  # a Content-Length over MAX_BODY_BYTES: 413
    if request.content_length is None and len(data) >= (request.max_content_length or math.inf):
        # A chunked body is read up to the limit and silently cut there:
        # one that reaches it is taken as too large.
        raise RequestEntityTooLarge()
    if not data:
        return None
    if not is_json(request.mimetype):
        sent = request.mimetype or "no Content-Type"
        return problem(
            415,
            "unsupported-media-type",
            "Unsupported media type",
            f"the body must be JSON sent as 'Content-Type: application/json', not {sent}",
        )
    try:
        parse(data)
    except UnusableJson as error:
        return unusable(str(error))
    return None


def unusable(detail: str):
    """The 400 problem of a body that is not JSON the service can handle."""
    return problem(400, "invalid-json", "Unusable JSON body", detail)


def init_app(app: Flask) -> None:
    app.before_request(check_body)
