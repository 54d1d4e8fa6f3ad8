"""The fight's running totals, kept in the state, and the summary of its end.

The engine is pure and sees only the state, so the totals are counted as each
log entry is made (``state["tally"]``) rather than read back from the log;
``tests/unit/test_gm_summary.py`` checks they match the log of every ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..events import GM_AUTHOR
from ..state import Combat, CombatantTally, LogEntry, Tally

if TYPE_CHECKING:  # ruleset.py imports gm/: only its types are needed here
    from ..ruleset import AnyRuleset

DEAD = "dead"  # the condition every ruleset calls death
# Event params that name who is acting, most specific first.
AUTHOR_PARAMS = ("attacker", "actor")
ROUND_STARTED = "round_started"  # conditions.next_round's event


def new_tally(state: Mapping[str, Any]) -> Tally:
    return {"rolls": 0, "actions": 0, "combatants": {c["id"]: _blank() for c in state["combatants"]}}


def _blank() -> CombatantTally:
    return {"damage_dealt": 0, "damage_taken": 0, "wounds": 0, "dead": False}


def count(ruleset: AnyRuleset, state: Combat[Any], entry: LogEntry) -> None:
    """Add one log entry to the totals."""
    tally = state.get("tally") or state.setdefault("tally", new_tally(state))
    people = tally["combatants"]
    for combatant in state["combatants"]:
        if combatant["id"] not in people:  # one who joined
            people[combatant["id"]] = _blank()
    tally["rolls"] += len(entry["rolls"])
    tally["actions"] += entry["action"]["type"] != "start"
    author = entry["action"]["actor"]
    if entry["action"]["type"] != "start" and author != GM_AUTHOR:
        # The round this action was played in: a round the action itself began is not played yet.
        begun = [event["code"] for event in entry["events"]].count(ROUND_STARTED)
        tally["rounds"] = max(tally.get("rounds", 0), state["round"] - begun)
    damage_code, amount_param = ruleset.damage_event
    for event in entry["events"]:
        code, params = event["code"], event["params"]
        for param in AUTHOR_PARAMS:  # the first one there names the author, else the one before stays
            if isinstance(params.get(param), str):
                author = params[param]
                break
        target = params.get("target", params.get("combatant"))
        if target not in people:
            continue
        if code == damage_code:
            amount = params.get(amount_param) or 0
            people[target]["damage_taken"] += amount
            if author in people and author != target:
                people[author]["damage_dealt"] += amount
        if code in ruleset.wound_events:
            people[target]["wounds"] += 1
        if code == "died":
            people[target]["dead"] = True
        elif code in ("condition_added", "condition_removed") and params.get("condition") == DEAD:
            # The GM's word counts too: the summary must not say "nobody died" after it.
            people[target]["dead"] = code == "condition_added"


def summary(state: Combat[Any]) -> dict[str, Any]:
    tally = state["tally"]
    return {
        # The rounds in which a combatant acted: not one that began and was never played (the first, if none was).
        "rounds": tally.get("rounds") or min(state["round"], 1),
        "actions": tally["actions"],
        "rolls": tally["rolls"],
        "combatants": tally["combatants"],
        "deaths": sorted(cid for cid, totals in tally["combatants"].items() if totals["dead"]),
    }
