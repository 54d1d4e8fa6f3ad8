"""The listing (/options, awaiting) and the resolution share each check (issue 28, item 1).

Each condition is one function (status.kind_refusal, status.rank_refusal,
declarations.attack_target_refusal, weapons.weapon_refusal...): the
resolution refuses with it and legal.py / rounds.awaiting list with it. The
tests below change one such function and watch both sides follow.
"""

import pytest

from service.rules.age_du_silicium import attacks, declarations, modifiers, reactions, rounds, status, weapons
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
    assert str(error) == "Cy is immobilised and can only try to break free"
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


# -- issue 38: full automatic fire, maneuvers, parries and aims, each decided in one place ---------------------

GUNNER = ana(
    weapons=[
        {"id": "fusil", "kind": "ranged", "skill": "Armes de poing", "damage": 8, "burst": True, "full_auto": True}
    ]
)


def _ana_to_attack(options=None, ana_sheet=None, weapon=None):
    """Bob (40) does something else; Ana (60) is waiting to attack him."""
    state, _ = duel(options={"stress_test": False, **(options or {})}, ana=ana_sheet or ana())
    state, _ = declare(state, "bob", {"kind": "other"})
    state, _ = declare(state, "ana", attack_entry("bob", weapon=weapon))
    return state


def _attack_sets(state, actor="ana"):
    return [c["params"] for c in get_ruleset(RULESET).legal_actions(state, actor) if c["type"] == "attack"]


def _full_auto_listed(state):
    return [s["full_auto"]["choices"] for s in _attack_sets(state) if s.get("full_auto")]


def test_refusing_full_auto_in_full_auto_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _ana_to_attack({"full_auto": "bursts"}, GUNNER)
    assert _full_auto_listed(state) == [[2, 3, 4, 5]]
    original = attacks.full_auto_refusal
    _replace_everywhere(
        monkeypatch, original, lambda options, weapon: ActionNotAllowed("out of ammunition", field="full_auto")
    )
    assert _full_auto_listed(state) == []
    error = refused(state, {"type": "attack", "actor": "ana", "target": "bob", "full_auto": 2}, ActionNotAllowed)
    assert (error.field, str(error)) == ("full_auto", "out of ammunition")


def test_allowing_full_auto_in_full_auto_refusal_allows_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _ana_to_attack({}, GUNNER)  # option full_auto off by default: neither listed nor accepted
    assert _full_auto_listed(state) == []
    refused(state, {"type": "attack", "actor": "ana", "target": "bob", "full_auto": 2}, ActionNotAllowed)
    _replace_everywhere(monkeypatch, attacks.full_auto_refusal, lambda options, weapon: None)
    assert _full_auto_listed(state) == [[2, 3, 4, 5]]
    # Two bursts: 60 - 10 (burst) - 5 (recoil of one more burst) = 45; 90 and 95 miss.
    state, entry = step(state, {"type": "attack", "actor": "ana", "target": "bob", "full_auto": 2, "dice": [90, 95]})
    assert [e["params"]["chance"] for e in entry["events"] if e["code"] == "attack"] == [45]


def _maneuvers_listed(state, weapon):
    return [(s.get("maneuver") or {}).get("choices") for s in _attack_sets(state) if s["weapon"]["choices"] == [weapon]]


def test_refusing_a_maneuver_in_maneuver_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _ana_to_attack(ana_sheet=ana(skill_levels={"Armes tranchantes": 1}), weapon="lame")
    assert _maneuvers_listed(state, "lame") == [["disarm", "immobilisation", "projection"]]
    original = modifiers.maneuver_refusal

    def no_disarm(attacker, weapon, maneuver):
        if maneuver == "disarm":
            return ActionNotAllowed("no disarming today", field="maneuver")
        return original(attacker, weapon, maneuver)

    _replace_everywhere(monkeypatch, original, no_disarm)
    assert _maneuvers_listed(state, "lame") == [["immobilisation", "projection"]]
    error = refused(
        state,
        {"type": "attack", "actor": "ana", "target": "bob", "weapon": "lame", "maneuver": "disarm"},
        ActionNotAllowed,
    )
    assert (error.field, str(error)) == ("maneuver", "no disarming today")


def test_allowing_a_maneuver_in_maneuver_refusal_allows_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _ana_to_attack(weapon="lame")  # no skill level: no maneuver listed, and refused
    assert _maneuvers_listed(state, "lame") == [None]
    refused(
        state,
        {"type": "attack", "actor": "ana", "target": "bob", "weapon": "lame", "maneuver": "disarm"},
        ActionNotAllowed,
    )
    _replace_everywhere(monkeypatch, modifiers.maneuver_refusal, lambda attacker, weapon, maneuver: None)
    assert _maneuvers_listed(state, "lame") == [["disarm", "immobilisation", "projection"]]
    # Armes tranchantes 50, disarm -10 = 40; 40 hits and disarms Bob.
    state, entry = step(
        state, {"type": "attack", "actor": "ana", "target": "bob", "weapon": "lame", "maneuver": "disarm", "dice": [40]}
    )
    assert combatant(state, "bob")["conditions"][0]["code"] == "disarmed"


