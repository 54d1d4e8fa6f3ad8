"""A GM's change of PV has the rules' consequences, exactly as damage (or healing) would.

Bruno: FOR 3, CON 2, 15 PV; instant death at -(CON + FOR) = -5 PV; dying at 0 PV
(death_tests_at_zero, the default) or below 0 (option off).
"""

from ..rules_helpers import codes, combatant, params, step
from .test_gm import GM, fight  # noqa: F401 - the fixture


def adjust(state, **fields):
    return step(state, {"type": "adjust", "actor": GM, "target": "bruno", **fields})


def conditions(state):
    return sorted(c["code"] for c in combatant(state, "bruno")["conditions"])


def test_lowering_pv_to_zero_makes_him_dying_and_awaits_his_death_test(fight):
    state, entry = adjust(fight, change={"pv": -15})  # 15 - 15 = 0
    assert params(entry, "dying") == {"target": "bruno", "pv": 0}
    assert conditions(state) == ["dying", "unconscious"]


def test_lowering_pv_to_zero_without_death_tests_at_zero_only_knocks_out():
    from ..rules_helpers import start
    from .fixtures import ANA_FIRST, RULESET, ana, bruno

    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST, options={"death_tests_at_zero": False})
    state, entry = adjust(state, set={"pv": 0})
    assert params(entry, "knocked_out") == {"target": "bruno"} and conditions(state) == ["unconscious"]
    state, entry = adjust(state, change={"pv": -1})  # -1 < 0: dying now
    assert params(entry, "dying") == {"target": "bruno", "pv": -1} and conditions(state) == ["dying", "unconscious"]


def test_lowering_a_dying_character_to_minus_con_plus_for_kills_him(fight):
    state, _ = adjust(fight, set={"pv": 0})
    state, entry = adjust(state, change={"pv": -22})  # 0 - 22 = -22 <= -5
    assert params(entry, "died") == {"target": "bruno", "cause": "gm"}
    assert conditions(state) == ["dead", "unconscious"]


def test_raising_pv_above_zero_ends_dying_and_unconsciousness(fight):
    state, _ = adjust(fight, set={"pv": 0})
    state, _ = adjust(state, change={"death_failures": 2})
    state, entry = adjust(state, set={"pv": 5})
    assert codes(entry) == ["value_adjusted", "stabilised", "recovered"]
    assert conditions(state) == [] and combatant(state, "bruno")["death_failures"] == 0
    state, _ = step(state, {"type": "pass", "actor": "ana"})
    assert state["awaiting"] == [
        {"actor": "bruno", "actions": ["attack", "test", "pass"], "reason": "turn"}
    ]  # a turn, no death test


def test_the_dead_stay_dead_when_pv_are_raised(fight):
    state, _ = adjust(fight, set={"pv": -5})  # -5 <= -5: dead at once
    state, entry = adjust(state, set={"pv": 10})
    assert codes(entry) == ["value_adjusted"] and conditions(state) == ["dead", "unconscious"]
