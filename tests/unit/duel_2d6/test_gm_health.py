"""A GM's change of PV has the rules' consequences, exactly as a wound would.

Bob has 6 PV; 0 PV puts out of the fight, below 0 kills (option death: negative,
the default), or 0 already kills (death: zero).
"""

from ..rules_helpers import codes, params
from .fixtures import fight
from .test_gm import GM, codes_of, gm


def test_zero_pv_puts_out_of_the_fight():
    state, entry = gm(fight(), "adjust", target="bob", change={"pv": -6})  # 6 - 6 = 0
    assert params(entry, "out_of_fight") == {"target": "bob", "pv": 0} and codes_of(state, "bob") == ["unconscious"]
    assert state["duels"] == []


def test_below_zero_pv_kills_as_damage_does():
    state, entry = gm(fight(), "adjust", target="bob", change={"pv": -7})  # 6 - 7 = -1 < 0
    assert params(entry, "died") == {"target": "bob", "pv": -1} and codes_of(state, "bob") == ["dead", "unconscious"]


def test_with_death_at_zero_zero_pv_kills():
    state, entry = gm(fight(options={"death": "zero"}), "adjust", target="bob", set={"pv": 0})
    assert params(entry, "died") == {"target": "bob", "pv": 0}


def test_an_unconscious_fighter_lowered_below_zero_dies():
    state, _ = gm(fight(), "adjust", target="bob", set={"pv": 0})
    state, entry = gm(state, "adjust", target="bob", change={"pv": -1})
    assert params(entry, "died") == {"target": "bob", "pv": -1} and "out_of_fight" not in codes(entry)


def test_healed_above_zero_the_fighter_comes_round_and_is_free_to_engage():
    state, _ = gm(fight(), "adjust", target="bob", set={"pv": 0})
    state, entry = gm(state, "adjust", target="bob", set={"pv": 3})
    assert params(entry, "recovered") == {"target": "bob"} and codes_of(state, "bob") == []
    assert {"actor": "bob", "actions": ["join"], "reason": "free"} in state["awaiting"]


def test_the_dead_stay_dead_when_pv_are_raised():
    state, _ = gm(fight(), "adjust", target="bob", set={"pv": -1})
    state, entry = gm(state, "adjust", target="bob", set={"pv": 6})
    assert codes(entry) == ["value_adjusted"] and codes_of(state, "bob") == ["dead", "unconscious"]
    assert state["awaiting"][-1] == {"actor": GM, "actions": ["end_combat"], "reason": "one_side_standing"}
