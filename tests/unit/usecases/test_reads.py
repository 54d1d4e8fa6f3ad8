"""service/usecases/reads.py on the in-memory store: the combat, pages of its
log (and the long poll's second read), the legal actions, for a token's
holder. Reads never change the combat."""

from __future__ import annotations

import pytest

from service.usecases import actions, reads
from service.usecases.access import AccessDenied
from service.usecases.port_errors import CombatNotFound

from .conftest import COMBAT_ID

ATTACK = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", "dice": [5, 4]}


def version(combats) -> int:
    return combats.load_with_grant(COMBAT_ID, None)[0]["version"]


def test_any_token_of_the_combat_reads_it(combats, shown):
    assert reads.read_combat(combats, COMBAT_ID, shown["gm"]).grant.is_gm
    seen = reads.read_combat(combats, COMBAT_ID, shown["combatants"]["ana"])
    assert seen.grant.combatant == "ana" and seen.state["version"] == 1 and seen.state["id"] == COMBAT_ID


@pytest.mark.parametrize("token", [None, "not-a-token"])
def test_no_token_or_another_is_401(combats, shown, token):
    with pytest.raises(AccessDenied) as denied:
        reads.read_combat(combats, COMBAT_ID, token)
    assert denied.value.status == 401


def test_a_combat_that_is_not_there_is_not_found(combats, shown):
    with pytest.raises(CombatNotFound):
        reads.read_combat(combats, "elsewhere", shown["gm"])


def test_the_log_in_pages(combats, shown):
    actions.act(combats, COMBAT_ID, ATTACK, shown["combatants"]["ana"])
    first = reads.read_events(combats, COMBAT_ID, shown["gm"], after=0, limit=1)
    assert [e["seq"] for e in first.entries] == [1] and first.last_seq == 2 and first.next_after == 1
    second = reads.read_events(combats, COMBAT_ID, shown["gm"], after=1, limit=1)
    assert [e["seq"] for e in second.entries] == [2] and second.next_after is None
    assert [e["action"]["type"] for e in first.entries + second.entries] == ["start", "attack"]
    assert version(combats) == 2


def test_no_wait_when_entries_are_there_or_none_is_asked(combats, shown):
    waited = []

    def wait(combat_id, after, seconds):
        waited.append((combat_id, after, seconds))
        return True

    reads.read_events(combats, COMBAT_ID, shown["gm"], after=0, limit=10, wait_seconds=5, wait=wait)
    reads.read_events(combats, COMBAT_ID, shown["gm"], after=1, limit=10, wait_seconds=0, wait=wait)
    assert waited == []


def test_the_long_poll_reads_again_what_came_meanwhile(combats, shown):
    waited = []

    def wait(combat_id, after, seconds):
        waited.append((combat_id, after, seconds))
        actions.act(combats, COMBAT_ID, ATTACK, shown["combatants"]["ana"])  # another client, meanwhile
        return True

    page = reads.read_events(combats, COMBAT_ID, shown["gm"], after=1, limit=10, wait_seconds=5, wait=wait)
    assert waited == [(COMBAT_ID, 1, 5)]
    assert [e["seq"] for e in page.entries] == [2] and page.state["version"] == 2 and page.next_after is None


def test_a_long_poll_without_a_slot_answers_the_empty_page(combats, shown):
    page = reads.read_events(combats, COMBAT_ID, shown["gm"], after=1, limit=10, wait_seconds=5, wait=lambda *_: False)
    assert page.entries == [] and page.last_seq == 1 and page.next_after is None


def test_a_token_revoked_during_the_long_poll_reads_nothing(combats, shown):
    from service.usecases.access import digest

    def wait(combat_id, after, seconds):
        combats.remove_grant(COMBAT_ID, digest(shown["combatants"]["ana"]))
        return True

    with pytest.raises(AccessDenied) as denied:
        reads.read_events(combats, COMBAT_ID, shown["combatants"]["ana"], after=1, limit=10, wait_seconds=5, wait=wait)
    assert denied.value.status == 401


def test_a_player_sees_its_own_options(combats, shown):
    options = reads.legal_actions(combats, COMBAT_ID, shown["combatants"]["ana"], "ana")
    assert (options.actor, options.version) == ("ana", 1)
    assert [a["type"] for a in options.actions] == ["attack", "pass"]


def test_the_gm_sees_anyones_and_its_own(combats, shown):
    # A test's difficulty is the GM's to set: the GM is offered ana's test, ana's own token is not.
    assert [a["type"] for a in reads.legal_actions(combats, COMBAT_ID, shown["gm"], "ana").actions] == [
        "attack",
        "test",
        "pass",
    ]
    gm_types = {a["type"] for a in reads.legal_actions(combats, COMBAT_ID, shown["gm"], "gm").actions}
    assert gm_types == {"adjust", "condition", "end_combat", "join", "leave", "modify", "override"}


@pytest.mark.parametrize(
    "holder, actor, detail",
    [
        ("ana", "capanga", "this token sees the options of 'ana' only, not of 'capanga'"),
        ("ana", "gm", "the game master's options need the GM's token"),
        ("ana", "nobody", "this token sees the options of 'ana' only, not of 'nobody'"),
    ],
)
def test_a_player_sees_no_one_elses(combats, shown, holder, actor, detail):
    with pytest.raises(AccessDenied) as denied:
        reads.legal_actions(combats, COMBAT_ID, shown["combatants"][holder], actor)
    assert (denied.value.status, denied.value.detail) == (403, detail)


def test_the_options_of_a_combatant_the_combat_has_not(combats, shown):
    with pytest.raises(reads.UnknownActor) as unknown:
        reads.legal_actions(combats, COMBAT_ID, shown["gm"], "nobody")
    assert str(unknown.value) == "there is no combatant 'nobody' in this combat"
