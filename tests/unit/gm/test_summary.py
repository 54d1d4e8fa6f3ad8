"""The end summary's totals match the log, for every ruleset (its example fight, then the GM ends it)."""

from __future__ import annotations

import pytest

from service.rules.engine import apply_action, create_combat
from service.rules.registry import RULESETS, get_ruleset
from tests.unit.rules_helpers import as_actor


def _play_example(ruleset_id: str) -> list[dict]:
    example = get_ruleset(ruleset_id).example()
    state, entry = create_combat(example["combat"], combat_id="sum", seed=5)
    log = [entry]
    for action in example["actions"]:
        if state["status"] != "active":
            break
        state, entry = apply_action(state, action, caller=as_actor(action))
        log.append(entry)
    if state["status"] == "active":
        state, entry = apply_action(state, {"type": "end_combat", "actor": "gm"})
        log.append(entry)
    return log


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_summary_totals_match_the_log(ruleset_id):
    ruleset = get_ruleset(ruleset_id)
    log = _play_example(ruleset_id)
    final = log[-1]["events"][-1]
    assert final["code"] == "combat_summary"
    summary = final["params"]
    damage_code, amount = ruleset.damage_event
    events = [e for entry in log for e in entry["events"]]
    assert summary["rolls"] == sum(len(entry["rolls"]) for entry in log)
    assert summary["actions"] == len(log) - 1  # every entry but the start
    for combatant_id, totals in summary["combatants"].items():
        taken = sum(
            e["params"][amount]
            for e in events
            if e["code"] == damage_code and e["params"].get("target") == combatant_id
        )
        wounds = sum(
            1 for e in events if e["code"] in ruleset.wound_events and e["params"].get("target") == combatant_id
        )
        assert totals["damage_taken"] == taken
        assert totals["wounds"] == wounds
    dealt = sum(t["damage_dealt"] for t in summary["combatants"].values())
    assert dealt == sum(t["damage_taken"] for t in summary["combatants"].values())  # every example blow has an author
    assert summary["deaths"] == sorted({e["params"]["target"] for e in events if e["code"] == "died"})


def test_the_example_fights_deal_damage_so_the_totals_are_not_all_zero():
    dealt = {rid: _play_example(rid)[-1]["events"][-1]["params"]["combatants"] for rid in RULESETS}
    assert any(t["damage_taken"] for totals in dealt.values() for t in totals.values())


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_a_death_the_game_master_declares_is_a_death_of_the_summary(ruleset_id):
    example = get_ruleset(ruleset_id).example()
    state, _ = create_combat({**example["combat"], "dice": []}, combat_id="sum", seed=5)
    first = state["combatants"][0]["id"]
    state, entry = apply_action(state, {"type": "condition", "actor": "gm", "target": first, "code": "dead"})
    if state["status"] == "active":  # no automatic end in this ruleset's example: the GM ends it
        state, entry = apply_action(state, {"type": "end_combat", "actor": "gm"})
    assert entry["events"][-1]["code"] == "combat_summary"
    assert entry["events"][-1]["params"]["deaths"] == [first]
