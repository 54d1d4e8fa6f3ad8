"""How stored data is shown to clients.

The state keeps two private fields: ``rng`` (the generator's state, which
would let a client predict the next rolls) is never shown, and ``seed`` only
once the fight is over, when anyone may replay and audit every roll.
"""

from __future__ import annotations

from ..rules.events import render
from ..rules.registry import get_ruleset

HIDDEN = frozenset({"rng", "seed"})


def combat_view(state: dict) -> dict:
    visible = get_ruleset(state["ruleset"]).visible_state(state)
    view = {key: value for key, value in visible.items() if key not in HIDDEN}
    if state["status"] == "over":
        view["seed"] = state["seed"]
    return view


def etag(state: dict) -> str:
    return f'"{state["version"]}"'


def _names(state: dict) -> dict[str, str]:
    names = {c["id"]: c["name"] for c in state["combatants"]}
    names.setdefault("gm", "GM")
    return names


def events_view(state: dict, events: list[dict]) -> list[dict]:
    messages = get_ruleset(state["ruleset"]).messages
    names = _names(state)
    lang = state["lang"]
    return [{**event, "text": render(event, lang, messages, names)} for event in events]


def entry_view(state: dict, entry: dict) -> dict:
    entry = get_ruleset(state["ruleset"]).visible_entry(state, entry)
    return {**entry, "events": events_view(state, entry["events"])}


def action_result(state: dict, entry: dict) -> dict:
    entry = entry_view(state, entry)
    action = entry["action"]
    return {
        "action": {"seq": entry["seq"], "type": action["type"], "actor": action["actor"]},
        "rolls": entry["rolls"],
        "events": entry["events"],
        "combat": combat_view(state),
    }
