"""The TypedDicts of service/rules/state.py and of each ruleset's state.py say
what the states really hold: mypy trusts them, nothing checks them at run
time. Fights played by each ruleset's own tactic, every state along the way:
no key the types do not declare, none they require missing."""

from __future__ import annotations

import types
import typing

import pytest

from service.rules.engine import apply_action, create_combat
from service.rules.errors import RulesError
from service.rules.registry import get_ruleset
from service.rules.ruleset import Ruleset
from service.rules.state import Combat, Combatant, Event, LogEntry, Roll
from service.rules.tactics import Tactic
from service.rules.viewer import GM_VIEWER, Viewer

BUILT_IN = ("age-du-silicium", "dark-earth", "duel-2d6", "sistema-2d6", "space-opera-d100")
MAX_ACTIONS = 300


def keys(typed: type) -> tuple[set[str], set[str]]:
    """(every key, the required ones) of a TypedDict; NotRequired read from the annotation's text."""
    annotations = typed.__annotations__
    required = {key for key, hint in annotations.items() if "NotRequired[" not in str(hint)}
    return set(annotations), required


def state_types(ruleset_id: str) -> tuple[type, type]:
    """The (combat, combatant) TypedDicts a ruleset class declares: ``Ruleset[ItsCombat, ItsCombatant]``."""
    ruleset = get_ruleset(ruleset_id)
    base = next(b for b in type(ruleset).__orig_bases__ if typing.get_origin(b) is Ruleset)
    combat, combatant = typing.get_args(base)
    return combat, combatant


def check_shape(value: dict, typed: type, where: str) -> None:
    """``value`` has the keys of the TypedDict ``typed``, and so have the TypedDicts nested in it."""
    declared, required = keys(typed)
    assert set(value) <= declared, f"{where}: keys {sorted(set(value) - declared)} are not in {typed.__name__}"
    assert required <= set(value), f"{where}: {typed.__name__} requires {sorted(required - set(value))}"
    hints = typing.get_type_hints(typed, include_extras=True)
    for key, item in value.items():
        check_value(item, hints[key], f"{where}.{key}")


def check_value(value, hint, where: str) -> None:
    """Follow ``hint`` down to the TypedDicts it holds (a combat's combatants, a TypeVar, are checked apart)."""
    origin = typing.get_origin(hint)
    if origin in (typing.NotRequired, typing.Required):
        check_value(value, typing.get_args(hint)[0], where)
    elif typing.is_typeddict(hint) or typing.is_typeddict(origin):
        assert isinstance(value, dict), f"{where}: {value!r} is not an object"
        check_shape(value, origin or hint, where)
    elif origin in (types.UnionType, typing.Union):
        typed = [member for member in typing.get_args(hint) if typing.is_typeddict(member)]
        if typed and isinstance(value, dict):
            check_value(value, typed[0], where)
    elif origin is list:
        for index, item in enumerate(value):
            check_value(item, typing.get_args(hint)[0], f"{where}[{index}]")
    elif origin is dict:
        for key, item in value.items():
            check_value(item, typing.get_args(hint)[1], f"{where}.{key}")


def check_state(state: dict, combat: type, combatant: type) -> None:
    check_shape(state, combat, f"{state['ruleset']} state v{state['version']}")
    for one in state["combatants"]:
        check_shape(one, combatant, f"{state['ruleset']} combatant {one['id']} v{state['version']}")


def check_entry(entry: dict) -> None:
    check_shape(entry, LogEntry, f"log entry {entry['seq']}")
    for roll in entry["rolls"]:
        check_shape(roll, Roll, f"a roll of entry {entry['seq']}")
    for event in entry["events"]:
        check_shape(event, Event, f"an event of entry {entry['seq']}")


def play(ruleset_id: str, seed: int):
    """States and entries of one fight, each action the first the ruleset's tactic offers that the rules accept."""
    ruleset = get_ruleset(ruleset_id)
    body = {key: value for key, value in ruleset.example()["combat"].items() if key not in ("dice", "seed")}
    body["options"] = {**body.get("options", {}), "auto_end": True}
    state, entry = create_combat(body, combat_id="types", seed=seed)
    yield state, entry
    for _ in range(MAX_ACTIONS):
        if state["status"] != "active" or not state["awaiting"]:
            return
        waiting = state["awaiting"][0]
        actor = next((c for c in state["combatants"] if c["id"] == waiting["actor"]), None)
        if actor is None:  # the GM is awaited: the fight is decided
            return
        for candidate in ruleset.tactic.candidates(state, actor, waiting, Tactic()):
            try:
                state, entry = apply_action(state, candidate)
            except RulesError:
                continue
            yield state, entry
            break
        else:
            return


def test_the_shared_types_are_those_of_every_ruleset():
    shared, _ = keys(Combat)
    shared_combatant, _ = keys(Combatant)
    for ruleset_id in BUILT_IN:
        combat, combatant = state_types(ruleset_id)
        assert shared <= keys(combat)[0], ruleset_id
        assert shared_combatant <= keys(combatant)[0], ruleset_id


def example(ruleset_id: str):
    """States and entries of the ruleset's own example (docs/rulesets.md): its actions, with its dice."""
    played = get_ruleset(ruleset_id).example()
    state, entry = create_combat(played["combat"], combat_id="example")
    yield state, entry
    for action in played["actions"]:
        # Sent with the actor's own token, as a table would: whose dice a supplied die is depends on it.
        caller = GM_VIEWER if action["actor"] == "gm" else Viewer(combatant=action["actor"])
        state, entry = apply_action(state, action, caller=caller)
        yield state, entry


@pytest.mark.parametrize("ruleset_id", BUILT_IN)
def test_every_state_of_the_example_has_the_keys_its_types_declare(ruleset_id):
    # The examples leave an attack pending (sistema-2d6, space-opera-d100...), which the tactics answer inline.
    combat, combatant = state_types(ruleset_id)
    for state, entry in example(ruleset_id):
        check_state(state, combat, combatant)
        check_entry(entry)


@pytest.mark.parametrize("ruleset_id", BUILT_IN)
def test_every_state_of_a_fight_has_the_keys_its_types_declare(ruleset_id):
    combat, combatant = state_types(ruleset_id)
    played = 0
    for seed in (1, 2, 3):
        for state, entry in play(ruleset_id, seed):
            check_state(state, combat, combatant)
            check_entry(entry)
            played += 1
    assert played > 6  # three creations and more than a few actions: the fights went on
