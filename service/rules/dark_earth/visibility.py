"""What clients may see: allocations stay secret until their tour resolves.

The state shows who has allocated (``allocated``); what each allocated only
to that fighter's player and to the GM (``allocations``). The log shows
an allocation's type and actor to everyone else until its tour has resolved
(or the fight is over), then the whole action.
"""

from __future__ import annotations

from typing import Any

from ..viewer import Viewer
from .state import DarkEarthCombat


def visible_state(state: DarkEarthCombat, viewer: Viewer) -> dict[str, Any]:
    allocations = state.get("allocations", {})
    visible: dict[str, Any] = {key: value for key, value in state.items() if key != "allocations"}
    visible["allocated"] = sorted(allocations)
    own = {fighter: split for fighter, split in allocations.items() if viewer.sees_secrets_of(fighter)}
    if own:
        visible["allocations"] = own
    return visible


def visible_entry(state: DarkEarthCombat, entry: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    action = entry["action"]
    if action.get("type") != "allocate" or state["status"] != "active" or viewer.sees_secrets_of(action["actor"]):
        return entry
    received = [e["params"] for e in entry["events"] if e["code"] == "allocation_received"]
    if received and received[0]["round"] == state["round"]:
        return {**entry, "action": {"type": action["type"], "actor": action["actor"]}}
    return entry
