"""The engine: creates combats and applies actions, for any ruleset.

Both functions take plain JSON-like data and return new data, so any worker
can compute the next state from the stored one. ``apply_action`` leaves its
input untouched; ``apply_loaded(..., in_place=True)``, which the action use
case and the simulator call, changes the state it is given, even when the
rules then refuse the action: its callers hold their own way back (the use
case's state was loaded for this action only and is dropped on a refusal;
the simulator replays the fight from its start).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, cast

from . import authority, conditions
from .dice import DiceBox, DiceStream, ReplayDice, new_stream
from .ending import end_if_decided
from .errors import ActionNotAllowed, CombatOver, InvalidAction, refusal
from .gm import actions as gm_actions
from .gm import summary
from .registry import get_ruleset
from .ruleset import GM, AnyRuleset, Resolution
from .state import Action, Combat, Combatant, LogEntry, Roll
from .viewer import GM_VIEWER, Viewer

STATUS_ACTIVE: Final = "active"
STATUS_OVER: Final = "over"

# A combat as the engine hands it around: the keys of state.Combat, plus the
# ruleset's own (typed in the ruleset's package, Any here).
State = Combat[Any]
JSON = Mapping[str, Any]
# Makes the dice box of an action: (state, supplied dice, caller) -> box.
DiceBoxMaker = Callable[[State, Sequence[int], Viewer], DiceBox]


def create_combat(
    body: JSON, *, combat_id: str, entropy: bytes = b"", seed: int | None = None
) -> tuple[State, LogEntry]:
    """Validate a creation body; return the first state and its log entry.

    ``entropy`` (32 bytes, from the caller: the core draws no randomness) keys
    the server's dice, unless the combat has a seed (the body's ``seed``, else
    the ``seed`` argument: tests, benches), from which the keys are derived
    instead: reproducible, and predictable to whoever knows the seed.
    """
    ruleset = get_ruleset(body.get("ruleset") if isinstance(body, Mapping) else None)
    data = ruleset.load_creation(body)
    seed = data["seed"] if data["seed"] is not None else seed
    return create_loaded(ruleset, data, combat_id=combat_id, seed=seed, entropy=entropy)


def create_loaded(
    ruleset: AnyRuleset, data: JSON, *, combat_id: str, seed: int | None, entropy: bytes = b"", readers: bool = True
) -> tuple[State, LogEntry]:
    """:func:`create_combat` for a body ``ruleset.load_creation`` already loaded
    (the simulator starts thousands of fights from one template, each with a seed;
    ``readers``: as for :func:`apply_loaded`)."""
    options = data["options"]
    state: State = {
        "id": combat_id,
        "ruleset": ruleset.id,
        "version": 0,
        "status": STATUS_ACTIVE,
        "round": 1,
        "lang": data["lang"],
        "hidden_sheets": data["hidden_sheets"],
        "seed": seed,
        "options": options,
        "combatants": [ruleset.new_combatant(sheet, options) for sheet in data["combatants"]],
    }
    new_stream(state, entropy)
    # The creator is the game master: its dice go to any roll the policy lets anyone supply.
    res: Resolution[State, Combatant] = Resolution(state, DiceBox.for_state(state, data["dice"], GM_VIEWER))
    res.emit("combat_started", ruleset=ruleset.id)
    ruleset.start(res)
    return _commit(ruleset, res, {"type": "start", "actor": GM, "dice": data["dice"]}, readers)


def apply_action(
    state: JSON, body: JSON, *, caller: Viewer = GM_VIEWER, dice_box: DiceBoxMaker = DiceBox.for_state
) -> tuple[State, LogEntry]:
    """Resolve one action against ``state``; return the new state and log entry.

    ``caller``: whose token sent it (the GM by default: simulations, odds, replays);
    a player's action may set only the fields that are theirs (authority.py).

    ``dice_box(state, supplied, caller)`` makes the dice box (``DiceBox.for_state``:
    the combat's generator and dice policy): the odds replace it to explore
    every outcome of the dice (service/rules/odds/tree.py), a replay to hand
    out the logged dice again.
    """
    ruleset = get_ruleset(state["ruleset"])
    return apply_loaded(ruleset, state, ruleset.load_action(body), caller=caller, dice_box=dice_box)


def apply_loaded(
    ruleset: AnyRuleset,
    state: JSON,
    action: Action,
    *,
    caller: Viewer = GM_VIEWER,
    in_place: bool = False,
    dice_box: DiceBoxMaker = DiceBox.for_state,
    readers: bool = True,
) -> tuple[State, LogEntry]:
    """:func:`apply_action` for an action ``ruleset.load_action`` already loaded.

    The simulator (service/simulation) loads each distinct action of its
    tactics once and plays it through here: the same rules, no second
    implementation, without paying for the schema on every blow. With
    ``in_place`` the state itself is changed, even by an action the rules
    then refuse: only for a caller that keeps its own way back.
    """
    if state["status"] != STATUS_ACTIVE:
        raise CombatOver(refusal("the fight is over; no more actions are accepted"), field="type")
    _check_actor(ruleset, state, action)
    authority.check(ruleset, state, action, caller)
    working = cast(State, state) if in_place else copy_state(state)
    res: Resolution[State, Combatant] = Resolution(working, dice_box(working, action["dice"], caller))
    if action["actor"] == GM and action["type"] in gm_actions.HANDLERS:
        gm_actions.resolve(ruleset, res, action)
    else:
        ruleset.resolve(res, action)
    end_if_decided(ruleset, res)
    return _commit(ruleset, res, action, readers)


def replay(state: JSON, entries: Sequence[JSON]) -> State:
    """The state after the logged ``entries`` are applied again, in order, to ``state``.

    Every die comes again from the entry's logged rolls (whoever supplied it,
    under whatever policy), so replaying a stored snapshot and the entries
    after it gives back the stored state (service/store/history.py). An undo
    entry carries the state it restored; a redo entry the action it replayed.
    """
    for entry in entries:
        kind = entry["action"]["type"]
        if kind in (UNDO, RESTORED):
            state = copy_state(entry["restored_state"])
        elif kind == REDO:
            state, _ = redo(state, entry, entry["action"]["redoes"])
        else:
            state, _ = apply_action(state, entry["action"], dice_box=_replaying(entry["rolls"]))
    return cast(State, dict(state))


def _replaying(rolls: Sequence[Roll]) -> DiceBoxMaker:
    def box(state: State, supplied: Sequence[int], caller: Viewer) -> DiceBox:
        return ReplayDice(DiceStream.of(state), rolls)

    return box


# -- undo and redo ------------------------------------------------------------------
# History is never rewritten: an undo is a log entry of its own that carries the
# state it restores, and the restored state keeps a stack of what was undone, so
# that a redo plays the very same action again, with the very dice it was
# logged with. The dice the undone action showed must not come back for a new
# action: the restored state draws from a new stream, keyed by fresh entropy
# and committed like the first, and the key list keeps every stream for the reveal.

UNDO, REDO = "undo", "redo"
# A snapshot restored (service/usecases/snapshots.py): the same state, drawing from a new stream.
RESTORED = "restored"


def undo_target(state: JSON) -> int | None:
    """The version an undo restores: the one the last action was applied to.

    The last action itself is the log entry ``undo_target + 1``."""
    parent: int | None = state.get("parent")
    return parent if parent else None


def undo(state: JSON, restored: JSON, entropy: bytes) -> tuple[State, LogEntry]:
    """The new state (``restored``, at the next version, drawing its server dice
    from a new stream keyed by ``entropy``) and the undo's log entry."""
    undone_seq = state["parent"] + 1
    new = copy_state(restored)
    new["version"] = state["version"] + 1
    new["redo"] = [*state.get("redo", []), undone_seq]
    new["dice_keys"] = list(state["dice_keys"])
    new["dice_commitments"] = list(state["dice_commitments"])
    commitment = new_stream(new, entropy)
    new.pop("expires_at", None)
    entry: LogEntry = {
        "seq": new["version"],
        "action": {"type": UNDO, "actor": GM, "undoes": undone_seq, "dice_commitment": commitment},
        "rolls": [],
        "events": [{"code": "action_undone", "params": {"seq": undone_seq, "restored_version": restored["version"]}}],
        "restored_state": new,
    }
    return new, entry


