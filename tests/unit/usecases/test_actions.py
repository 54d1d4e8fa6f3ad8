"""The use cases of service/usecases/actions.py on the in-memory store: no
HTTP, no Redis. Every refusal leaves the combat at its version."""

from __future__ import annotations

import pytest

from service.rules.registry import get_ruleset
from service.store.keys import idempotency_key
from service.usecases import actions, retry
from service.usecases.access import AccessDenied, authorize
from service.usecases.conflicts import ConflictPersisted, Stale
from service.usecases.idempotency import ActionApplied
from service.usecases.port_errors import CombatNotFound, ReservationLost, VersionConflict
from service.usecases.ports import KeyedWrite

from .conftest import COMBAT_ID

ADJUST = {"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": -1}}


@pytest.fixture
def waits(monkeypatch):
    slept = []
    monkeypatch.setattr(retry, "sleep", slept.append)
    return slept


def version(combats) -> int:
    return combats.load_with_grant(COMBAT_ID, None)[0]["version"]


def losing(combats, times: int):
    """``combats`` whose next ``times`` commits lose their race."""
    real, lost = combats.commit, []

    def commit(state, *args, **kwargs):
        if len(lost) < times:
            lost.append(state["version"])
            raise VersionConflict(state["version"] - 1)
        return real(state, *args, **kwargs)

    combats.commit = commit
    return lost


def test_the_gm_acts_and_the_commit_is_the_next_version(combats, shown):
    applied = actions.act(combats, COMBAT_ID, ADJUST, shown["gm"])
    assert applied.state["version"] == 2 and applied.entry["seq"] == 2
    assert applied.grant.is_gm and applied.new_tokens == {}
    assert version(combats) == 2 and "expires_at" in applied.state


@pytest.mark.parametrize(
    "token, status",
    [(None, 401), ("not-a-token", 401), ("ana", 403)],
)
def test_a_caller_without_the_right_changes_nothing(combats, shown, token, status):
    token = shown["combatants"]["ana"] if token == "ana" else token  # a player's token, for the GM's action
    with pytest.raises(AccessDenied) as denied:
        actions.act(combats, COMBAT_ID, ADJUST, token)
    assert denied.value.status == status
    assert version(combats) == 1


def test_a_stale_if_match_is_refused_before_anything_is_computed(combats, shown):
    with pytest.raises(Stale) as stale:
        actions.act(combats, COMBAT_ID, ADJUST, shown["gm"], expected_version=7)
    assert stale.value.current == 1 and version(combats) == 1


def test_a_lost_race_under_if_match_is_stale_at_once(combats, shown, waits):
    losing(combats, times=1)
    with pytest.raises(Stale):
        actions.act(combats, COMBAT_ID, ADJUST, shown["gm"], expected_version=1)
    assert waits == [] and version(combats) == 1


@pytest.mark.parametrize("write", [actions.act, actions.take_back, actions.play_again])
def test_one_conflict_policy_for_every_write(combats, shown, waits, write):
    gm = shown["gm"]
    actions.act(combats, COMBAT_ID, ADJUST, gm)
    if write is actions.play_again:
        actions.take_back(combats, COMBAT_ID, gm)
    run = (
        (lambda: write(combats, COMBAT_ID, ADJUST, gm))
        if write is actions.act
        else (lambda: write(combats, COMBAT_ID, gm))
    )
    before = version(combats)
    lost = losing(combats, times=10**6)
    with pytest.raises(ConflictPersisted):
        run()
    assert len(lost) == len(waits) + 1, "one attempt, then one more after each wait"
    assert version(combats) == before

    del combats.commit  # the real one again
    losing(combats, times=3)
    assert run().state["version"] == before + 1


def test_undo_then_redo_come_back_to_the_same_state(combats, shown):
    gm = shown["gm"]
    acted = actions.act(combats, COMBAT_ID, ADJUST, gm).state
    undone = actions.take_back(combats, COMBAT_ID, gm).state
    assert undone["version"] == 3
    assert undone["combatants"] == combats.states[COMBAT_ID][0]["combatants"]
    redone = actions.play_again(combats, COMBAT_ID, gm).state
    assert redone["combatants"] == acted["combatants"]


def test_nothing_to_undo_or_redo_changes_nothing(combats, shown):
    with pytest.raises(actions.NothingToTakeBack, match="no action"):
        actions.take_back(combats, COMBAT_ID, shown["gm"])
    with pytest.raises(actions.NothingToTakeBack, match="nothing was undone"):
        actions.play_again(combats, COMBAT_ID, shown["gm"])
    assert version(combats) == 1


def test_undo_needs_the_gm(combats, shown):
    actions.act(combats, COMBAT_ID, ADJUST, shown["gm"])
    with pytest.raises(AccessDenied) as denied:
        actions.take_back(combats, COMBAT_ID, shown["combatants"]["ana"])
    assert denied.value.status == 403 and version(combats) == 2


def test_a_keyed_action_leaves_its_record_and_is_replayed_from_it(combats, shown):
    records = idempotency_key(COMBAT_ID)
    assert combats.reserve(records, "k", "F fp 100 n1", now=100, stale_after=15, ttl=60) is None

    def keyed(seq, expires_at):
        return KeyedWrite("k", "F fp 100 n1", f"A fp {seq} {expires_at}", 60)

    applied = actions.act(combats, COMBAT_ID, ADJUST, shown["gm"], keyed=keyed)
    assert combats.records[records]["k"] == f"A fp 2 {applied.state['expires_at']}"
    actions.act(combats, COMBAT_ID, ADJUST, shown["gm"])  # a later action: the replay rebuilds version 2
    recorded = ActionApplied(2, applied.state["expires_at"])
    replayed = actions.replayed_action(combats, COMBAT_ID, recorded, shown["gm"])
    assert replayed.entry == applied.entry and replayed.state == applied.state


def test_a_keyed_action_whose_reservation_was_taken_over_changes_nothing(combats, shown):
    def keyed(seq, expires_at):  # never reserved
        return KeyedWrite("k", "F fp 100 n1", f"A fp {seq} {expires_at}", 60)

    with pytest.raises(ReservationLost):
        actions.act(combats, COMBAT_ID, ADJUST, shown["gm"], keyed=keyed)
    assert version(combats) == 1


def test_a_join_mints_the_newcomer_a_token_that_opens_the_combat(combats, shown):
    combat = combats.load_with_grant(COMBAT_ID, None)[0]
    ana = get_ruleset("sistema-2d6").example()["combat"]["combatants"][0]
    join = {"type": "join", "actor": "gm", "combatant": {**ana, "id": "carl", "name": "Carl"}}
    applied = actions.act(combats, COMBAT_ID, join, shown["gm"])
    assert list(applied.new_tokens) == ["carl"] and len(combat["combatants"]) + 1 == len(applied.state["combatants"])
    _, grant = authorize(combats, COMBAT_ID, applied.new_tokens["carl"])
    assert grant.combatant == "carl"


def test_a_missing_combat_is_not_found(combats):
    with pytest.raises(CombatNotFound):
        actions.act(combats, "nope", ADJUST, "token")
