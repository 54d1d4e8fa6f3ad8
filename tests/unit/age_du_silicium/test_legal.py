"""The listing (/options, awaiting) and the resolution share each check (issue 28, item 1).

Each condition is one function (status.kind_refusal, status.rank_refusal,
declarations.attack_target_refusal, weapons.weapon_refusal...): the
resolution refuses with it and legal.py / rounds.awaiting list with it. The
tests below change one such function and watch both sides follow.
"""

import pytest

from service.rules.age_du_silicium import declarations, status, weapons
from service.rules.errors import ActionNotAllowed
from service.rules.registry import get_ruleset

from ..rules_helpers import combatant, replace_everywhere, start, step
from .fixtures import RULESET, ana, attack_entry, bob, cy, declare, duel, refused, to_resolution


def _listed(state, actor):
    return {choice["type"]: choice["params"] for choice in get_ruleset(RULESET).legal_actions(state, actor)}


def _awaited(state, actor):
    return next((w["actions"] for w in state["awaiting"] if w["actor"] == actor), [])


def _replace_everywhere(monkeypatch, original, replacement):
    replace_everywhere(monkeypatch, "service.rules.age_du_silicium", original, replacement)


def _before_reasoning():
    """Bob (corpo) fails his Calme (99) and flees; Cy, his ally, declared to reason with him; Ana declares last."""
    state, _ = start(RULESET, [ana(), bob(), cy(calme=80)], dice=[1, 99, 1])
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state, _ = declare(state, "bob", {"kind": "flee"})
    state, _ = declare(state, "cy", {"kind": "reason", "target": "bob"})
    return state


def _reasoning_cy():
    """Cy's rank (50) is now (Ana's 60 did nothing)."""
    state, _ = declare(_before_reasoning(), "ana", {"kind": "other"})
    assert _awaited(state, "cy") == ["reason", "hold", "forgo"]
    return state


def test_an_ally_immobilised_before_his_rank_may_not_reason_any_more():
    # Regression (a stored Hypothesis example of tests/unit/gm/test_legal_actions.py): Cy declared to reason
    # with Bob, the GM then immobilised Cy. Docs M6: the victim may only break free (or forgo) at his rank;
    # awaiting and /options said so, but `reason` was accepted.
    state = _reasoning_cy()
    state, _ = step(state, {"type": "condition", "actor": "gm", "target": "cy", "code": "immobilised"})
    assert _awaited(state, "cy") == ["break_free", "forgo"]
    assert set(_listed(state, "cy")) == {"break_free", "forgo"}
    error = refused(state, {"type": "reason", "actor": "cy", "target": "bob"}, ActionNotAllowed)
    assert error.field == "type"
    assert str(error) == "cy is immobilised and can only try to break free"
    refused(state, {"type": "hold", "actor": "cy"}, ActionNotAllowed)
    # A hold set by the GM: a plain Bagarre test, 45 (cy's Bagarre); 40 frees him.
    state, entry = step(state, {"type": "break_free", "actor": "cy", "dice": [40]})
    assert [e["params"]["success"] for e in entry["events"] if e["code"] == "break_free"] == [True]


def test_refusing_a_kind_in_kind_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    before = _before_reasoning()
    original = status.kind_refusal

    def no_reasoning(combatant, kind, forced_defence=False):
        return "no reasoning today" if kind == "reason" else original(combatant, kind, forced_defence)

    _replace_everywhere(monkeypatch, original, no_reasoning)
    state, _ = declare(before, "ana", {"kind": "other"})
    # At Cy's rank the prompt and /options drop his declared reason, and the resolution refuses it.
    assert _awaited(state, "cy") == ["hold", "forgo"]
    assert set(_listed(state, "cy")) == {"hold", "forgo"}
    error = refused(state, {"type": "reason", "actor": "cy", "target": "bob"}, ActionNotAllowed)
    assert str(error) == "no reasoning today"