def _hit_waiting_for_ana(weapon):
    """Bob (40) attacks Ana with ``weapon``; Ana declared a defence: his hit (10) waits for her reaction."""
    state, _ = to_resolution(
        duel()[0], bob_entries=[attack_entry("ana", weapon=weapon)], ana_entries=[{"kind": "defend"}]
    )
    state, _ = step(state, {"type": "attack", "actor": "bob", "target": "ana", "dice": [10]})
    assert state["awaiting"] == [{"actor": "ana", "actions": ["react"], "reason": "reaction"}]
    return state


def _reactions_listed(state):
    listed = [c["params"] for c in get_ruleset(RULESET).legal_actions(state, "ana") if c["type"] == "react"]
    return {s["reaction"]["choices"][0]: (s.get("weapon") or {}).get("choices") for s in listed}


def test_refusing_a_parry_in_parry_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _hit_waiting_for_ana("lame")
    assert _reactions_listed(state) == {"none": None, "dodge": None, "parry": ["lame", "unarmed"]}
    _replace_everywhere(
        monkeypatch, reactions.parry_refusal, lambda pending: ActionNotAllowed("too fast to parry", field="reaction")
    )
    assert _reactions_listed(state) == {"none": None, "dodge": None}
    error = refused(state, {"type": "react", "actor": "ana", "reaction": "parry"}, ActionNotAllowed)
    assert (error.field, str(error)) == ("reaction", "too fast to parry")


def test_allowing_a_parry_in_parry_refusal_allows_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _hit_waiting_for_ana("pistolet")  # a bullet: no parry listed, and refused
    assert _reactions_listed(state) == {"none": None, "dodge": None}
    refused(state, {"type": "react", "actor": "ana", "reaction": "parry"}, ActionNotAllowed)
    _replace_everywhere(monkeypatch, reactions.parry_refusal, lambda pending: None)
    assert _reactions_listed(state) == {"none": None, "dodge": None, "parry": ["lame", "unarmed"]}
    # Parry with the blade (Armes tranchantes 50): 30 succeeds.
    state, entry = step(state, {"type": "react", "actor": "ana", "reaction": "parry", "dice": [30]})
    assert [e["params"] for e in entry["events"] if e["code"] == "hit_avoided"] == [
        {"defender": "ana", "attacker": "bob", "reaction": "parry"}
    ]


def test_a_parrying_weapon_in_parrying_weapon_refusal_is_one_in_the_resolution_and_the_listing(monkeypatch):
    state = _hit_waiting_for_ana("lame")
    refused(state, {"type": "react", "actor": "ana", "reaction": "parry", "weapon": "pistolet"}, ActionNotAllowed)

    def only_the_pistol(weapon):
        return None if weapon["id"] == "pistolet" else ActionNotAllowed("not a parrying weapon", field="weapon")

    _replace_everywhere(monkeypatch, reactions.parrying_weapon_refusal, only_the_pistol)
    assert _reactions_listed(state)["parry"] == ["pistolet"]
    error = refused(state, {"type": "react", "actor": "ana", "reaction": "parry", "weapon": "lame"}, ActionNotAllowed)
    assert (error.field, str(error)) == ("weapon", "not a parrying weapon")
    # Parry with the pistol's skill (Armes de poing 60), and by default with it too: 55 succeeds.
    state, entry = step(state, {"type": "react", "actor": "ana", "reaction": "parry", "dice": [55]})
    assert [e["params"]["chance"] for e in entry["events"] if e["code"] == "reaction_roll"] == [60]


def _aim_listed(state, actor):
    items = _listed(state, actor)["declare"]["actions"]["items"]
    return [any(e["kind"] == "aim" for e in item["choices"]) for item in items]


def test_a_limit_of_aims_in_aim_refusal_is_the_limit_of_the_declaration_the_listing_and_the_count(monkeypatch):
    state, _ = duel(ana=ana(actions=4))
    state, _ = declare(state, "bob", {"kind": "other"})
    # The source's 3: a 4th action may not aim (listed for the first three only), and a 4th aim is refused.
    assert _aim_listed(state, "ana") == [True, True, True, False]
    refused(state, {"type": "declare", "actor": "ana", "actions": [{"kind": "aim"}] * 4}, ActionNotAllowed)
    original = rounds.aim_refusal

    def at_most_one(aims, field="kind"):
        return ActionNotAllowed("one aim only", field=field) if aims > 1 else None

    _replace_everywhere(monkeypatch, original, at_most_one)
    assert _aim_listed(state, "ana") == [True, False, False, False]
    error = refused(
        state, {"type": "declare", "actor": "ana", "actions": [{"kind": "aim"}, {"kind": "aim"}] * 2}, ActionNotAllowed
    )
    assert (error.field, str(error)) == ("actions.1.kind", "one aim only")
    # Allowing four: the declaration takes them and the four aims count.
    _replace_everywhere(monkeypatch, at_most_one, lambda aims, field="kind": None)
    assert _aim_listed(state, "ana") == [True, True, True, True]
    state, _ = declare(state, "ana", *[{"kind": "aim"}] * 4)
    assert combatant(state, "ana")["aim"] == 4
