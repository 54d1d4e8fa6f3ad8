"""The game master's tokens: list, mint, revoke.

Every one of them is the GM's: each use case authorizes the caller first
(``as_game_master``: CombatNotFound 404, AccessDenied 401 or 403) and only
then does its work; ``mint`` reads what is asked only once the caller is
known to be the GM, so a refused caller is refused before the body is read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..rules.errors import refusal
from .access import GM_ROLE, Grant, authorize, digest, new_token, require_gm, token_id
from .ports import CombatStore

# What is asked of ``mint``: the role, and the combatant of a player's token.
Asked = Callable[[], tuple[str, str | None]]


class UnknownCombatant(Exception):
    """A player's token asked for a combatant the combat does not have (422)."""

    def __init__(self, combatant: object):
        self.detail = refusal("there is no combatant {combatant}", combatant=repr(combatant))
        super().__init__(self.detail)
        self.combatant = combatant


class TokenNotFound(Exception):
    """No token of the combat has this public id (404)."""


class LastGameMasterToken(Exception):
    """Revoking it would leave the combat without a game master (409)."""


def as_game_master(combats: CombatStore, combat_id: str, token: str | None) -> dict[str, Any]:
    """The combat, for its GM only (AccessDenied otherwise)."""
    state, grant = authorize(combats, combat_id, token)
    require_gm(grant, refusal("managing tokens needs the game master's token"))
    return state


def described(token_digest: str, record: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": token_id(token_digest), "role": record["role"], "combatant": record.get("combatant")}


def list_tokens(combats: CombatStore, combat_id: str, token: str | None) -> list[dict[str, Any]]:
    """Each token's public id and role, for the GM (never the tokens)."""
    as_game_master(combats, combat_id, token)
    return [described(d, record) for d, record in sorted(combats.grants(combat_id).items())]


def mint(combats: CombatStore, combat_id: str, token: str | None, asked: Asked) -> dict[str, Any]:
    """A new token for the GM or a combatant's player: its description and the
    token, shown once. ``asked()`` gives the role and combatant asked for; it
    is called once the caller is known to be the GM."""
    combat = as_game_master(combats, combat_id, token)
    role, combatant = asked()
    if role == GM_ROLE:
        combatant = None
    elif combatant not in {c["id"] for c in combat["combatants"]}:
        raise UnknownCombatant(combatant)
    minted = new_token()
    record = Grant(role, combatant).as_record()
    combats.add_grant(combat_id, digest(minted), record)
    return {**described(digest(minted), record), "token": minted}


def revoke(combats: CombatStore, combat_id: str, token: str | None, token_ref: str) -> None:
    """The GM revokes the token named ``token_ref`` (its public id)."""
    as_game_master(combats, combat_id, token)
    grants = combats.grants(combat_id)
    matching = [d for d in grants if token_id(d) == token_ref]
    if not matching:
        raise TokenNotFound(token_ref)
    gm_tokens = [d for d, record in grants.items() if record["role"] == GM_ROLE]
    if matching[0] in gm_tokens and len(gm_tokens) == 1:
        raise LastGameMasterToken()
    combats.remove_grant(combat_id, matching[0])
