"""Game-master controls in Sistema +2d6: adjust, modify, override, condition, join, leave, the end."""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction, InvalidInput

from ..rules_helpers import codes, combatant, params, start, step
from .fixtures import ANA_FIRST, RULESET, ana, bruno

GM = "gm"


@pytest.fixture
def fight():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST)  # Ana 15 acts first, then Bruno 5
    return state


def ana_test(dice, difficulty=10):
    return {"type": "test", "actor": "ana", "attribute": "DES", "difficulty": difficulty, "dice": dice}


def test_adjust_sets_and_changes_values_logged_with_the_gm_as_author(fight):
    state, entry = step(
        fight,
        {
            "type": "adjust",
            "actor": GM,
            "target": "bruno",
            "set": {"pv": 3},
            "change": {"death_failures": 2},
            "reason": "poison",
        },
    )
    assert combatant(state, "bruno")["pv"] == 3 and combatant(state, "bruno")["death_failures"] == 2
    assert params(entry, "value_adjusted") == {
        "target": "bruno",
        "value": "pv",
        "old": 15,
        "new": 3,
        "author": GM,
        "reason": "poison",
    }
    assert params(entry, "value_adjusted", 1)["new"] == 2
    assert entry["action"]["actor"] == GM and state["awaiting"] == fight["awaiting"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"set": {"sheet": 1}}, "set.sheet"),
        ({"set": {"mana": 1}}, "set.mana"),
        ({"set": {"pv": "full"}}, "set.pv"),
        ({"change": {"name": 1}}, "change.name"),
        ({}, "set"),
    ],
)
def test_adjust_refusals_name_the_field_and_change_nothing(fight, body, field):
    before = repr(fight)
    with pytest.raises(InvalidAction) as refused:
        step(fight, {"type": "adjust", "actor": GM, "target": "bruno", **body})
    assert refused.value.field == field and repr(fight) == before


def test_a_player_cannot_send_a_gm_action(fight):
    with pytest.raises(ActionNotAllowed) as refused:
        step(fight, {"type": "modify", "actor": "ana", "target": "ana", "value": 3})
    assert refused.value.field == "actor"


def test_a_modifier_for_one_round_applies_to_every_roll_then_expires_when_round_2_begins(fight):
    state, entry = step(fight, {"type": "modify", "actor": GM, "target": "ana", "value": 2, "rounds": 1})
    assert params(entry, "modifier_applied") == {"target": "ana", "value": 2, "rounds": 1, "author": GM, "reason": None}
    state, entry = step(state, ana_test([2, 3]))  # DES 3 + 2 + 3 + gm 2 = 10
    assert (
        params(entry, "test_rolled")["modifiers"] == {"DES": 3, "gm": 2} and params(entry, "test_rolled")["total"] == 10
    )
    assert [c["code"] for c in combatant(state, "ana")["conditions"]] == ["modifier"]
    state, entry = step(state, {"type": "pass", "actor": "bruno"})  # round 2 begins
    assert params(entry, "round_started") == {"round": 2}
    assert params(entry, "condition_expired") == {"combatant": "ana", "condition": "modifier"}
    state, entry = step(state, ana_test([2, 3]))
    assert params(entry, "test_rolled")["modifiers"] == {"DES": 3}


def test_a_next_roll_modifier_is_used_up_by_that_roll(fight):
    state, _ = step(fight, {"type": "modify", "actor": GM, "target": "ana", "value": -4})
    state, entry = step(state, ana_test([2, 3]))
    assert params(entry, "test_rolled")["modifiers"]["gm"] == -4
    assert params(entry, "condition_expired") == {"combatant": "ana", "condition": "modifier"}
    assert combatant(state, "ana")["conditions"] == []


def test_override_decides_the_next_roll(fight):
    state, entry = step(fight, {"type": "override", "actor": GM, "target": "ana", "result": "success"})
    assert params(entry, "result_overridden")["result"] == "success"
    state, entry = step(state, ana_test([1, 2], difficulty=30))  # 3 + 3 = 6 < 30, but the GM said success
    assert params(entry, "test_rolled")["success"] is True
    state, entry = step(state, {"type": "pass", "actor": "bruno"})
    state, entry = step(state, ana_test([1, 2], difficulty=30))
    assert params(entry, "test_rolled")["success"] is False


