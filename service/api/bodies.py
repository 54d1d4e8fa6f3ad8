"""Every request body, checked once before any endpoint reads it.

A body must say it is JSON (``Content-Type: application/json``, or a
``+json`` type): anything else is a 415, so a cross-site "simple" POST
(text/plain, form types: no CORS preflight) can never act on a combat.
Then it must be JSON every later step can handle: nested at most
``MAX_DEPTH`` levels (the parsers and the store recurse), strings that UTF-8
can encode (a lone surrogate such as ``\\ud800`` cannot be stored), finite
numbers (``NaN``, ``1e400``) and integers that fit 64 bits. Each breach is a
400 problem saying which; the schemas then bound every value to what the
rules mean (docs/security.md). The document is parsed once: the view reads
it back with ``parsed_body``.
"""

from __future__ import annotations

import json
import math

import orjson
from flask import Flask, current_app
from werkzeug.exceptions import RequestEntityTooLarge

from ..proxied import current_g, current_request
from ..rules.errors import refusal
from .problems import problem

MAX_DEPTH = 32
# app.extensions[LARGER_BODIES]: path -> (the largest POST body it reads, the member such a body
# must have): POST /combats reads up to MAX_SNAPSHOT_BYTES for {"snapshot": ...}; any other body
# beyond MAX_BODY_BYTES is a 413 as anywhere else.
LARGER_BODIES = "melee.larger_bodies"
MAX_INTEGER = 2**63 - 1
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class UnusableJson(ValueError):
    """A body that is not JSON the service can handle; the message (``args[0]``, a refusal) says why."""


TOO_DEEP = refusal("the body nests more than {limit} levels of objects and arrays", limit=MAX_DEPTH)
TOO_BIG = refusal("an integer in the body is beyond ±{limit} (2^63 - 1)", limit=MAX_INTEGER)


def _refuse_constant(name: str):
    raise UnusableJson(refusal("{name} is not a number JSON allows", name=name))


class _Inexact(Exception):
    """orjson read a number as a float: it may be an integer beyond 64 bits it rounded."""


def _check_tree(document, exact_numbers: bool = True) -> None:
    """Depth, strings, numbers: iteratively, so no depth makes this recurse.

    ``exact_numbers``: False when the parser may have read a large integer as
    a float (orjson): a float then raises _Inexact."""
    pending = [(document, 1)]
    while pending:
        node, depth = pending.pop()
        if isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                raise UnusableJson(TOO_DEEP)
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
            raise UnusableJson(TOO_BIG)
        elif isinstance(node, float):
            if not exact_numbers:
                raise _Inexact()
            if not math.isfinite(node):
                raise UnusableJson(refusal("a number in the body is too large to be finite"))


def _check_string(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnusableJson(
            refusal("a string in the body holds a lone UTF-16 surrogate (such as \\ud800), which is not text")
        ) from None


def parse(data: bytes):
    """The JSON document in ``data``; UnusableJson when the service could not handle it.

    orjson reads it, unless it holds a float (orjson reads an integer beyond
    64 bits as one) or is no JSON orjson reads: then the standard library,
    whose errors name the line and column."""
    try:
        document = orjson.loads(data)
        _check_tree(document, exact_numbers=False)
        return document
    except (orjson.JSONDecodeError, _Inexact):
        pass
    try:
        document = json.loads(data, parse_constant=_refuse_constant)
    except UnusableJson:
        raise
    except RecursionError:
        raise UnusableJson(TOO_DEEP) from None
    except UnicodeDecodeError:
        raise UnusableJson(refusal("the body is not UTF-8 text")) from None
    except json.JSONDecodeError as error:
        raise UnusableJson(
            refusal(
                "the body is not valid JSON: {reason} (line {line}, column {column})",
                reason=error.msg,
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except ValueError:
        # Python refuses to convert integers of more than 4,300 digits.
        raise UnusableJson(TOO_BIG) from None
    _check_tree(document)
    return document


def is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def check_body():
    """Before every endpoint: None to go on, or the problem that answers instead."""
    req = current_request()  # once, not through the proxy each time (proxied.py)
    if req.method not in BODY_METHODS:
        return None
    limit = req.max_content_length or math.inf
    larger = current_app.extensions.get(LARGER_BODIES, {}).get(req.path) if req.method == "POST" else None
    if larger is not None:
        req.max_content_length = larger[0]
    data = req.get_data(cache=True)  # a Content-Length over MAX_BODY_BYTES: 413
    if req.content_length is None and len(data) >= (req.max_content_length or math.inf):
        # A chunked body is read up to the limit and silently cut there:
        # one that reaches it is taken as too large.
        raise RequestEntityTooLarge()
    if not data:
        return None
    oversized = len(data) > limit  # only where a larger body may be read: then it must be the one allowed
    if oversized and not is_json(req.mimetype):
        _too_large(req)
    if not is_json(req.mimetype):
        sent = req.mimetype or "no Content-Type"
        return problem(
            415,
            "unsupported-media-type",
            refusal("Unsupported media type"),
            refusal("the body must be JSON sent as 'Content-Type: application/json', not {sent}", sent=sent),
        )
    try:
        document = parse(data)
    except UnusableJson as error:
        if oversized:
            _too_large(req)
        return unusable(error.args[0])
    if oversized and not (isinstance(document, dict) and larger is not None and larger[1] in document):
        _too_large(req)
    current_g().melee_body = (data, document)
    return None


def _too_large(req) -> None:
    """413, stating the service's own limit (not the larger one this path reads for its one kind of body)."""
    req.max_content_length = None
    raise RequestEntityTooLarge()


def parsed_body(data: bytes):
    """The request's document (``data``, its body), parsed by ``check_body`` before the view, or now."""
    parsed = current_g().pop("melee_body", None)
    if parsed is not None and parsed[0] is data:  # the very bytes check_body read (request.get_data caches them)
        return parsed[1]
    return parse(data)


def unusable(detail: str):
    """The 400 problem of a body that is not JSON the service can handle."""
    return problem(400, "invalid-json", refusal("Unusable JSON body"), detail)


def init_app(app: Flask) -> None:
    app.before_request(check_body)
