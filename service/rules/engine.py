"""The engine: creates combats and applies actions, for any ruleset.

Both functions are pure: they take plain JSON-like data and return new data,
leaving their inputs untouched, so a refused action can never half-change a
combat and any worker can compute the next state from the stored one.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

from .dice import DiceBox
from .errors import ActionNotAllowed, CombatOver, InvalidAction
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


def apply_action(state: Mapping, body: Mapping, *, dice_box=DiceBox) -> tuple[dict, dict]:
    """Resolve one action against ``state``; return the new state and log entry.

    ``dice_box(rng_state, supplied)`` makes the dice box: the odds replace it
    to explore every outcome of the dice (service/rules/odds/tree.py).
    """
    ruleset = get_ruleset(state["ruleset"])
    action = ruleset.load_action(body)
    if state["status"] != STATUS_ACTIVE:
        raise CombatOver("the fight is over; no more actions are accepted", field="type")
    _check_actor(ruleset, state, action)
    working = copy.deepcopy(state)
    res = Resolution(working, dice_box(working["rng"], action["dice"]))
    if action["type"] == "end_combat":
        working["status"] = STATUS_OVER
        res.emit("combat_ended", reason=action.get("reason"))
        ruleset.on_combat_end(res)
    else:
        ruleset.resolve(res, action)
    return _commit(ruleset, res, action)


def _check_actor(ruleset, state: Mapping, action: Mapping) -> None:
    actor = action["actor"]
    if action["type"] in ruleset.gm_actions:
        if actor != GM:
            raise ActionNotAllowed(f"{action['type']} is a game-master action; its actor must be 'gm'", field="actor")
        return
    if not any(c["id"] == actor for c in state["combatants"]):
        raise InvalidAction(f"there is no combatant {actor!r} in this combat", field="actor")


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
    return state, entry
