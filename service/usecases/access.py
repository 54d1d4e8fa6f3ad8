"""Who may do what to a combat: bearer tokens, one per role.

``POST /combats`` answers, once, with a game-master token and one token per
combatant. Tokens are 192 random bits; the store keeps only their SHA-256
digests (a creation retried with an Idempotency-Key shows them again from a
sealed record: service/adapters/sealing.py). A player's token acts for its own
combatant only; game-master actions, token management and deletion need the
GM's token; every read is filtered for the caller.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.errors import refusal
from ..rules.viewer import GM_VIEWER, Viewer
from .ports import Combats

GM_ROLE, PLAYER_ROLE = "gm", "player"
TOKEN_BYTES = 24


class AccessDenied(Exception):
    """401 (no or unknown token) or 403 (a token without the right)."""

    def __init__(self, status: int, detail: str, field: str | None = None, lang: str | None = None):
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.field = field  # the request field to blame, if one is
        # The language of the combat refused, when known: what the API says the refusal in
        # when the reader's Accept-Language names none it speaks.
        self.lang = lang


@dataclass(frozen=True, slots=True)
class Grant:
    role: str
    combatant: str | None = None
    # The language of the combat it opens (not stored with the grant): a refusal's, without Accept-Language.
    lang: str | None = field(default=None, compare=False)

    @property
    def is_gm(self) -> bool:
        return self.role == GM_ROLE

    @property
    def viewer(self) -> Viewer:
        return GM_VIEWER if self.is_gm else Viewer(combatant=self.combatant)

    def as_record(self) -> dict[str, Any]:
        return {"role": self.role, "combatant": self.combatant}


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_id(token_digest: str) -> str:
    """A public name for a token (to list and revoke it), not the token."""
    return token_digest[:16]


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def mint_creation_tokens(combatant_ids: list[str]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The tokens to show once, and the grants to store (by digest)."""
    gm = new_token()
    players = {cid: new_token() for cid in combatant_ids}
    grants = {digest(gm): Grant(GM_ROLE).as_record()}
    grants.update({digest(token): Grant(PLAYER_ROLE, cid).as_record() for cid, token in players.items()})
    return {"gm": gm, "combatants": players}, grants


def authorize(combats: Combats, combat_id: str, token: str | None) -> tuple[dict[str, Any], Grant]:
    """The combat and the caller's grant; AccessDenied without a valid token."""
    state, record = combats.load_with_grant(combat_id, digest(token) if token else None)
    if token is None:
        raise AccessDenied(
            401,
            refusal("this combat needs 'Authorization: Bearer <token>' (a token from POST /combats)"),
            lang=state.get("lang"),
        )
    if record is None:
        raise AccessDenied(
            401, refusal("this token does not open this combat (unknown or revoked)"), lang=state.get("lang")
        )
    return state, Grant(record["role"], record.get("combatant"), lang=state.get("lang"))


def require_api_key(api_keys: Sequence[str], offered: str | None) -> None:
    """With API keys set (API_KEYS), creating (a combat, a simulation) needs one of them: 401 otherwise."""
    if not api_keys:
        return
    # As bytes: compare_digest refuses str with non-ASCII characters (a header may carry them).
    offered_bytes = (offered or "").encode()
    if not any(hmac.compare_digest(offered_bytes, key.encode()) for key in api_keys):
        raise AccessDenied(401, refusal("creating a combat on this deployment needs an API key (X-API-Key header)"))


def require_gm(grant: Grant, refused: str) -> None:
    """AccessDenied (403, ``refused``: what needs the GM's token, in a sentence) unless the GM's."""
    if not grant.is_gm:
        raise AccessDenied(403, refused, lang=grant.lang)


def require_actor(grant: Grant, action: Mapping[str, Any], gm_actions: frozenset[str]) -> None:
    """A player's token acts only for its own combatant, never as the GM."""
    if grant.is_gm:
        return
    if action.get("type") in gm_actions:
        raise AccessDenied(
            403,
            refusal("'{type}' is a game-master action; it needs the GM's token", type=action.get("type")),
            field="type",
            lang=grant.lang,
        )
    if action.get("actor") != grant.combatant:
        raise AccessDenied(
            403,
            refusal(
                "this token acts for '{combatant_id}' only, not for '{actor_id}'",
                combatant_id=grant.combatant,
                actor_id=action.get("actor"),
            ),
            field="actor",
            lang=grant.lang,
        )
