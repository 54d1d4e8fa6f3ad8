"""Seed 003, "Surprise"."""

import pytest

from service.rules.errors import ActionNotAllowed

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import NO_STRESS, RULESET, ana, attack_entry, bob, declare, refused


def test_vigilance_minus_the_difficulty_lowered_by_sixth_sense_and_guard():
    # Difficulty 40 - 6th sense 2 x 10 = 20, - on guard 5 = 15; chance 50 - 15 = 35.
    sheets = [ana(sixth_sense=2, on_guard=5), bob(ambusher=True)]
    state, entry = start(RULESET, sheets, dice=[35], options={**NO_STRESS, "surprise_difficulty": 40})
    assert params(entry, "surprise_test") == {
        "combatant": "ana",
        "difficulty": 40,
        "sixth_sense": 20,
        "on_guard": 5,
        "effective": 15,
        "roll": 35,
        "chance": 35,
        "success": True,
        "critical": False,
        "fumble": False,
    }
    assert "surprised" not in codes(entry)


def test_sixth_sense_cancels_the_difficulty_at_most():
    # 6th sense 5 x 10 = 50 against a difficulty of 30: the difficulty becomes 0, never -20.
    sheets = [ana(sixth_sense=5, on_guard=10), bob(ambusher=True)]
    _, entry = start(RULESET, sheets, dice=[51], options={**NO_STRESS, "surprise_difficulty": 30})
    test = params(entry, "surprise_test")
    assert (test["effective"], test["chance"], test["success"]) == (0, 50, False)
    assert params(entry, "surprised") == {"combatant": "ana"}


def test_sixth_sense_step_option_and_sheet_difficulty():
    sheets = [ana(sixth_sense=1, surprise_difficulty=25), bob(ambusher=True)]
    _, entry = start(RULESET, sheets, dice=[40], options={**NO_STRESS, "sixth_sense_step": 5})
    assert params(entry, "surprise_test")["effective"] == 20
    assert params(entry, "surprise_test")["chance"] == 30


def test_ambushers_and_untested_fights_roll_no_surprise():
    _, entry = start(RULESET, [ana(), bob()], options=NO_STRESS)
    assert "surprise_test" not in codes(entry)


def _surprised_bob(actions=1):
    # Bob fails (90 > 50 - 20); Ana sets the ambush.
    sheets = [ana(ambusher=True), bob(actions=actions)]
    return start(RULESET, sheets, dice=[90], options={**NO_STRESS, "surprise_difficulty": 20})


def test_a_surprised_combatant_loses_its_first_action():
    state, entry = _surprised_bob()
    assert params(entry, "surprised") == {"combatant": "bob"}
    # Bob (40) declares first, but has nothing left to declare in round 1.
    assert params(entry, "action_lost") == {"combatant": "bob", "number": 1}
    assert state["awaiting"] == [{"actor": "ana", "actions": ["declare"], "reason": "declaration"}]
    assert combatant(state, "bob")["conditions"] == [
        {
            "code": "surprised",
            "source": "rules",
            "start": {"round": 1},
            "ends": {"event": "actions_spent"},
            "modifiers": {},
            "lose": 0,
            "defend": 1,
        }
    ]


def test_the_next_action_of_a_surprised_combatant_must_be_defensive():
    state, _ = _surprised_bob()
    state, _ = declare(state, "ana", {"kind": "hold"})
    # Round 1 waits for Ana's held action; she gives it up and round 2 opens with Bob.
    assert state["awaiting"] == [{"actor": "ana", "actions": ["attack", "forgo"], "reason": "held_action"}]
    state, entry = step(state, {"type": "forgo", "actor": "ana"})
    assert params(entry, "held_action_given_up") == {"actor": "ana"}
    assert state["round"] == 2 and state["awaiting"][0]["actor"] == "bob"
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [attack_entry("ana")]}, ActionNotAllowed)
    assert error.field == "actions.0.kind"
    state, entry = declare(state, "bob", {"kind": "defend"})
    assert combatant(state, "bob")["conditions"] == []


def test_with_two_actions_the_second_is_the_defensive_one():
    state, entry = _surprised_bob(actions=2)
    assert state["awaiting"][0]["actor"] == "bob"
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [attack_entry("ana")]}, ActionNotAllowed)
    assert error.field == "actions.0.kind"
    state, entry = declare(state, "bob", {"kind": "flee"})
    # The action left is the second one, at I - 10.
    assert params(entry, "declared") == {"actor": "bob", "kinds": ["flee"], "ranks": [30]}


@pytest.mark.parametrize("count", [0, 2])
def test_declaring_the_wrong_number_of_actions_is_invalid(count):
    from service.rules.errors import InvalidAction

    state, _ = start(RULESET, [ana(), bob()], options=NO_STRESS)
    error = refused(state, {"type": "declare", "actor": "bob", "actions": [{"kind": "hold"}] * count}, InvalidAction)
    assert error.field == "actions"
