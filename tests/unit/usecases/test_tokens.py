"""The GM's tokens and the deletion, as use cases on the in-memory store."""

from __future__ import annotations

import pytest

from service.usecases import actions, tokens
from service.usecases.access import AccessDenied, authorize
from service.usecases.port_errors import CombatNotFound

from .conftest import COMBAT_ID


def asking(role, combatant=None):
    return lambda: (role, combatant)


def never_asked():
    raise AssertionError("the body of a refused caller is never read")


@pytest.mark.parametrize(("who", "status"), [(None, 401), ("forged", 401), ("ana", 403)])
def test_each_use_case_refuses_a_caller_who_is_not_the_gm_and_changes_nothing(combats, shown, who, status):
    token = {"forged": "forged-token", "ana": shown["combatants"]["ana"]}.get(who)
    before = combats.grants(COMBAT_ID)
    gm_id = next(t["id"] for t in tokens.list_tokens(combats, COMBAT_ID, shown["gm"]) if t["role"] == "gm")
    refused = [
        lambda: tokens.list_tokens(combats, COMBAT_ID, token),
        lambda: tokens.mint(combats, COMBAT_ID, token, never_asked),
        lambda: tokens.revoke(combats, COMBAT_ID, token, gm_id),
    ]
    for use_case in refused:
        with pytest.raises(AccessDenied) as denied:
            use_case()
        assert denied.value.status == status
    assert combats.grants(COMBAT_ID) == before


def test_tokens_of_an_unknown_combat_are_not_found(combats, shown):
    with pytest.raises(CombatNotFound):
        tokens.list_tokens(combats, "nope", shown["gm"])
    with pytest.raises(CombatNotFound):
        tokens.mint(combats, "nope", shown["gm"], never_asked)


def test_a_minted_token_opens_the_combat_for_its_combatant_and_is_listed(combats, shown):
    minted = tokens.mint(combats, COMBAT_ID, shown["gm"], asking("player", "ana"))
    assert authorize(combats, COMBAT_ID, minted["token"])[1].combatant == "ana"
    listed = tokens.list_tokens(combats, COMBAT_ID, shown["gm"])
    assert {"id": minted["id"], "role": "player", "combatant": "ana"} in listed
    assert len(listed) == len(shown["combatants"]) + 2  # the GM's, each player's, and the new one


def test_a_token_for_no_such_combatant_is_refused_and_grants_nothing(combats, shown):
    before = tokens.list_tokens(combats, COMBAT_ID, shown["gm"])
    with pytest.raises(tokens.UnknownCombatant, match="'zed'"):
        tokens.mint(combats, COMBAT_ID, shown["gm"], asking("player", "zed"))
    assert tokens.list_tokens(combats, COMBAT_ID, shown["gm"]) == before


def test_the_last_gm_token_cannot_be_revoked_but_a_second_one_can(combats, shown):
    gm = shown["gm"]
    gm_id = next(t["id"] for t in tokens.list_tokens(combats, COMBAT_ID, gm) if t["role"] == "gm")
    with pytest.raises(tokens.LastGameMasterToken):
        tokens.revoke(combats, COMBAT_ID, gm, gm_id)
    second = tokens.mint(combats, COMBAT_ID, gm, asking("gm", "ana"))
    assert second["combatant"] is None, "a GM token acts for no one combatant"
    tokens.revoke(combats, COMBAT_ID, second["token"], gm_id)
    with pytest.raises(AccessDenied):
        authorize(combats, COMBAT_ID, gm)
    with pytest.raises(tokens.TokenNotFound):
        tokens.revoke(combats, COMBAT_ID, second["token"], gm_id)


def test_only_the_gm_deletes_and_then_the_combat_is_gone(combats, shown):
    with pytest.raises(AccessDenied):
        actions.delete(combats, COMBAT_ID, shown["combatants"]["ana"])
    actions.delete(combats, COMBAT_ID, shown["gm"])
    with pytest.raises(CombatNotFound):
        actions.delete(combats, COMBAT_ID, shown["gm"])
