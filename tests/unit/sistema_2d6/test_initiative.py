"""Seed 004, "Iniciativa" and "Fim do Turno"."""

import pytest

from service.rules.errors import NotYourTurn

from ..rules_helpers import params, start, step
from .fixtures import ANA_FIRST, RULESET, ana, bruno


def test_initiative_is_des_plus_2d6_plus_the_des_bonus():
    state, entry = start(RULESET, [ana(), bruno()], dice=ANA_FIRST)
    assert params(entry, "initiative_rolled", 0) == {
        "combatant": "ana",
        "dice": [6, 5],
        "des": 3,
        "bonus": 1,
        "total": 15,
    }
    assert params(entry, "initiative_rolled", 1)["total"] == 5
    assert state["order"] == [["ana"], ["bruno"]]
    # Nobody is dying: stabilize is not offered.
    assert state["awaiting"] == [{"actor": "ana", "actions": ["attack", "test", "pass"], "reason": "turn"}]


@pytest.mark.parametrize(("des", "bonus"), [(2, 0), (3, 1), (4, 2), (5, 3), (6, 6), (7, 8), (8, 10), (9, 12), (10, 14)])
def test_initiative_bonus_table(des, bonus):
    sheet = ana(attributes={"FOR": 2, "DES": des, "CON": 2})
    _, entry = start(RULESET, [sheet, bruno()], dice=[1, 1, 1, 1])
    assert params(entry, "initiative_rolled", 0)["bonus"] == bonus
    assert params(entry, "initiative_rolled", 0)["total"] == des + bonus + 2


def test_equal_totals_act_simultaneously_in_any_order():
    # Ana 3+1+(3+1)=8, Bruno 2+0+(3+3)=8: one group, either may act first.
    state, _ = start(RULESET, [ana(), bruno()], dice=[3, 1, 3, 3])
    assert state["order"] == [["ana", "bruno"]]
    assert {w["actor"] for w in state["awaiting"]} == {"ana", "bruno"}
    state, _ = step(state, {"type": "pass", "actor": "bruno"})
    assert [w["actor"] for w in state["awaiting"]] == ["ana"]
    state, entry = step(state, {"type": "pass", "actor": "ana"})
    assert params(entry, "round_started") == {"round": 2}
    assert {w["actor"] for w in state["awaiting"]} == {"ana", "bruno"}


def test_one_action_per_turn_and_the_order_is_kept_next_round():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST)
    with pytest.raises(NotYourTurn):
        step(state, {"type": "pass", "actor": "bruno"})
    state, _ = step(state, {"type": "pass", "actor": "ana"})
    with pytest.raises(NotYourTurn):
        step(state, {"type": "pass", "actor": "ana"})
    state, entry = step(state, {"type": "pass", "actor": "bruno"})
    assert state["round"] == 2
    assert state["order"] == [["ana"], ["bruno"]]
    assert state["awaiting"][0]["actor"] == "ana"


def test_initiative_each_round_option_rerolls():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST, options={"initiative_each_round": True})
    state, _ = step(state, {"type": "pass", "actor": "ana"})
    # Bruno passes; the new round's initiative: Ana 3+1+2=6, Bruno 2+0+12=14.
    state, entry = step(state, {"type": "pass", "actor": "bruno", "dice": [1, 1, 6, 6]})
    assert state["order"] == [["bruno"], ["ana"]]
    assert params(entry, "initiative_rolled", 1)["total"] == 14


def test_gm_ends_the_fight():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST)
    state, entry = step(state, {"type": "end_combat", "actor": "gm"})
    assert state["status"] == "over" and state["awaiting"] == []
    assert params(entry, "combat_ended") == {"author": "gm", "reason": None}


def test_a_simultaneous_member_put_down_in_its_own_group_still_acts():
    # Ana and Bruno tie at 8; Ana acts first and drops Bruno to -1 (dying).
    state, _ = start(RULESET, [ana(), bruno(pv=4)], dice=[3, 1, 3, 3])
    state, _ = step(
        state,
        {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "difficulty": 2, "dice": [3, 3, 2]},
    )
    assert "dying" in [x["code"] for x in next(c for c in state["combatants"] if c["id"] == "bruno")["conditions"]]
    # Simultaneous: Bruno still strikes back this turn, then makes death tests.
    assert state["awaiting"] == [
        {"actor": "bruno", "actions": ["attack", "test", "pass"], "reason": "turn"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]
    state, entry = step(
        state,
        {"type": "attack", "actor": "bruno", "target": "ana", "weapon": "faca", "difficulty": 2, "dice": [3, 3, 4]},
    )
    # Faca FOR+1 at FOR 3, the seed's reading: 1d6 + 4 + 1 = 4 + 5 = 9; Ana 14 - 9 = 5.
    assert params(entry, "damage_taken") == {"target": "ana", "amount": 9, "pv": 5, "lethal": True}
    assert params(entry, "round_started") == {"round": 2}
    assert state["awaiting"] == [
        {"actor": "ana", "actions": ["attack", "stabilize", "test", "pass"], "reason": "turn"},
        {"actor": "bruno", "actions": ["death_test"], "reason": "death_test"},
        {"actor": "gm", "actions": ["end_combat"], "reason": "one_side_standing"},
    ]
