"""Who may ask for the odds of an action (the odds themselves: tests/unit/odds/)."""

from __future__ import annotations

import pytest

from service.usecases.access import AccessDenied
from service.usecases.odds import authorize_odds

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
