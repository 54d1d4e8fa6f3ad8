"""Small request helpers shared by the combat endpoints."""

from __future__ import annotations

from flask import abort, current_app
from marshmallow import ValidationError

from ..adapters.sealing import Sealing
from ..proxied import current_request
from ..rules.errors import refusal
from ..store import CombatStore
from .bodies import UnusableJson, parsed_body, unusable

SEALING = "melee.sealing"


def store() -> CombatStore:
    return current_app.extensions["melee.store"]


def sealing() -> Sealing:
    """The process's sealer (the Sealer port; its SnapshotSealer), built on first use
    from the settings and the store, which keeps a generated secret for every process."""
    found = current_app.extensions.get(SEALING)
    if found is None:
        settings = current_app.extensions["melee.settings"]
        found = current_app.extensions[SEALING] = Sealing(store(), settings.secret_key, settings.secret_key_fallbacks)
    return found


def json_body() -> dict:
    """The body as a JSON object: 400 `invalid-json` when it is not JSON at all, 422 when it is JSON but no object."""
    data = current_request().get_data(cache=True)
    if not data:
        # A body that is there was checked before the view (bodies.check_body); a missing one is no JSON either.
        abort(unusable(refusal("the body is empty: send a JSON object")))
    try:
        body = parsed_body(data)
    except UnusableJson as error:
        abort(unusable(error.args[0]))
    if not isinstance(body, dict):
        raise ValidationError({"_schema": [refusal("the request body must be a JSON object")]})
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
