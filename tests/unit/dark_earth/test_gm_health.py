"""A GM's change of PV has the rules' consequences, exactly as a blow would.

The Goule has 10 PV and RES 3: 0 PV is a coma, -RES = -3 PV death (dk-gone:sante).
"""

from ..rules_helpers import codes, combatant, params
from .test_gm import GM, duel, gm


def conditions(state):
    return sorted(c["code"] for c in combatant(state, "goule")["conditions"])


def test_zero_pv_is_a_coma():
    state, entry = gm(duel(), "adjust", target="goule", change={"pv": -10})  # 10 - 10 = 0
    assert params(entry, "fell_into_coma") == {"target": "goule", "pv": 0} and conditions(state) == ["coma"]


def test_minus_res_pv_is_death_even_for_one_in_a_coma():
    state, _ = gm(duel(), "adjust", target="goule", set={"pv": 0})
    state, entry = gm(state, "adjust", target="goule", change={"pv": -3})  # -3 <= -RES 3
    assert params(entry, "died") == {"target": "goule", "pv": -3} and conditions(state) == ["dead"]


def test_healed_above_zero_out_of_the_coma_and_allocating_again():
    state, _ = gm(duel(), "adjust", target="goule", set={"pv": 0})
    assert [a["actor"] for a in state["awaiting"]] == ["kael", GM]
    state, entry = gm(state, "adjust", target="goule", set={"pv": 4})
    assert params(entry, "recovered") == {"target": "goule"} and conditions(state) == []
    assert [a["actor"] for a in state["awaiting"]] == ["kael", "goule"]


def test_the_dead_stay_dead_when_pv_are_raised():
    state, _ = gm(duel(), "adjust", target="goule", set={"pv": -3})
    state, entry = gm(state, "adjust", target="goule", set={"pv": 10})
    assert codes(entry) == ["value_adjusted"] and conditions(state) == ["dead"]
