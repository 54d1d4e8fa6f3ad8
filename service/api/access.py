"""The caller's credentials, read from the request: bearer tokens and API keys.

Who may do what is decided in service/usecases/access.py (re-exported here
for the views).
"""

from __future__ import annotations

import hmac

from flask import request

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
    require_gm,
    token_id,
)
from ..usecases.ports import Combats
from .environ import header as request_header


def bearer_token() -> str | None:
    header = request_header("Authorization") or ""
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


def check_api_key(api_keys: tuple[str, ...]) -> None:
    """With API_KEYS set, creating combats needs one of them."""
    if not api_keys:
        return
    offered = request.headers.get("X-API-Key") or bearer_token() or ""
    if not any(hmac.compare_digest(offered, key) for key in api_keys):
        raise AccessDenied(401, "creating a combat on this deployment needs an API key (X-API-Key header)")
