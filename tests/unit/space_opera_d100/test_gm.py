"""Game-master controls in the space opera d100: adjust, modify, override, conditions, join, leave, the end.

Kira (DEX 14) and Garde (DEX 11) roll D12 + DEX each round (KIRA_FIRST: 23 and 13).
Kira's vibro-knife attack needs Armes blanches 60.
"""

import pytest

from service.rules.errors import ActionNotAllowed, InvalidAction

from ..rules_helpers import codes, combatant, params, step
from .fixtures import KIRA_FIRST, attack, exchange, fight, garde, kira, react

GM = "gm"
STUN = {"weapon": "matraque", "mode": "stun"}


def gm(state, kind, **fields):
    return step(state, {"type": kind, "actor": GM, **fields})


def garde_passes(state, dice=()):
    """Garde ends his turn; the round is over, so the next one rolls initiative (two D12)."""
    return step(state, {"type": "pass", "actor": "garde", "dice": list(dice)})


def test_adjust_sets_and_changes_values_logged_with_the_gm_as_author():
    state, entry = gm(fight(), "adjust", target="garde", set={"pv": 5}, change={"pv_max": 2}, reason="old wound")
    assert params(entry, "value_adjusted") == {
        "target": "garde",
        "value": "pv",
        "old": 14,
        "new": 5,
        "author": GM,
        "reason": "old wound",
    }
    assert combatant(state, "garde")["pv"] == 5 and combatant(state, "garde")["pv_max"] == 16
    with pytest.raises(InvalidAction) as refused:
        gm(state, "adjust", target="garde", set={"kind": 3})
    assert refused.value.field == "set.kind"


def test_a_modifier_for_one_round_applies_then_expires_when_round_2_begins():
    state, entry = gm(fight(), "modify", target="kira", value=10, rounds=1)
    assert params(entry, "modifier_applied") == {
        "target": "kira",
        "value": 10,
        "rounds": 1,
        "author": GM,
        "reason": None,
    }
    state, entry = exchange(state, dice=[65, 3, 4])  # 65 <= 60 + 10: a hit; 1d4 3 + vibro 4 - armour 4 = 3 PV
    assert params(entry, "attack_rolled")["needed"] == 70 and combatant(state, "garde")["pv"] == 11
    assert "condition_expired" not in codes(entry)
    state, entry = garde_passes(state, dice=KIRA_FIRST)
    assert params(entry, "round_started") == {"round": 2}
    assert params(entry, "condition_expired") == {"combatant": "kira", "condition": "modifier"}
    state, entry = exchange(state, dice=[65])
    assert params(entry, "attack_rolled")["needed"] == 60 and "attack_missed" in codes(entry)


def test_a_next_roll_modifier_is_used_up_by_that_roll_and_override_decides_one():
    state, _ = gm(fight(), "modify", target="kira", value=-30)
    state, _ = gm(state, "override", target="garde", result="failure")
    state, entry = attack(state)
    state, entry = react(state, "dodge", dice=[10, 35])  # Garde's dodge 10 <= 30, but the GM said failure
    assert params(entry, "dodge_rolled")["level"] == "failure"
    assert params(entry, "attack_rolled")["needed"] == 30  # 60 - 30, the dodge failed: no malus
    assert [e["params"]["condition"] for e in entry["events"] if e["code"] == "condition_expired"] == [
        "override",
        "modifier",
    ]
    assert combatant(state, "kira")["conditions"] == [] and combatant(state, "garde")["conditions"] == []


def test_stunned_knocked_out_for_rounds_with_round_seconds_then_awake():
    # Club 4: 30% stun, 20 stuns for 5 + 6 + 7 = 18 min; rounds of 10 min: 2 rounds, ends when round 3 begins.
    state = fight(garde_sheet=garde(armour=0), options={"round_seconds": 600})
    state, entry = exchange(state, STUN, dice=[30, 4, 20, 5, 6, 7, 1])  # round 2: only Kira rolls (1)
    knocked = next(c for c in combatant(state, "garde")["conditions"] if c["code"] == "knocked_out")
    assert knocked["ends"] == {"round": 3} and knocked["lasts"]["rounds"] == 2
    state, entry = step(state, {"type": "pass", "actor": "kira", "dice": KIRA_FIRST})
    assert params(entry, "round_started") == {"round": 3}
    assert params(entry, "condition_expired") == {"combatant": "garde", "condition": "knocked_out"}
    assert [p["combatant"] for p in (params(entry, "initiative_rolled", i) for i in range(2))] == ["kira", "garde"]


