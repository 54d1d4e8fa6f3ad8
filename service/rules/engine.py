"""The engine: creates combats and applies actions, for any ruleset.

Both functions are pure: they take plain JSON-like data and return new data,
leaving their inputs untouched, so a refused action can never half-change a
combat and any worker can compute the next state from the stored one.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from . import conditions
from .dice import DiceBox
from .errors import ActionNotAllowed, CombatOver, InvalidAction
from .gm import actions as gm_actions
from .gm import summary
from .registry import get_ruleset
from .ruleset import GM, Resolution

STATUS_ACTIVE = "active"
STATUS_OVER = "over"


def create_combat(body: Mapping, *, combat_id: str, seed: int) -> tuple[dict, dict]:
    """Validate a creation body; return the first state and its log entry."""
    ruleset = get_ruleset(body.get("ruleset") if isinstance(body, Mapping) else None)
    data = ruleset.load_creation(body)
    seed = data["seed"] if data["seed"] is not None else seed
    options = data["options"]
    state = {
        "id": combat_id,
        "ruleset": ruleset.id,
        "version": 0,
        "status": STATUS_ACTIVE,
        "round": 1,
        "lang": data["lang"],
        "hidden_sheets": data["hidden_sheets"],
        "seed": seed,
        "rng": seed,
        "options": options,
        "combatants": [ruleset.new_combatant(sheet, options) for sheet in data["combatants"]],
    }
    res = Resolution(state, DiceBox(seed, data["dice"]))
    res.emit("combat_started", ruleset=ruleset.id)
    ruleset.start(res)
    return _commit(ruleset, res, {"type": "start", "actor": GM, "dice": data["dice"]})


def apply_action(state: Mapping, body: Mapping) -> tuple[dict, dict]:
    """Resolve one action against ``state``; return the new state and log entry."""
    ruleset = get_ruleset(state["ruleset"])
    action = ruleset.load_action(body)
    if state["status"] != STATUS_ACTIVE:
        raise CombatOver("the fight is over; no more actions are accepted", field="type")
    _check_actor(ruleset, state, action)
    working = copy.deepcopy(state)
    res = Resolution(working, DiceBox(working["rng"], action["dice"]))
    if action["actor"] == GM and action["type"] in gm_actions.HANDLERS:
        gm_actions.resolve(ruleset, res, action)
    else:
        ruleset.resolve(res, action)
    return _commit(ruleset, res, action)


def _check_actor(ruleset, state: Mapping, action: Mapping) -> None:
    actor = action["actor"]
    if actor == GM and action["type"] in ruleset.gm_actions:
        return
    if action["type"] in ruleset.gm_only_actions:
        raise ActionNotAllowed(f"{action['type']} is a game-master action; its actor must be 'gm'", field="actor")
    combatant = next((c for c in state["combatants"] if c["id"] == actor), None)
    if combatant is None:
        raise InvalidAction(f"there is no combatant {actor!r} in this combat", field="actor")
    if conditions.has(combatant, gm_actions.LEFT):
        raise ActionNotAllowed(f"{combatant['name']} has left the fight", field="actor")


def _commit(ruleset, res: Resolution, action: Mapping) -> tuple[dict, dict]:
    res.dice.finish()
    state = res.state
    state["rng"] = res.dice.rng_state
    state["version"] += 1
    state["awaiting"] = ruleset.awaiting(state) if state["status"] == STATUS_ACTIVE else []
    entry = {
        "seq": state["version"],
        "action": dict(action),
        "rolls": res.dice.rolls,
        "events": res.events,
    }
    summary.count(ruleset, state, entry)
    if state["status"] == STATUS_OVER:
        # The last event of a fight sums it up, however it ended (GM or rules).
        entry["events"].append({"code": "combat_summary", "params": summary.summary(state)})
    return state, entry
