"""The odds of an action before it is rolled: who may ask, and the
computation (service/rules/odds/) run under the caller's CPU budget
(``Compute``). Nothing is written: the combat, its log and its dice are only read."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..rules.errors import refusal
from ..rules.odds.compute import AUTO, odds
from ..rules.registry import get_ruleset
from . import budget
from .access import AccessDenied, Grant, authorize, require_actor
from .ports import Combats, Compute


@dataclass(frozen=True)
class OddsAsked:
    """The action and the answers to assume after it; how to compute (``method``,
    Monte Carlo ``runs`` and ``seed``, the largest dice tree ``max_leaves``)."""

    action: dict[str, Any]
    answers: list[dict[str, Any]] = field(default_factory=list)
    method: str = AUTO
    runs: int = 5_000
    seed: int = 0
    max_leaves: int = 10_000


def authorize_odds(
    combats: Combats, combat_id: str, token: str | None, action: Mapping[str, Any]
) -> tuple[dict[str, Any], Grant]:
    """The combat and the caller's grant, if the caller may ask for the odds of ``action``."""
    state, grant = authorize(combats, combat_id, token)
    require_actor(grant, action, get_ruleset(state["ruleset"]).gm_actions)
    hidden = set(state.get("hidden_sheets", ())) - {grant.combatant}
    if hidden and not grant.is_gm:
        # Odds are computed from every sheet: they would tell a player what
        # the GM hides (docs/security.md).
        raise AccessDenied(
            403,
            refusal(
                "the game master hides the sheets of {hidden}: only the GM may ask for odds here",
                hidden=", ".join(sorted(hidden)),
            ),
            lang=grant.lang,
        )
    return state, grant


def odds_of(combats: Combats, combat_id: str, token: str | None, asked: OddsAsked, compute: Compute) -> dict[str, Any]:
    """The odds of ``asked.action`` as the caller may compute them (authorized
    first: a refused caller is charged nothing).

    A larger combat makes every branch dearer: the runs and leaves are capped
    at ``budget.ODDS_MAX_UNITS`` weighted (the answer says how many runs it
    made), and the client is charged the weighted branches (usecases/budget.py)."""
    state, grant = authorize_odds(combats, combat_id, token, asked.action)
    combatants = len(state["combatants"])
    runs = budget.odds_branches(asked.runs, combatants)
    leaves = budget.odds_branches(asked.max_leaves, combatants)
    with compute.limited(budget.odds_cost(asked.method, runs, leaves, combatants)):
        return compute.run(
            odds,
            state,
            asked.action,
            grant.viewer,
            answers=asked.answers,
            method=asked.method,
            runs=runs,
            seed=asked.seed,
            max_leaves=leaves,
        )
