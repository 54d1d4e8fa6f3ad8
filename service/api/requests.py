"""Small request helpers shared by the combat endpoints."""

from __future__ import annotations

import json

from flask import current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import BadRequest

from ..store import CombatStore
from ..usecases import actions


def store() -> CombatStore:
    return current_app.extensions["melee.store"]


def json_body() -> dict:
    """The body as a JSON object: 400 when it is not JSON at all, 422 when it is JSON but no object."""
    raw = request.get_data(cache=True)
    try:
        body = json.loads(raw) if raw.strip() else None  # no body at all: no object either
    except ValueError as error:
        raise BadRequest(f"the request body is not valid JSON: {error}") from error
    if not isinstance(body, dict):
        raise ValidationError({"_schema": ["the request body must be a JSON object"]})
    return body


def stamp_expiry(state: dict) -> None:
    actions.stamp_expiry(state, store().ttl_seconds)


def if_match() -> int | None:
    """The version named by If-Match; None when absent or '*'; -1 when it names none.

    If-Match compares strongly (RFC 9110, 13.1.1): a weak tag (W/"3") never matches.
    """
    header = request.headers.get("If-Match")
    if not header or header.strip() == "*":
        return None
    tag = header.strip()
    if tag.startswith("W/"):
        return -1
    version = tag.strip('"')
    return int(version) if version.isascii() and version.isdigit() and len(version) <= 16 else -1
