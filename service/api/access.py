"""The caller's credentials, read from the request: bearer tokens and API keys.

Who may do what is decided in service/usecases/access.py (re-exported here
for the views).
"""

from __future__ import annotations

from functools import wraps

from flask import current_app, request

from ..proxied import current_request
from ..usecases.access import (  # noqa: F401  (re-exported for the views)
    GM_ROLE,
    PLAYER_ROLE,
    AccessDenied,
    Grant,
    authorize,
    digest,
    mint_creation_tokens,
    new_token,
    require_actor,
    require_api_key,
    require_gm,
    token_id,
)
from ..usecases.ports import Combats


def bearer_token() -> str | None:
    header = current_request().headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def load_authorized(store: Combats, combat_id: str, token: str | None = None) -> tuple[dict, Grant]:
    """The combat and the caller's grant; AccessDenied without a valid token.

    ``token``: one the caller found elsewhere than the Authorization header
    (the event stream's ``access_token`` query parameter).
    """
    return authorize(store, combat_id, token or bearer_token())


def api_key_required(view):
    """Declares a route that creates (a combat, a simulation): before the view runs,
    ``require_api_key`` decides on the deployment's API_KEYS and the key offered
    (X-API-Key, else the bearer token). Put it right above the view's ``def``:
    it then runs after flask-smorest parsed the body, as the view's first step."""

    @wraps(view)
    def checked(*args, **kwargs):
        require_api_key(
            current_app.extensions["melee.settings"].api_keys, request.headers.get("X-API-Key") or bearer_token()
        )
        return view(*args, **kwargs)

    return checked
