"""The game master's tokens: list, mint, revoke.

Every one of them is the GM's: ``as_game_master`` authorizes first (the view
calls it before it even parses the body), then each use case works on the
combat it returned.
"""

from __future__ import annotations

from typing import Any

from .access import GM_ROLE, Grant, authorize, digest, new_token, require_gm, token_id
from .ports import CombatStore


class UnknownCombatant(Exception):
    """A player's token asked for a combatant the combat does not have (422)."""

    def __init__(self, combatant: object):
        super().__init__(f"there is no combatant {combatant!r}")
        self.combatant = combatant


class TokenNotFound(Exception):
    """No token of the combat has this public id (404)."""


class LastGameMasterToken(Exception):
    """Revoking it would leave the combat without a game master (409)."""


def as_game_master(combats: CombatStore, combat_id: str, token: str | None) -> dict[str, Any]:
    """The combat, for its GM only (AccessDenied otherwise)."""
    state, grant = authorize(combats, combat_id, token)
    require_gm(grant, "managing tokens")
    return state


def described(token_digest: str, record: dict[str, Any]) -> dict[str, Any]:
    return {"id": token_id(token_digest), "role": record["role"], "combatant": record.get("combatant")}


def list_tokens(combats: CombatStore, combat_id: str) -> list[dict[str, Any]]:
    return [described(d, record) for d, record in sorted(combats.grants(combat_id).items())]


def mint(combats: CombatStore, combat: dict[str, Any], role: str, combatant: str | None) -> dict[str, Any]:
    """A new token for the GM or a combatant's player: its description and the token, shown once."""
    if role == GM_ROLE:
        combatant = None
    elif combatant not in {c["id"] for c in combat["combatants"]}:
        raise UnknownCombatant(combatant)
    token = new_token()
    record = Grant(role, combatant).as_record()
    combats.add_grant(combat["id"], digest(token), record)
    return {**described(digest(token), record), "token": token}


def revoke(combats: CombatStore, combat_id: str, token_ref: str) -> None:
    grants = combats.grants(combat_id)
    matching = [d for d in grants if token_id(d) == token_ref]
    if not matching:
        raise TokenNotFound(token_ref)
    gm_tokens = [d for d, record in grants.items() if record["role"] == GM_ROLE]
    if matching[0] in gm_tokens and len(gm_tokens) == 1:
        raise LastGameMasterToken()
    combats.remove_grant(combat_id, matching[0])
