"""A GM's change of PV has the rules' consequences, exactly as a hit would.

Garde: 14 PV, CON 13. At 0 PV or below the death table is rolled (column by
PV: 0, -1, -2, -3 and below); above 0 but under 3 PV, a CON x 5 test (65) or
1D10 hours unconscious. Raising PV undoes nothing: no state of these rules
ends with PV.
"""

from ..rules_helpers import codes, combatant, params
from .fixtures import fight
from .test_gm import gm


def conditions(state):
    return sorted(c["code"] for c in combatant(state, "garde")["conditions"])


def test_down_to_zero_pv_rolls_the_death_table_and_its_unconsciousness():
    # Column "0", d100 50 (34-66): serious; unconscious 1D6 = 3 hours.
    state, entry = gm(fight(), "adjust", target="garde", change={"pv": -14}, dice=[50, 3])
    assert params(entry, "death_table") == {"target": "garde", "roll": 50, "pv": 0, "column": 0, "result": "serious"}
    assert params(entry, "fell_unconscious") == {"target": "garde", "amount": 3, "unit": "hours"}
    assert conditions(state) == ["unconscious", "wound"]


def test_far_below_zero_the_death_table_can_kill():
    # -16 PV reads the "-3 and below" column; d100 95 (91-100): dead.
    state, entry = gm(fight(), "adjust", target="garde", set={"pv": -16}, dice=[95])
    assert params(entry, "death_table")["result"] == "dead" and params(entry, "died") == {"target": "garde"}
    assert conditions(state) == ["dead"]


def test_under_3_pv_calls_for_the_con_x5_test():
    # 14 -> 2 PV: CON 13 x 5 = 65; 80 fails: unconscious 1D10 = 4 hours.
    state, entry = gm(fight(), "adjust", target="garde", set={"pv": 2}, dice=[80, 4])
    assert (params(entry, "consciousness_test")["roll"], params(entry, "consciousness_test")["needed"]) == (80, 65)
    assert params(entry, "fell_unconscious") == {"target": "garde", "amount": 4, "unit": "hours"}


def test_raising_pv_ends_no_state():
    state, _ = gm(fight(), "adjust", target="garde", change={"pv": -14}, dice=[50, 3])
    state, entry = gm(state, "adjust", target="garde", set={"pv": 10})
    assert codes(entry) == ["value_adjusted"] and conditions(state) == ["unconscious", "wound"]