def test_paralysed_then_contracted_start_and_are_cleared():
    # Paralysing club: 30 hits; CON 13 x 1D4 1 = 13: 50 fails, paralysed 5D6 = 10 min.
    state, entry = exchange(fight(), {"weapon": "para", "mode": "paralyse"}, dice=[30, 1, 50, 2, 2, 2, 2, 2, 1])
    assert params(entry, "paralysed") == {"target": "garde", "minutes": 10}
    state, entry = gm(state, "clear_condition", target="garde", condition="paralysed")
    assert params(entry, "condition_cleared") == {
        "target": "garde",
        "condition": "paralysed",
        "by": GM,
        "author": GM,
        "reason": None,
    }
    state, entry = exchange(
        step(state, {"type": "pass", "actor": "kira", "dice": KIRA_FIRST})[0],
        {"weapon": "para", "mode": "paralyse"},
        dice=[30, 4, 20],
    )  # 13 x 4 = 52: 20 succeeds, the muscles contract
    assert "contracted" in codes(entry)
    state, entry = gm(state, "condition", target="garde", code="contracted", remove=True)
    assert (
        params(entry, "condition_removed")["condition"] == "contracted"
        and combatant(state, "garde")["conditions"] == []
    )


def test_off_balance_ends_at_the_next_test_and_a_lost_action_is_skipped():
    state, _ = gm(fight(), "condition", target="kira", code="off_balance")
    state, entry = exchange(state, dice=[90])
    assert params(entry, "attack_rolled")["modifiers"]["off_balance"] < 0
    assert "off_balance" not in [c["code"] for c in combatant(state, "kira")["conditions"]]
    state, entry = gm(state, "condition", target="garde", code="loses_next_action")
    assert params(entry, "action_lost") == {"combatant": "garde"}
    assert params(entry, "round_started") == {"round": 2} and combatant(state, "garde")["conditions"] == []


def test_an_unconscious_combatant_for_one_round_is_skipped_then_wakes_up():
    state, entry = gm(fight(), "condition", target="garde", code="unconscious", rounds=1)
    state, entry = step(state, {"type": "pass", "actor": "kira", "dice": [9, 2]})  # Garde cannot act: round 2
    assert params(entry, "round_started") == {"round": 2}
    assert params(entry, "condition_expired") == {"combatant": "garde", "condition": "unconscious"}
    assert [params(entry, "initiative_rolled", i)["combatant"] for i in range(2)] == ["kira", "garde"]


def test_a_rules_stun_on_a_gm_knocked_out_target_keeps_the_longer_state():
    state, _ = gm(fight(garde_sheet=garde(armour=0)), "condition", target="garde", code="knocked_out", rounds=1)
    state, entry = attack(state, dice=[30, 4, 20, 5, 6, 7, 1], **STUN)  # Garde is helpless: no reaction
    assert params(entry, "stunned")["minutes"] == 18
    knocked = [c for c in combatant(state, "garde")["conditions"] if c["code"] == "knocked_out"]
    assert (
        len(knocked) == 1 and knocked[0]["ends"] is None and knocked[0]["lasts"]["value"] == 18
    )  # the rest of the fight


def test_dead_by_the_gm_and_the_fight_goes_on_without_him():
    state, entry = gm(
        fight(others=[kira(id="zed", name="Zed", side="empire")], dice=[9, 2, 1]),
        "condition",
        target="garde",
        code="dead",
    )
    assert params(entry, "condition_added")["condition"] == "dead"
    with pytest.raises(ActionNotAllowed):
        attack(state)  # Garde is dead
    assert state["awaiting"][0]["actor"] == "kira"


def test_a_newcomer_rolls_d12_plus_dex_and_takes_his_place_in_this_round():
    zed = kira(id="zed", name="Zed", side="empire", attributes={"DEX": 10, "CON": 10})
    state, entry = gm(fight(), "join", combatant=zed, dice=[5])  # 5 + 10 = 15: after Kira 23, before Garde 13
    assert params(entry, "joined") == {"combatant": "zed", "side": "empire", "author": GM, "reason": None}
    assert params(entry, "initiative_rolled") == {"combatant": "zed", "die": 5, "dex": 10, "total": 15}
    state, _ = step(state, {"type": "pass", "actor": "kira"})
    assert state["awaiting"][0]["actor"] == "zed"


def test_leaving_voids_the_attack_waiting_on_the_leaver_and_auto_end_sums_up():
    state, _ = attack(fight(options={"auto_end": True}))
    assert state["awaiting"][0] == {"actor": "garde", "actions": ["react"], "reason": "declare_reaction"}
    state, entry = gm(state, "leave", target="garde", how="flight")
    assert params(entry, "left_fight") == {"target": "garde", "how": "flight", "author": GM, "reason": None}
    assert "pending" not in state and state["status"] == "over"
    summary = entry["events"][-1]
    assert summary["code"] == "combat_summary" and summary["params"]["actions"] == 2


def test_the_end_summary_counts_the_damage_and_the_wound_of_a_hit():
    state, _ = exchange(fight(), dice=[30, 3, 4])  # 7 - armour 4 = 3 PV
    state, entry = gm(state, "end_combat", reason="truce")
    summary = params(entry, "combat_summary")
    assert summary["combatants"]["garde"] == {"damage_dealt": 0, "damage_taken": 3, "wounds": 0, "dead": False}
    assert summary["combatants"]["kira"]["damage_dealt"] == 3 and summary["rolls"] == 2 + 3 and summary["actions"] == 3
