"""The GM's tokens and the deletion, as use cases on the in-memory store."""

from __future__ import annotations

import pytest

from service.store import CombatNotFound
from service.usecases import actions, tokens
from service.usecases.access import AccessDenied, authorize

from .conftest import COMBAT_ID


def test_only_the_gm_manages_tokens(combats, shown):
    with pytest.raises(AccessDenied) as denied:
        tokens.as_game_master(combats, COMBAT_ID, shown["combatants"]["ana"])
    assert denied.value.status == 403
    assert tokens.as_game_master(combats, COMBAT_ID, shown["gm"])["id"] == COMBAT_ID


def test_a_minted_token_opens_the_combat_for_its_combatant_and_is_listed(combats, shown):
    combat = tokens.as_game_master(combats, COMBAT_ID, shown["gm"])
    minted = tokens.mint(combats, combat, "player", "ana")
    assert authorize(combats, COMBAT_ID, minted["token"])[1].combatant == "ana"
    listed = tokens.list_tokens(combats, COMBAT_ID)
    assert {"id": minted["id"], "role": "player", "combatant": "ana"} in listed
    assert len(listed) == len(shown["combatants"]) + 2  # the GM's, each player's, and the new one


def test_a_token_for_no_such_combatant_is_refused_and_grants_nothing(combats, shown):
    combat = tokens.as_game_master(combats, COMBAT_ID, shown["gm"])
    before = tokens.list_tokens(combats, COMBAT_ID)
    with pytest.raises(tokens.UnknownCombatant, match="'zed'"):
        tokens.mint(combats, combat, "player", "zed")
    assert tokens.list_tokens(combats, COMBAT_ID) == before


def test_the_last_gm_token_cannot_be_revoked_but_a_second_one_can(combats, shown):
    gm_id = next(t["id"] for t in tokens.list_tokens(combats, COMBAT_ID) if t["role"] == "gm")
    with pytest.raises(tokens.LastGameMasterToken):
        tokens.revoke(combats, COMBAT_ID, gm_id)
    combat = tokens.as_game_master(combats, COMBAT_ID, shown["gm"])
    second = tokens.mint(combats, combat, "gm", "ana")
    assert second["combatant"] is None, "a GM token acts for no one combatant"
    tokens.revoke(combats, COMBAT_ID, gm_id)
    with pytest.raises(AccessDenied):
        authorize(combats, COMBAT_ID, shown["gm"])
    with pytest.raises(tokens.TokenNotFound):
        tokens.revoke(combats, COMBAT_ID, gm_id)


def test_only_the_gm_deletes_and_then_the_combat_is_gone(combats, shown):
    with pytest.raises(AccessDenied):
        actions.delete(combats, COMBAT_ID, shown["combatants"]["ana"])
    actions.delete(combats, COMBAT_ID, shown["gm"])
    with pytest.raises(CombatNotFound):
        actions.delete(combats, COMBAT_ID, shown["gm"])
