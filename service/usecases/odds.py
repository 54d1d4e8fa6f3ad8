"""Who may ask for the odds of an action: the computation itself is
service/rules/odds/, run by the view under the process's CPU budget."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from ..rules.registry import get_ruleset
from .access import AccessDenied, Grant, authorize, require_actor
from .ports import Combats


def authorize_odds(combats: Combats, combat_id: str, token: str | None, action: Mapping[str, Any]) -> tuple[dict[str, Any], Grant]:
    """The combat and the caller's grant, if the caller may ask for the odds of ``action``."""
    state, grant = authorize(combats, combat_id, token)
    require_actor(grant, action, get_ruleset(state["ruleset"]).gm_actions)
    hidden = set(state.get("hidden_sheets", ())) - {grant.combatant}
    if hidden and not grant.is_gm:
        # Odds are computed from every sheet: they would tell a player what
        # the GM hides (docs/security.md).
        raise AccessDenied(403, f"the game master hides the sheets of {', '.join(sorted(hidden))}: only the GM may ask for odds here")
    return state, grant
