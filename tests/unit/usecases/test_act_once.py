"""actions.act_once on the in-memory store: an action under an Idempotency-Key
authorizes, then reserves the key, then acts, reading the combat once.
Every refusal leaves the combat at its version; a refused caller leaves no record."""

from __future__ import annotations

import time

import pytest

from service.rules.errors import RulesError
from service.store.keys import idempotency_key
from service.usecases import actions
from service.usecases.access import AccessDenied
from service.usecases.conflicts import Stale
from service.usecases.idempotency import KeyFence, KeyReused, ReplayUnavailable, RequestInFlight
from service.usecases.port_errors import CombatNotFound

from .conftest import COMBAT_ID

ADJUST = {"type": "adjust", "actor": "gm", "target": "ana", "change": {"pv": -1}}
RECORDS = idempotency_key(COMBAT_ID)


def fence(fingerprint: str = "same-request") -> KeyFence:
    return KeyFence.new(RECORDS, "action-key-00001", fingerprint, ttl=60, now=int(time.time()))


def version(combats) -> int:
    return combats.states[COMBAT_ID][-1]["version"]


@pytest.fixture
def reads(combats):
    """How many times the use case reads the combat (one round trip each in Redis)."""
    real, count = combats.load_with_grant, []

    def load_with_grant(combat_id, digest):
        count.append(combat_id)
        return real(combat_id, digest)

    combats.load_with_grant = load_with_grant
    return count


def test_the_first_request_reads_once_applies_and_leaves_its_answer(combats, shown, reads):
    applied = actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence())
    assert applied.state["version"] == 2 and applied.entry["seq"] == 2 and not applied.replayed
    assert len(reads) == 1, "the read that authorized is the one the action is computed on"
    assert list(combats.records[RECORDS].values()) == [f"A same-request 2 {applied.state['expires_at']}"]


def test_a_retry_is_the_first_answer_again_and_applies_nothing(combats, shown, reads):
    first = actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence())
    reads.clear()
    again = actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence())
    assert again.replayed and again.entry == first.entry and again.state["version"] == 2
    assert version(combats) == 2 and len(reads) == 1


@pytest.mark.parametrize(("who", "status"), [(None, 401), ("forged", 401), ("ana", 403)])
def test_a_refused_caller_is_refused_before_the_key_is_reserved(combats, shown, who, status):
    token = {"forged": "forged-token", "ana": shown["combatants"]["ana"]}.get(who)  # a player, for a GM action
    reserved = []
    real = combats.reserve
    combats.reserve = lambda *args, **kwargs: reserved.append(args) or real(*args, **kwargs)
    with pytest.raises(AccessDenied) as denied:
        actions.act_once(combats, COMBAT_ID, ADJUST, token, fence())
    assert denied.value.status == status
    assert reserved == [] and combats.records == {} and version(combats) == 1


def test_an_unknown_combat_is_not_found_before_the_key_is_reserved(combats, shown):
    with pytest.raises(CombatNotFound):
        actions.act_once(combats, "nope", ADJUST, shown["gm"], KeyFence.new("r", "k" * 16, "fp", 60, 0))
    assert combats.records == {}


def test_a_retry_while_the_first_is_in_flight_is_refused(combats, shown):
    assert combats.reserve(RECORDS, fence().digest, fence().reservation, int(time.time()), 15, 60) is None
    with pytest.raises(RequestInFlight):
        actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence())
    assert version(combats) == 1


def test_the_same_key_for_another_request_is_refused(combats, shown):
    actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence("first-request"))
    with pytest.raises(KeyReused):
        actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence("another-request"))
    assert version(combats) == 2


def test_a_record_of_a_former_format_is_no_replay(combats, shown):
    combats.records[RECORDS] = {fence().digest: "D the whole answer"}
    with pytest.raises(ReplayUnavailable):
        actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence())
    assert version(combats) == 1


def test_an_action_the_rules_refuse_leaves_no_reservation_and_its_retry_runs_again(combats, shown):
    not_yet = {"type": "pass", "actor": "capanga"}  # ana acts first
    with pytest.raises(RulesError):
        actions.act_once(combats, COMBAT_ID, not_yet, shown["gm"], fence())
    assert combats.records[RECORDS] == {} and version(combats) == 1
    actions.act(combats, COMBAT_ID, {"type": "pass", "actor": "ana"}, shown["gm"])
    assert actions.act_once(combats, COMBAT_ID, not_yet, shown["gm"], fence()).state["version"] == 3


def test_a_stale_if_match_leaves_no_reservation(combats, shown):
    with pytest.raises(Stale):
        actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence(), expected_version=7)
    assert combats.records[RECORDS] == {} and version(combats) == 1


def test_a_reservation_taken_over_before_the_commit_is_in_flight_and_left_to_its_new_owner(combats, shown):
    mine, theirs = fence(), fence()  # the same request, retried after this one stalled
    real = combats.commit

    def taken_over_first(state, entry, expected_version, keyed=None):
        combats.records[RECORDS][mine.digest] = theirs.reservation
        return real(state, entry, expected_version, keyed)

    combats.commit = taken_over_first
    with pytest.raises(RequestInFlight):
        actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], mine)
    assert combats.records[RECORDS] == {mine.digest: theirs.reservation} and version(combats) == 1


def test_a_replay_that_read_the_combat_before_the_first_commit_is_the_first_answer(combats, shown, monkeypatch):
    # Two requests with one key: the second reads the combat (version 1), then
    # the first commits version 2 a while later, then the second reserves the
    # key and finds the first's record. Its replay is the first answer, expiry
    # included, not the expiry of the version it read.
    clock = [2_000_000_000.0]
    monkeypatch.setattr(actions.time, "time", lambda: clock[0])
    actions.stamp_expiry(combats.states[COMBAT_ID][-1], combats.ttl_seconds)  # version 1, written this second
    real_reserve, first = combats.reserve, []

    def first_commits_meanwhile(*args, **kwargs):
        if not first:
            combats.reserve = real_reserve
            clock[0] += 1  # the first request commits in the next second
            first.append(actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence()))
        return real_reserve(*args, **kwargs)

    combats.reserve = first_commits_meanwhile
    read_before = combats.states[COMBAT_ID][-1]["expires_at"]
    again = actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence())
    assert again.replayed and version(combats) == 2
    assert again.state == first[0].state and again.entry == first[0].entry
    assert again.state["expires_at"] == "2033-05-18T04:33:21Z" != read_before  # 2,000,000,001 s + 3600 s TTL


def test_a_record_without_expiry_of_an_earlier_version_is_replayed_with_the_expiry_read(combats, shown):
    first = actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence())
    combats.records[RECORDS] = {fence().digest: "A same-request 2"}
    again = actions.act_once(combats, COMBAT_ID, ADJUST, shown["gm"], fence())
    assert again.replayed and again.state == first.state and version(combats) == 2
