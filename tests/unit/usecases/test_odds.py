"""Who may ask for the odds of an action, and under which budget (the odds themselves: tests/unit/odds/)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from service.usecases.access import AccessDenied
from service.usecases.odds import OddsAsked, authorize_odds, odds_of

from .conftest import COMBAT_ID

PASS = {"type": "pass", "actor": "ana"}


def test_a_player_asks_for_its_own_combatant_only(combats, shown):
    ana = shown["combatants"]["ana"]
    state, grant = authorize_odds(combats, COMBAT_ID, ana, PASS)
    assert grant.combatant == "ana" and state["id"] == COMBAT_ID
    with pytest.raises(AccessDenied) as denied:
        authorize_odds(combats, COMBAT_ID, ana, {**PASS, "actor": "capanga"})
    assert denied.value.status == 403 and denied.value.field == "actor"


def test_while_the_gm_hides_sheets_only_the_gm_asks(combats, shown):
    combats.states[COMBAT_ID][-1]["hidden_sheets"] = ["capanga"]
    with pytest.raises(AccessDenied, match="hides the sheets of capanga"):
        authorize_odds(combats, COMBAT_ID, shown["combatants"]["ana"], PASS)
    assert authorize_odds(combats, COMBAT_ID, shown["gm"], PASS)[1].is_gm


class Compute:
    """Counts the budget taken; runs the computation here."""

    def __init__(self):
        self.charged = 0

    @contextmanager
    def limited(self, cost):
        self.charged += 1
        self.cost = cost
        yield

    def run(self, function, *args, **kwargs):
        return function(*args, **kwargs)


ATTACK = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola"}


def test_the_odds_are_computed_under_the_budget_and_change_nothing(combats, shown):
    compute = Compute()
    before = combats.load_with_grant(COMBAT_ID, None)[0]
    answer = odds_of(combats, COMBAT_ID, shown["combatants"]["ana"], OddsAsked(ATTACK, method="exact"), compute)
    assert compute.charged == 1 and answer["method"] == "exact"
    # Exact fractions of the dice tree (tests/unit/odds/ checks the enumeration itself).
    assert {o["outcome"]: o["fraction"] for o in answer["outcomes"]} == {
        "hit": "115/144",
        "miss": "25/144",
        "critical hit": "1/54",
        "critical hit, dying": "1/108",
    }
    assert combats.load_with_grant(COMBAT_ID, None)[0] == before and len(combats.logs[COMBAT_ID]) == 1


def test_a_refused_caller_is_charged_nothing(combats, shown):
    compute = Compute()
    with pytest.raises(AccessDenied):
        odds_of(combats, COMBAT_ID, shown["combatants"]["ana"], OddsAsked({**ATTACK, "actor": "capanga"}), compute)
    assert compute.charged == 0


class Recorded(Compute):
    """Records what the computation would be run with, without running it."""

    def run(self, function, *args, **kwargs):
        self.kwargs = kwargs
        return {}


def test_a_larger_combat_gets_fewer_runs_and_is_charged_by_its_size(combats, shown):
    # 50 combatants: each run copies and checks the whole combat, 5 times the work of a pair
    # (usecases/budget.py branch_weight: 1 + 48 / 12), so at most 10,000 / 5 runs and leaves.
    state = combats.states[COMBAT_ID][-1]
    state["combatants"] = state["combatants"] + [
        {**state["combatants"][1], "id": f"extra{i}"} for i in range(50 - len(state["combatants"]))
    ]
    compute = Recorded()
    odds_of(combats, COMBAT_ID, shown["gm"], OddsAsked(ATTACK, method="monte_carlo", runs=10_000), compute)
    assert compute.kwargs["runs"] == 2_000 and compute.kwargs["max_leaves"] == 2_000
    assert compute.cost == 10_000  # 2,000 runs × 5 (the flat cost charged 10,000 for 10,000 runs)
    compute = Recorded()
    odds_of(combats, COMBAT_ID, shown["gm"], OddsAsked(ATTACK, method="monte_carlo", runs=1_000), compute)
    assert compute.kwargs["runs"] == 1_000 and compute.cost == 5_000
