"""Notes 3.2, "Perte de PV et table des morts violentes": the death table,
its effects and the loss of consciousness.

Kira's vibro-knife deals 3 + 4 = 7 to an unarmoured Garde. Wound dice: death
table d100, then the unconsciousness duration; or CON x 5 d100, then 1D10 hours.
When Garde is down and Kira has acted, round 2 starts: Kira's initiative die."""

import pytest

from service.rules.errors import InvalidAction

from ..rules_helpers import codes, combatant, params, step
from .fixtures import droid, exchange, fight, garde

HIT = [30, 3, 4]


@pytest.mark.parametrize(
    ("pv", "roll", "column", "result", "more_dice"),
    [
        (7, 10, 0, "very_light", []),
        (7, 11, 0, "light", [1, 1, 1, 5]),
        (7, 90, 0, "very_serious", [3, 5]),
        (7, 91, 0, "dead", [5]),
        (6, 10, -1, "light", [1, 1, 1, 5]),
        (6, 33, -1, "serious", [2, 5]),
        (6, 67, -1, "dead", [5]),
        (5, 33, -2, "very_serious", [3, 5]),
        (5, 34, -2, "dead", [5]),
        (4, 1, -3, "very_serious", [3, 5]),
        (4, 11, -3, "dead", [5]),
        (2, 5, -3, "very_serious", [3, 5]),  # -5 PV reads the -3 column
    ],
)
def test_death_table_lookups(pv, roll, column, result, more_dice):
    state, entry = exchange(fight(garde_sheet=garde(armour=0, pv=pv)), dice=[*HIT, roll, *more_dice])
    assert params(entry, "death_table") == {
        "target": "garde",
        "roll": roll,
        "pv": pv - 7,
        "column": column,
        "result": result,
    }
    target = combatant(state, "garde")
    assert ("dead" in [c["code"] for c in target["conditions"]]) is (result == "dead")


def test_a_light_wound_costs_5_san_and_3d4_minutes_unconscious():
    state, entry = exchange(fight(garde_sheet=garde(armour=0, pv=7, san=50)), dice=[*HIT, 11, 1, 2, 3, 5])
    assert params(entry, "wound") == {
        "target": "garde",
        "severity": "light",
        "san_loss": 5,
        "san": 45,
        "skill_loss": 2,
        "limb_lost": False,
    }
    assert params(entry, "fell_unconscious") == {"target": "garde", "amount": 6, "unit": "minutes"}
    assert combatant(state, "garde")["san"] == 45
    assert state["awaiting"][0]["actor"] == "kira"


def test_a_very_light_wound_leaves_the_character_standing():
    state, entry = exchange(fight(garde_sheet=garde(armour=0, pv=7, san=50)), dice=[*HIT, 5])
    assert params(entry, "wound")["san"] == 48
    assert state["awaiting"][0]["actor"] == "garde"


def test_a_very_serious_wound_loses_a_limb_and_1d10_hours():
    _, entry = exchange(fight(garde_sheet=garde(armour=0, pv=7)), dice=[*HIT, 80, 7, 5])
    assert params(entry, "wound")["limb_lost"] is True
    assert params(entry, "fell_unconscious") == {"target": "garde", "amount": 7, "unit": "hours"}


def test_fewer_than_3_pv_calls_for_con_x5_or_1d10_hours_unconscious():
    # 9 - 7 = 2 PV: CON 13 x 5 = 65, 70 fails; 1D10 4 hours; round 2, Kira 5.
    state, entry = exchange(fight(garde_sheet=garde(armour=0, pv=9)), dice=[*HIT, 70, 4, 5])
    assert params(entry, "consciousness_test")["level"] == "failure"
    assert params(entry, "fell_unconscious") == {"target": "garde", "amount": 4, "unit": "hours"}
    assert state["awaiting"][0]["actor"] == "kira"


def test_losing_half_the_pv_in_one_round_calls_for_con_x5():
    # Two hits of 3 on 12 PV: the second brings the round's loss to 6 = half.
    sheet = garde(armour=4, pv=12)
    state = fight(garde_sheet=sheet)
    state, entry = exchange(state, {"attacks": 2}, dice=[30, 3, 4])
    assert "consciousness_test" not in codes(entry)
    state, entry = exchange(state, dice=[30, 3, 4, 65])
    assert params(entry, "consciousness_test") == {
        "target": "garde",
        "con": 13,
        "roll": 65,
        "needed": 65,
        "level": "success",
    }


def test_droids_make_no_consciousness_test():
    state = fight(others=[droid(armour=0, pv=9)], dice=[9, 2, 1])
    _, entry = exchange(state, {"target": "r2"}, {"kind": "none", "actor": "r2"}, dice=HIT)
    assert "consciousness_test" not in codes(entry)
    assert params(entry, "damage_taken") == {"target": "r2", "amount": 7, "pv": 2}


def test_round_seconds_turns_timed_states_into_rounds_that_end():
    # 10-minute rounds: paralysed 15 minutes = 2 rounds, from round 1 to round 3.
    state = fight(options={"round_seconds": 600})
    state, entry = exchange(state, {"weapon": "para", "mode": "paralyse"}, dice=[30, 2, 40, 1, 2, 3, 4, 5, 6])
    paralysed = combatant(state, "garde")["conditions"][0]
    assert paralysed["lasts"] == {"dice": "5d6", "value": 15, "unit": "minutes", "rounds": 2}
    assert paralysed["ends"] == {"round": 3}
    state, entry = step(state, {"type": "pass", "actor": "kira", "dice": [6, 1]})
    assert params(entry, "condition_expired") == {"combatant": "garde", "condition": "paralysed"}
    assert params(entry, "round_started") == {"round": 3}
    assert combatant(state, "garde")["round"]["initiative"] == 12


def test_a_helpless_target_cannot_react_and_is_hit_at_once():
    state, _ = exchange(fight(garde_sheet=garde(armour=0, pv=7)), dice=[*HIT, 11, 1, 1, 1, 5])
    state, entry = step(
        state, {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "dice": [20, 4, 4, 40, 3]}
    )
    assert "awaiting_reaction" not in codes(entry)
    assert params(entry, "death_table")["result"] == "dead"
    assert combatant(state, "garde")["pv"] == -8


def test_when_nobody_can_act_the_gm_is_awaited_and_lifting_a_state_resumes_the_fight():
    state, _ = exchange(fight(garde_sheet=garde(armour=0, pv=7)), dice=[*HIT, 11, 1, 1, 1, 5])
    combatant(state, "kira")["conditions"].append({"code": "knocked_out"})
    with pytest.raises(InvalidAction) as refused:
        step(state, {"type": "clear_condition", "actor": "gm", "target": "garde", "condition": "stunned"})
    assert refused.value.field == "condition"
    state, entry = step(state, {"type": "clear_condition", "actor": "gm", "target": "garde", "condition": "wound"})
    assert state["awaiting"] == [
        {"actor": "gm", "actions": ["end_combat", "clear_condition"], "reason": "nobody_standing"}
    ]
    state, entry = step(
        state, {"type": "clear_condition", "actor": "gm", "target": "garde", "condition": "unconscious", "dice": [4]}
    )
    assert params(entry, "condition_cleared") == {
        "target": "garde",
        "condition": "unconscious",
        "by": "gm",
        "author": "gm",
        "reason": None,
    }
    assert params(entry, "round_started") == {"round": 3}
    assert state["awaiting"][0]["actor"] == "garde"