def restored(state: JSON, entropy: bytes, *, taken_at: str, restored_at: str) -> tuple[State, LogEntry]:
    """A snapshot's state restored, at the next version, drawing its server dice
    from a new stream keyed by ``entropy``: whoever holds the snapshot cannot
    know the dice that come next by restoring it again. ``taken_at``,
    ``restored_at``: when the snapshot was taken and restored (ISO 8601)."""
    new = copy_state(state)
    new["version"] = state["version"] + 1
    commitment = new_stream(new, entropy)
    new.pop("expires_at", None)
    params = {"version": state["version"], "taken_at": taken_at, "restored_at": restored_at}
    entry: LogEntry = {
        "seq": new["version"],
        "action": {"type": RESTORED, "actor": GM, "dice_commitment": commitment},
        "rolls": [],
        "events": [{"code": "combat_restored", "params": params}],
        "restored_state": new,
    }
    return new, entry


def redo_target(state: JSON) -> int | None:
    """The log entry a redo plays again: the last one undone, if nothing else happened since."""
    stack: list[int] = state.get("redo", [])
    return stack[-1] if stack else None


def undone_action(entry: JSON) -> Action:
    """The action of an entry, as it was first played (a redo entry wraps it)."""
    action = entry["action"]
    return dict(action["action"] if action["type"] == REDO else action)


