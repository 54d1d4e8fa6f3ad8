"""A GM's change of Blessures has the rules' consequences, exactly as a hit would.

Bob: 20 Blessures, Endurance 3. Losing more than remain is a Blessure critique:
out of action, and dead when the excess exceeds Endurance (critical_wound's default).
"""

from ..rules_helpers import codes, combatant, params
from .fixtures import duel
from .test_gm import GM, gm


def conditions(state):
    return sorted(c["code"] for c in combatant(state, "bob")["conditions"])


def test_down_to_zero_blessures_is_no_critical_wound():
    state, entry = gm(
        duel()[0], "adjust", target="bob", change={"blessures": -20}
    )  # 20 - 20 = 0: all lost, none beyond
    assert codes(entry) == ["value_adjusted"] and conditions(state) == []


def test_beyond_the_blessures_left_a_critical_wound_puts_out_of_action():
    state, entry = gm(
        duel()[0], "adjust", target="bob", change={"blessures": -22}
    )  # 22 lost, 20 left: excess 2 <= Endurance 3
    assert params(entry, "critical_wound") == {"target": "bob", "amount": 22, "excess": 2, "endurance": 3}
    assert params(entry, "out_of_action") == {"target": "bob"}
    assert conditions(state) == ["out_of_action"] and combatant(state, "bob")["blessures"] == 0


def test_an_excess_beyond_endurance_kills():
    state, entry = gm(duel()[0], "adjust", target="bob", change={"blessures": -24})  # excess 4 > Endurance 3
    assert params(entry, "died") == {"target": "bob"} and conditions(state) == ["dead", "out_of_action"]


def test_healed_above_zero_the_fighter_is_back_in_action():
    state, _ = gm(duel()[0], "adjust", target="bob", change={"blessures": -22})
    state, entry = gm(state, "adjust", target="bob", set={"blessures": 5})
    assert params(entry, "recovered") == {"target": "bob"} and conditions(state) == []
    assert all(a["actor"] != GM for a in state["awaiting"])  # two sides stand again


def test_the_older_blessures_field_has_the_same_consequences():
    state, entry = gm(duel()[0], "adjust", combatant="bob", blessures=0)
    assert codes(entry) == ["adjusted"] and conditions(state) == []
    state, _ = gm(state, "adjust", target="bob", change={"blessures": -1})  # 1 lost, 0 left: excess 1
    assert conditions(state) == ["out_of_action"]
    state, entry = gm(state, "adjust", combatant="bob", blessures=4)
    assert codes(entry) == ["adjusted", "recovered"] and conditions(state) == []


def test_the_dead_stay_dead_when_blessures_are_raised():
    state, _ = gm(duel()[0], "adjust", target="bob", change={"blessures": -24})
    state, entry = gm(state, "adjust", target="bob", set={"blessures": 20})
    assert codes(entry) == ["value_adjusted"] and conditions(state) == ["dead", "out_of_action"]
