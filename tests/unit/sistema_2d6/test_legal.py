"""The listing (/options) and the resolution share their checks (issue 28, item 1).

actions.attack_target_refusal, burst_refusal and stabilize_refusal are the
functions the resolution raises and legal.py lists with; turns.turn_refusal
(who may act, issue 38) the one actions.resolve raises and turns.awaiting
lists with. Each test changes one
of them in one place and watches both the refusal and the listing follow.
"""

from service.rules.errors import ActionNotAllowed
from service.rules.registry import get_ruleset
from service.rules.sistema_2d6 import actions, turns

from ..rules_helpers import params, refused, replace_everywhere, start, step
from .fixtures import ANA_FIRST, RULESET, ana, bruno


def _fight():
    return start(RULESET, [ana(), bruno()], dice=ANA_FIRST)[0]  # Ana's turn first (15 against 5)


def _attacks(state, actor="ana"):
    return [c["params"] for c in get_ruleset(RULESET).legal_actions(state, actor) if c["type"] == "attack"]


def _bursts(state):
    """The weapons /options lists with burst: true."""
    return {w for p in _attacks(state) if True in p["burst"]["choices"] for w in p["weapon"]["choices"]}


def _replace(monkeypatch, original, replacement):
    replace_everywhere(monkeypatch, "service.rules.sistema_2d6", original, replacement)


def test_refusing_a_target_in_attack_target_refusal_refuses_it_in_the_resolution_and_the_listing(monkeypatch):
    state = _fight()
    assert [p["target"]["choices"] for p in _attacks(state)] == [["bruno"], ["bruno"]]  # single shots, bursts
    _replace(monkeypatch, actions.attack_target_refusal, lambda a, t: ActionNotAllowed("protected", field="target"))
    assert _attacks(state) == []
    error = refused(state, {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola"}, ActionNotAllowed)
    assert (error.field, str(error)) == ("target", "protected")


def test_burst_refusal_decides_the_burst_in_the_resolution_and_the_listing(monkeypatch):
    state = _fight()
    assert _bursts(state) == {"smg"}
    burst = {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "smg", "burst": True, "difficulty": 10}
    _replace(monkeypatch, actions.burst_refusal, lambda weapon, options: ActionNotAllowed("no bursts", field="burst"))
    assert _bursts(state) == set()
    assert str(refused(state, burst, ActionNotAllowed)) == "no bursts"
    _replace(monkeypatch, actions.burst_refusal, lambda weapon, options: None)
    assert "pistola" in _bursts(state)
    # The pistol now fires a burst: DES 3 + Armas de Fogo 2 + precision 1 - 4 + (6 + 6) = 14 >= 10.
    _, entry = step(state, {**burst, "weapon": "pistola", "dice": [6, 6, 2, 3]})
    assert params(entry, "attack_rolled")["modifiers"]["burst"] == -4


def test_refusing_a_patient_in_stabilize_refusal_refuses_it_in_both(monkeypatch):
    from .test_death import dying_bruno

    state = dying_bruno()
    state, _ = step(state, {"type": "death_test", "actor": "bruno", "dice": [3, 3]})
    listed = {c["type"]: c["params"] for c in get_ruleset(RULESET).legal_actions(state, "ana")}
    assert listed["stabilize"]["target"]["choices"] == ["bruno"]
    _replace(monkeypatch, actions.stabilize_refusal, lambda h, p: ActionNotAllowed("not now", field="target"))
    assert "stabilize" not in {c["type"] for c in get_ruleset(RULESET).legal_actions(state, "ana")}
    aid = {"type": "stabilize", "actor": "ana", "target": "bruno", "skill": "Medicina", "difficulty": 10}
    assert str(refused(state, aid, ActionNotAllowed)) == "not now"


def _awaited(state):
    return {w["actor"]: w["actions"] for w in get_ruleset(RULESET).prompts(state)}


def test_turn_refusal_decides_who_may_act_in_the_resolution_and_the_prompts(monkeypatch):
    state = _fight()
    assert _awaited(state) == {"ana": ["attack", "stabilize", "test", "pass"]}
    original = turns.turn_refusal

    def no_tests(state, actor, kind):
        return ActionNotAllowed("no tests now", field="type") if kind == "test" else original(state, actor, kind)

    _replace(monkeypatch, original, no_tests)
    assert _awaited(state) == {"ana": ["attack", "stabilize", "pass"]}
    test = {"type": "test", "actor": "ana", "attribute": "DES", "difficulty": 10}
    assert str(refused(state, test, ActionNotAllowed)) == "no tests now"

    _replace(monkeypatch, no_tests, lambda state, actor, kind: None if kind == "pass" else no_tests(state, actor, kind))
    # Bruno (initiative 5) now may pass during Ana's turn (15): the prompts and the resolution agree.
    assert _awaited(state) == {"ana": ["attack", "stabilize", "pass"], "bruno": ["pass"]}
    _, entry = step(state, {"type": "pass", "actor": "bruno"})
    assert params(entry, "passed") == {"actor": "bruno", "description": None}