def redo(state: JSON, undone: JSON, redoes: int) -> tuple[State, LogEntry]:
    """Play the last undone action again (the log entry ``undone``), with the dice
    it was logged with; the rest of the redo stack stays."""
    stack = list(state.get("redo", []))
    new, entry = apply_action(state, undone_action(undone), dice_box=_replaying(undone["rolls"]))
    if stack[:-1]:
        new["redo"] = stack[:-1]
    entry["action"] = {"type": REDO, "actor": GM, "redoes": redoes, "action": dict(entry["action"])}
    entry["events"].insert(0, {"code": "action_redone", "params": {"seq": redoes}})
    return new, entry


def copy_state(state: JSON) -> State:
    """A deep copy of a JSON-like state.

    A pickle round trip copies plain data exactly as ``copy.deepcopy`` does
    (same types, same sharing) in a quarter of the time: the copy was the
    largest single cost of an action when it was measured (the history of
    docs/performance.md).
    """
    copied: State = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return copied


def _check_actor(ruleset: AnyRuleset, state: JSON, action: JSON) -> None:
    actor = action["actor"]
    if actor == GM and action["type"] in ruleset.gm_actions:
        return
    if action["type"] in ruleset.gm_only_actions:
        raise ActionNotAllowed(
            refusal("{type} is a game-master action; its actor must be 'gm'", type=action["type"]), field="actor"
        )
    for combatant in state["combatants"]:
        if combatant["id"] == actor:
            break
    else:
        raise InvalidAction(refusal("there is no combatant '{actor_id}' in this combat", actor_id=actor), field="actor")
    if conditions.has(combatant, gm_actions.LEFT):
        raise ActionNotAllowed(refusal("{actor} has left the fight", actor=combatant["name"]), field="actor")


def _commit(
    ruleset: AnyRuleset, res: Resolution[State, Combatant], action: JSON, readers: bool = True
) -> tuple[State, LogEntry]:
    res.dice.finish()
    state = res.state
    position = res.dice.position()
    if position is not None:
        state["rng"] = position
    state["parent"] = state["version"]
    state.pop("redo", None)  # a new action branches: what was undone stays undone
    state["version"] += 1
    entry: LogEntry = {
        "seq": state["version"],
        "action": dict(action),
        "rolls": res.dice.rolls,
        "events": res.events,
    }
    if not readers:
        state.pop("awaiting", None)
        return state, entry
    state["awaiting"] = ruleset.awaiting(state) if state["status"] == STATUS_ACTIVE else []
    summary.count(ruleset, state, entry)
    if state["status"] == STATUS_OVER:
        # The last event of a fight sums it up, however it ended (GM or rules).
        entry["events"].append({"code": "combat_summary", "params": summary.summary(state)})
    return state, entry
