"""A combatant who joins a running fight (the GM's `join`) gets a player token.

Shown once, in the answer to the join, like the tokens of POST /combats; a
replayed join (Idempotency-Key) does not show it again: the GM mints another
with POST /combats/{id}/tokens.
"""

from __future__ import annotations

from .access import PLAYER_ROLE, Grant, digest, new_token
from .requests import store


def mint_for_newcomers(combat_id: str, before: dict, after: dict, result: dict) -> dict:
    known = {c["id"] for c in before["combatants"]}
    newcomers = [c["id"] for c in after["combatants"] if c["id"] not in known]
    if not newcomers:
        return result
    tokens = {}
    for combatant_id in newcomers:
        token = new_token()
        store().add_grant(combat_id, digest(token), Grant(PLAYER_ROLE, combatant_id).as_record())
        tokens[combatant_id] = token
    return {**result, "tokens": {"combatants": tokens}}