def test_a_gm_condition_for_two_rounds_starts_and_ends_on_time(fight):
    state, entry = step(
        fight, {"type": "condition", "actor": GM, "target": "bruno", "code": "unconscious", "rounds": 2}
    )
    assert params(entry, "condition_added") == {
        "target": "bruno",
        "condition": "unconscious",
        "rounds": 2,
        "author": GM,
        "reason": None,
    }
    assert combatant(state, "bruno")["conditions"][0]["ends"] == {"round": 3}
    state, entry = step(state, {"type": "pass", "actor": "ana"})  # Bruno cannot act: round 2 begins
    assert params(entry, "round_started") == {"round": 2} and "condition_expired" not in codes(entry)
    state, entry = step(state, {"type": "pass", "actor": "ana"})
    assert params(entry, "round_started") == {"round": 3}
    assert params(entry, "condition_expired") == {"combatant": "bruno", "condition": "unconscious"}
    assert state["awaiting"][0]["actor"] == "ana"


def test_a_gm_condition_is_removed_and_unknown_ones_refused(fight):
    state, _ = step(fight, {"type": "condition", "actor": GM, "target": "bruno", "code": "dying"})
    assert state["awaiting"] == [{"actor": "ana", "actions": ["attack", "stabilize", "test", "pass"], "reason": "turn"}]
    state, entry = step(state, {"type": "condition", "actor": GM, "target": "bruno", "code": "dying", "remove": True})
    assert params(entry, "condition_removed")["condition"] == "dying" and combatant(state, "bruno")["conditions"] == []
    with pytest.raises(InvalidAction) as refused:
        step(state, {"type": "condition", "actor": GM, "target": "bruno", "code": "frenzy"})
    assert refused.value.field == "code"


def test_rule_conditions_start_and_end_dying_then_stable(fight):
    state, entry = step(fight, {"type": "adjust", "actor": GM, "target": "bruno", "set": {"pv": 2}})
    state, entry = step(
        state,
        {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "difficulty": 2, "dice": [3, 3, 1]},
    )
    assert {"dying", "unconscious"} <= {c["code"] for c in combatant(state, "bruno")["conditions"]}
    assert next(c for c in combatant(state, "bruno")["conditions"] if c["code"] == "dying")["start"] == {"round": 1}
    state, entry = step(state, {"type": "death_test", "actor": "bruno", "dice": [6, 6]})
    assert "stabilised" in codes(entry)
    assert "dying" not in {c["code"] for c in combatant(state, "bruno")["conditions"]}


def test_a_newcomer_rolls_initiative_and_takes_its_place(fight):
    carla = ana(id="carla", name="Carla", attributes={"FOR": 1, "DES": 2, "CON": 1})
    state, entry = step(fight, {"type": "join", "actor": GM, "combatant": carla, "dice": [4, 4]})  # 2 + 0 + 8 = 10
    assert params(entry, "joined") == {"combatant": "carla", "side": "heroes", "author": GM, "reason": None}
    assert params(entry, "initiative_rolled") == {
        "combatant": "carla",
        "dice": [4, 4],
        "des": 2,
        "bonus": 0,
        "total": 10,
    }
    assert state["order"] == [["ana"], ["carla"], ["bruno"]]
    state, _ = step(state, {"type": "pass", "actor": "ana"})
    assert state["awaiting"][0]["actor"] == "carla"


def test_a_join_with_a_bad_sheet_names_the_field(fight):
    with pytest.raises(InvalidInput) as refused:
        step(
            fight,
            {
                "type": "join",
                "actor": GM,
                "combatant": {"id": "ana", "name": "Ana 2", "side": "x", "attributes": {"FOR": 1, "DES": 1, "CON": 1}},
            },
        )
    assert "combatant" in refused.value.messages


def test_leaving_ends_the_turn_of_who_left_and_auto_end_ends_the_fight():
    state, _ = start(RULESET, [ana(), bruno()], dice=ANA_FIRST, options={"auto_end": True})
    state, entry = step(state, {"type": "leave", "actor": GM, "target": "bruno", "how": "flight"})
    assert params(entry, "left_fight") == {"target": "bruno", "how": "flight", "author": GM, "reason": None}
    assert state["status"] == "over" and codes(entry)[-1] == "combat_summary"
    with pytest.raises(ActionNotAllowed):
        step(state, {"type": "pass", "actor": "ana"})  # the fight is over


