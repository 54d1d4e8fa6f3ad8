"""Small request helpers shared by the combat endpoints."""

from __future__ import annotations

from flask import abort, current_app
from marshmallow import ValidationError

from ..proxied import current_request
from ..store import CombatStore
from .bodies import UnusableJson, parsed_body, unusable


def store() -> CombatStore:
    return current_app.extensions["melee.store"]


def json_body() -> dict:
    """The body as a JSON object: 400 `invalid-json` when it is not JSON at all, 422 when it is JSON but no object."""
    data = current_request().get_data(cache=True)
    if not data:
        # A body that is there was checked before the view (bodies.check_body); a missing one is no JSON either.
        abort(unusable("the body is empty: send a JSON object"))
    try:
        body = parsed_body(data)
    except UnusableJson as error:
        abort(unusable(str(error)))
    if not isinstance(body, dict):
        raise ValidationError({"_schema": ["the request body must be a JSON object"]})
    return body


def if_match() -> int | None:
    """The version named by If-Match; None when absent or '*'; -1 when it names none.

    If-Match compares strongly (RFC 9110, 13.1.1): a weak tag (W/"3") never matches.
    """
    header = current_request().headers.get("If-Match")
    if not header or header.strip() == "*":
        return None
    tag = header.strip()
    if tag.startswith("W/"):
        return -1
    version = tag.strip('"')
    return int(version) if version.isascii() and version.isdigit() and len(version) <= 16 else -1