def test_refusing_a_kind_in_kind_refusal_refuses_its_declaration_and_its_listing(monkeypatch):
    state, _ = start(RULESET, [ana(), bob(), cy(calme=80)], dice=[1, 99, 1])
    state, _ = step(state, {"type": "choose_frenzy", "actor": "bob", "behaviour": "flight"})
    state, _ = declare(state, "bob", {"kind": "flee"})
    kinds = {e["kind"] for e in _listed(state, "cy")["declare"]["actions"]["items"][0]["choices"]}
    assert {"reason", "attack", "aim"} <= kinds
    original = status.kind_refusal
    _replace_everywhere(monkeypatch, original, lambda c, kind, forced=False: "no" if kind == "aim" else None)
    kinds = {e["kind"] for e in _listed(state, "cy")["declare"]["actions"]["items"][0]["choices"]}
    assert "aim" not in kinds
    assert {"reason", "attack", "break_free"} <= kinds  # allowing everything else lists breaking free too
    refused(state, {"type": "declare", "actor": "cy", "actions": [{"kind": "aim"}]}, ActionNotAllowed)
    state, _ = declare(state, "cy", {"kind": "break_free"})  # and the declaration accepts it
    assert [s["kind"] for s in state["slots"] if s["actor"] == "cy"] == ["break_free"]


def test_allowing_every_kind_in_kind_refusal_allows_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _reasoning_cy()
    _replace_everywhere(monkeypatch, status.kind_refusal, lambda combatant, kind, forced_defence=False: None)
    state, _ = step(state, {"type": "condition", "actor": "gm", "target": "cy", "code": "immobilised"})
    assert _awaited(state, "cy") == ["reason", "break_free", "hold", "forgo"]
    assert {"reason", "break_free", "hold", "forgo"} == set(_listed(state, "cy"))
    # Bob's Calme 50, no malus; 20 calms him.
    state, entry = step(state, {"type": "reason", "actor": "cy", "target": "bob", "dice": [20]})
    assert [e["code"] for e in entry["events"]][:2] == ["calme_retest", "frenzy_ended"]


def test_refusing_a_target_in_attack_target_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state, _ = to_resolution(duel()[0])  # Ana (60) and Bob (40) declared attacks on each other
    assert _listed(state, "ana")["attack"]["target"]["choices"] == ["bob"]
    original = declarations.attack_target_refusal
    _replace_everywhere(monkeypatch, original, lambda attacker, target: f"{target['id']} is protected")
    assert "attack" not in _listed(state, "ana")
    error = refused(state, {"type": "attack", "actor": "ana", "target": "bob"}, ActionNotAllowed)
    assert (error.field, str(error)) == ("target", "bob is protected")
    refused(state, {"type": "declare", "actor": "bob", "actions": [attack_entry("ana")]}, ActionNotAllowed)


def test_refusing_a_reasoning_target_in_reason_target_refusal_refuses_it_in_both(monkeypatch):
    state = _reasoning_cy()
    _replace_everywhere(monkeypatch, declarations.reason_target_refusal, lambda actor, target: "not a friend")
    assert "reason" not in _listed(state, "cy")
    error = refused(state, {"type": "reason", "actor": "cy", "target": "bob"}, ActionNotAllowed)
    assert (error.field, str(error)) == ("target", "not a friend")


def test_refusing_a_retest_in_retest_refusal_refuses_it_in_both(monkeypatch):
    state = _reasoning_cy()
    _replace_everywhere(monkeypatch, declarations.retest_refusal, lambda state, target: "retested")
    assert "reason" not in _listed(state, "cy")
    refused(state, {"type": "reason", "actor": "cy", "target": "bob"}, ActionNotAllowed)


def _weapons_listed(state, actor):
    listed = get_ruleset(RULESET).legal_actions(state, actor)
    return [c["params"]["weapon"]["choices"] for c in listed if c["type"] == "attack"]


@pytest.mark.parametrize("refused_weapon", ["pistolet", "unarmed"])
def test_refusing_a_weapon_in_weapon_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch, refused_weapon):
    state, _ = to_resolution(duel()[0])
    weapons_listed = _weapons_listed(state, "ana")
    assert [refused_weapon] in weapons_listed
    original = weapons.weapon_refusal

    def refuse(combatant, weapon):
        return "jammed" if weapon["id"] == refused_weapon else original(combatant, weapon)

    _replace_everywhere(monkeypatch, original, refuse)
    weapons_listed = _weapons_listed(state, "ana")
    assert [refused_weapon] not in weapons_listed
    assert weapons_listed  # the other weapons stay
    error = refused(
        state, {"type": "attack", "actor": "ana", "target": "bob", "weapon": refused_weapon}, ActionNotAllowed
    )
    assert (error.field, str(error)) == ("weapon", "jammed")
    assert combatant(state, "ana")["conditions"] == []
