"""The use cases of service/usecases/actions.py on the in-memory store: no
HTTP, no Redis. Every refusal leaves the combat at its version."""

from __future__ import annotations

import pytest

from service.rules.engine import create_combat
from service.rules.registry import get_ruleset
from service.store import CombatNotFound, ReservationLost, VersionConflict
from service.store.idempotency import KeyedWrite
from service.store.keys import idempotency_key
from service.store.memory import MemoryCombats
from service.usecases import actions, retry
from service.usecases.access import AccessDenied, authorize, mint_creation_tokens
from service.usecases.conflicts import ConflictPersisted, Stale

ADJUST = {"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": -1}}
COMBAT_ID = "c1"


@pytest.fixture
def combats():
    return MemoryCombats()


@pytest.fixture
def tokens(combats):
    state, entry = create_combat(get_ruleset("sistema-2d6").example()["combat"], combat_id=COMBAT_ID)
    shown, grants = mint_creation_tokens([c["id"] for c in state["combatants"]])
    combats.create(state, entry, grants)
    return shown


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


def test_the_gm_acts_and_the_commit_is_the_next_version(combats, tokens):
    applied = actions.act(combats, COMBAT_ID, ADJUST, tokens["gm"])
    assert applied.state["version"] == 2 and applied.entry["seq"] == 2
    assert applied.grant.is_gm and applied.new_tokens == {}
    assert version(combats) == 2 and "expires_at" in applied.state


@pytest.mark.parametrize(
    "token, status",
    [(None, 401), ("not-a-token", 401), ("ana", 403)],
)
def test_a_caller_without_the_right_changes_nothing(combats, tokens, token, status):
    token = tokens["combatants"]["ana"] if token == "ana" else token  # a player's token, for the GM's action
    with pytest.raises(AccessDenied) as denied:
        actions.act(combats, COMBAT_ID, ADJUST, token)
    assert denied.value.status == status
    assert version(combats) == 1


def test_a_stale_if_match_is_refused_before_anything_is_computed(combats, tokens):
    with pytest.raises(Stale) as stale:
        actions.act(combats, COMBAT_ID, ADJUST, tokens["gm"], expected_version=7)
    assert stale.value.current == 1 and version(combats) == 1


def test_a_lost_race_under_if_match_is_stale_at_once(combats, tokens, waits):
    losing(combats, times=1)
    with pytest.raises(Stale):
        actions.act(combats, COMBAT_ID, ADJUST, tokens["gm"], expected_version=1)
    assert waits == [] and version(combats) == 1


@pytest.mark.parametrize("write", [actions.act, actions.take_back, actions.play_again])
def test_one_conflict_policy_for_every_write(combats, tokens, waits, write):
    gm = tokens["gm"]
    actions.act(combats, COMBAT_ID, ADJUST, gm)
    if write is actions.play_again:
        actions.take_back(combats, COMBAT_ID, gm)
    run = (lambda: write(combats, COMBAT_ID, ADJUST, gm)) if write is actions.act else (lambda: write(combats, COMBAT_ID, gm))
    before = version(combats)
    lost = losing(combats, times=10**6)
    with pytest.raises(ConflictPersisted):
        run()
    assert len(lost) == len(waits) + 1, "one attempt, then one more after each wait"
    assert version(combats) == before

    del combats.commit  # the real one again
    losing(combats, times=3)
    assert run().state["version"] == before + 1


def test_undo_then_redo_come_back_to_the_same_state(combats, tokens):
    gm = tokens["gm"]
    acted = actions.act(combats, COMBAT_ID, ADJUST, gm).state
    undone = actions.take_back(combats, COMBAT_ID, gm).state
    assert undone["version"] == 3
    assert undone["combatants"] == combats.states[COMBAT_ID][0]["combatants"]
    redone = actions.play_again(combats, COMBAT_ID, gm).state
    assert redone["combatants"] == acted["combatants"]


def test_nothing_to_undo_or_redo_changes_nothing(combats, tokens):
    with pytest.raises(actions.NothingToTakeBack, match="no action"):
        actions.take_back(combats, COMBAT_ID, tokens["gm"])
    with pytest.raises(actions.NothingToTakeBack, match="nothing was undone"):
        actions.play_again(combats, COMBAT_ID, tokens["gm"])
    assert version(combats) == 1


def test_undo_needs_the_gm(combats, tokens):
    actions.act(combats, COMBAT_ID, ADJUST, tokens["gm"])
    with pytest.raises(AccessDenied) as denied:
        actions.take_back(combats, COMBAT_ID, tokens["combatants"]["ana"])
    assert denied.value.status == 403 and version(combats) == 2


def test_a_keyed_action_leaves_its_record_and_is_replayed_from_it(combats, tokens):
    records = idempotency_key(COMBAT_ID)
    assert combats.reserve(records, "k", "F fp 100 n1", now=100, stale_after=15, ttl=60) is None
    keyed = lambda seq: KeyedWrite("k", "F fp 100 n1", f"A fp {seq}", 60)
    applied = actions.act(combats, COMBAT_ID, ADJUST, tokens["gm"], keyed=keyed)
    assert combats.records[records]["k"] == "A fp 2"
    actions.act(combats, COMBAT_ID, ADJUST, tokens["gm"])  # a later action: the replay rebuilds version 2
    replayed = actions.replayed_action(combats, COMBAT_ID, 2, tokens["gm"])
    assert replayed.entry == applied.entry and replayed.state["combatants"] == applied.state["combatants"]


def test_a_keyed_action_whose_reservation_was_taken_over_changes_nothing(combats, tokens):
    keyed = lambda seq: KeyedWrite("k", "F fp 100 n1", f"A fp {seq}", 60)  # never reserved
    with pytest.raises(ReservationLost):
        actions.act(combats, COMBAT_ID, ADJUST, tokens["gm"], keyed=keyed)
    assert version(combats) == 1


def test_a_join_mints_the_newcomer_a_token_that_opens_the_combat(combats, tokens):
    combat = combats.load_with_grant(COMBAT_ID, None)[0]
    ana = get_ruleset("sistema-2d6").example()["combat"]["combatants"][0]
    join = {"type": "join", "actor": "gm", "combatant": {**ana, "id": "carl", "name": "Carl"}}
    applied = actions.act(combats, COMBAT_ID, join, tokens["gm"])
    assert list(applied.new_tokens) == ["carl"] and len(combat["combatants"]) + 1 == len(applied.state["combatants"])
    _, grant = authorize(combats, COMBAT_ID, applied.new_tokens["carl"])
    assert grant.combatant == "carl"


def test_a_missing_combat_is_not_found(combats):
    with pytest.raises(CombatNotFound):
        actions.act(combats, "nope", ADJUST, "token")