def test_a_leaver_is_no_longer_awaited(fight):
    state, _ = step(fight, {"type": "pass", "actor": "ana"})
    state, _ = step(state, {"type": "leave", "actor": GM, "target": "bruno", "how": "surrender"})
    assert state["round"] == 2 and state["awaiting"][0]["actor"] == "ana"
    with pytest.raises(ActionNotAllowed):
        step(state, {"type": "pass", "actor": "bruno"})


def test_a_narrative_condition_is_shown_expires_and_has_no_rules_effect(fight):
    # "prone" is no condition of these rules: refused as a code, pointing to label; nothing changes.
    before = repr(fight)
    with pytest.raises(InvalidAction) as refused:
        step(fight, {"type": "condition", "actor": GM, "target": "ana", "code": "prone"})
    assert refused.value.field == "code" and "label" in str(refused.value) and repr(fight) == before
    state, entry = step(
        fight, {"type": "condition", "actor": GM, "target": "ana", "label": "knocked down", "rounds": 1}
    )
    assert params(entry, "narrative_condition_added") == {
        "target": "ana",
        "label": "knocked down",
        "rounds": 1,
        "author": GM,
        "reason": None,
    }
    mark = combatant(state, "ana")["conditions"][0]
    assert (mark["code"], mark["label"], mark["ends"], mark["modifiers"]) == (
        "narrative",
        "knocked down",
        {"round": 2},
        {},
    )
    assert state["awaiting"] == fight["awaiting"]  # no rules effect: Ana still acts
    # Marked again: it starts over, one mark only.
    state, _ = step(state, {"type": "condition", "actor": GM, "target": "ana", "label": "knocked down", "rounds": 2})
    assert [c["ends"] for c in combatant(state, "ana")["conditions"]] == [{"round": 3}]
    state, entry = step(
        state, {"type": "condition", "actor": GM, "target": "ana", "label": "knocked down", "remove": True}
    )
    assert params(entry, "narrative_condition_removed") == {
        "target": "ana",
        "label": "knocked down",
        "author": GM,
        "reason": None,
    }
    assert combatant(state, "ana")["conditions"] == []


def test_a_narrative_condition_expires_under_its_label(fight):
    state, _ = step(
        fight, {"type": "condition", "actor": GM, "target": "bruno", "label": "blinded by smoke", "rounds": 1}
    )
    state, _ = step(state, {"type": "pass", "actor": "ana"})
    state, entry = step(state, {"type": "pass", "actor": "bruno"})  # round 2 begins: the mark ends
    assert params(entry, "condition_expired") == {"combatant": "bruno", "condition": "blinded by smoke"}


def test_a_narrative_condition_takes_no_modifier_and_needs_code_or_label(fight):
    for body in ({"label": "dazed", "modifier": -2}, {}, {"code": "dying", "label": "dazed"}):
        with pytest.raises(InvalidInput):
            step(fight, {"type": "condition", "actor": GM, "target": "ana", **body})


@pytest.mark.parametrize("auto_end", [True, False])
def test_a_fight_decided_in_the_first_round_lasted_one_round(auto_end):
    """Issue 27 item 14: the round the killing blow begins is never played; the summary says 1, not 2."""
    frail = bruno(attributes={"FOR": 1, "DES": 2, "CON": 1})  # PV 10 + CON 1 + FOR 1 = 12, dead at -2
    state, _ = start(RULESET, [ana(), frail], dice=ANA_FIRST, options={"auto_end": auto_end})
    # 6+6 hits; 1d6+3 = 6+3 = 9, doubled 18: PV 12 - 18 = -6 <= -2, dead. Bruno's dodge 1+1 and the damage die 6.
    attack = {"type": "attack", "actor": "ana", "target": "bruno", "weapon": "pistola", "dice": [6, 6, 1, 1, 6]}
    state, entry = step(state, {**attack, "defense": {"skill": "Esquiva"}})
    assert "died" in codes(entry) and state["round"] == 2
    if not auto_end:
        state, entry = step(state, {"type": "end_combat", "actor": GM})
    assert params(entry, "combat_summary")["rounds"] == 1
