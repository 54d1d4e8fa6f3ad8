"""What clients may see: allocations stay secret until their tour resolves.

The state shows who has allocated (``allocated``), never what; the log shows
an allocation's type and actor only until its tour has resolved (or the
fight is over), then the whole action.
"""

from __future__ import annotations


def visible_state(state: dict) -> dict:
    allocations = state.get("allocations", {})
    visible = {key: value for key, value in state.items() if key != "allocations"}
    visible["allocated"] = sorted(allocations)
    return visible


def visible_entry(state: dict, entry: dict) -> dict:
    action = entry["action"]
    if action.get("type") != "allocate" or state["status"] != "active":
        return entry
    received = [e["params"] for e in entry["events"] if e["code"] == "allocation_received"]
    if received and received[0]["round"] == state["round"]:
        return {**entry, "action": {"type": action["type"], "actor": action["actor"]}}
    return entry
