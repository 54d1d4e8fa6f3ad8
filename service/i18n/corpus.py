"""Played fights, to read and test the narration on what fights really say.

Every fight is played by the engine: each ruleset's ``example()`` (its own
dice), seeded fights driven by the simulator's tactic (service/simulation),
and a short game-master scene (modifier, condition, adjustment, undo, redo,
a newcomer, a flight, the end). The events keep their parameters exactly as
the rules emitted them, so the narration test renders what players will read.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules.engine import STATUS_ACTIVE, State, apply_action, create_combat, redo, undo
from ..rules.errors import RulesError
from ..rules.events import narration_names
from ..rules.gm.actions import PROTECTED
from ..rules.registry import RULESETS
from ..rules.ruleset import Choice
from ..rules.state import Action, Event
from ..rules.viewer import GM_VIEWER, Viewer
from ..simulation.tactics import RULESET_TACTICS, STYLES, Tactic

SEEDS = (1, 2, 3, 4, 5, 6)
MAX_ACTIONS = 400
MAX_RANDOM_ACTIONS = 150
ADJUST_CHANCE = 0.1


@dataclass
class Fight:
    """One played fight: who is in it (id -> name) and every log entry's events."""

    ruleset: str
    title: str
    names: dict[str, str]
    entries: list[list[Event]]

    @property
    def events(self) -> list[Event]:
        return [event for events in self.entries for event in events]


def _names(state: State) -> dict[str, str]:
    return narration_names(state)


def example_fight(ruleset_id: str) -> Fight:
    example = RULESETS[ruleset_id].example()
    state, entry = create_combat(example["combat"], combat_id="narration", seed=0)
    entries = [entry["events"]]
    for action in example["actions"]:
        # Each action as its own player's token sends it: under the dice policy 'own' its dice
        # are that combatant's rolls only (the GM's would go to every roll in order).
        caller = GM_VIEWER if action["actor"] == "gm" else Viewer(combatant=action["actor"])
        state, entry = apply_action(state, action, caller=caller)
        entries.append(entry["events"])
    return Fight(ruleset_id, "example", _names(state), entries)


def simulated_fight(
    ruleset_id: str, seed: int, tactic: Tactic = Tactic(), options: dict[str, Any] | None = None
) -> Fight:
    """The example's combatants fighting to the end on the server's dice, seeded; ``options`` over the example's."""
    combat = {**RULESETS[ruleset_id].example()["combat"], "seed": seed, "dice": []}
    combat["options"] = {**combat.get("options", {}), **(options or {}), "auto_end": True}
    state, entry = create_combat(combat, combat_id="narration", seed=seed)
    entries = [entry["events"]]
    tactics = RULESET_TACTICS[ruleset_id]
    for _ in range(MAX_ACTIONS):
        if state["status"] != STATUS_ACTIVE or not state["awaiting"]:
            break
        waiting = state["awaiting"][0]
        actor = next(c for c in state["combatants"] if c["id"] == waiting["actor"])
        played = _first_accepted(state, list(tactics.candidates(state, actor, waiting, tactic)), entries)
        if played is None:
            break
        state = played
    return Fight(ruleset_id, f"seed {seed}, {tactic.style}", _names(state), entries)


def _first_accepted(state: State, bodies: list[Action], entries: list[list[Event]]) -> State | None:
    """The state after the first of ``bodies`` the rules accept (its events added to ``entries``), or None."""
    for body in bodies:
        try:
            state, entry = apply_action(state, body)
        except RulesError:
            continue
        entries.append(entry["events"])
        return state
    return None


def random_fight(ruleset_id: str, seed: int) -> Fight:
    """A fight of random listed actions (``/options``), seeded: what a table clicking through ``/play``
    sends, the GM adjusting now and then a value of the combatant's state, to the end or MAX_RANDOM_ACTIONS."""
    ruleset = RULESETS[ruleset_id]
    rng = random.Random(seed)
    combat = {**ruleset.example()["combat"], "seed": seed, "dice": []}
    state, entry = create_combat(combat, combat_id="narration", seed=seed)
    entries = [entry["events"]]
    for _ in range(MAX_RANDOM_ACTIONS):
        if state["status"] != STATUS_ACTIVE or not state["awaiting"]:
            break
        actor = rng.choice(state["awaiting"])["actor"]
        listed = ruleset.legal_actions(state, actor)
        tried = [_random_action(rng, option, actor) for option in rng.sample(listed, len(listed))]
        if rng.random() < ADJUST_CHANCE:
            tried.insert(0, _random_adjust(rng, state))
        played = _first_accepted(state, [action for action in tried if action], entries)
        if played is None:
            break
        state = played
    if state["status"] == STATUS_ACTIVE:
        state, entry = apply_action(state, {"type": "end_combat", "actor": "gm"})
        entries.append(entry["events"])
    return Fight(ruleset_id, f"random {seed}", _names(state), entries)


def _random_action(rng: random.Random, option: Choice, actor: str) -> Action | None:
    """One listed choice with its parameters drawn: listed values, small numbers; None when a required one has none."""
    action: Action = {"type": option["type"], "actor": actor}
    for name, spec in option["params"].items():
        value = _random_value(rng, spec)
        if value is None and spec.get("required"):
            return None
        if value is not None and (spec.get("required") or rng.random() < 0.5):
            action[name] = value
    return action


def _random_value(rng: random.Random, spec: dict[str, Any]) -> object:
    if spec.get("choices"):
        return rng.choice(spec["choices"])
    if spec.get("type") == "integer":
        low, high = spec.get("minimum"), spec.get("maximum")
        low = -5 if low is None else max(low, -5)
        return rng.randint(low, max(low, 5 if high is None else min(high, 5)))
    if spec.get("type") == "object" and "total" in spec:  # a pool split (dark-earth): parts adding up to the total
        cuts = sorted(rng.randint(0, spec["total"]) for _ in spec["keys"][1:])
        return {k: b - a for k, a, b in zip(spec["keys"], [0, *cuts], [*cuts, spec["total"]], strict=True)}
    if spec.get("type") == "array" and isinstance(spec.get("items"), list):  # one listed spec per element
        items = [_random_value(rng, item) for item in spec["items"]]
        return None if any(item is None for item in items) else items
    return None


def _random_adjust(rng: random.Random, state: State) -> Action:
    """The GM changes a number of a combatant's state by one: any key adjust takes (gm/actions.py)."""
    target = rng.choice(state["combatants"])
    numbers = sorted(k for k, v in target.items() if type(v) is int and k not in PROTECTED)
    return {"type": "adjust", "actor": "gm", "target": target["id"], "change": {rng.choice(numbers): 1}}


def gm_scene(ruleset_id: str) -> Fight:
    """The game master's shared actions on the example: each is tried, a refusal skipped."""
    ruleset = RULESETS[ruleset_id]
    example = ruleset.example()
    state, entry = create_combat({**example["combat"], "dice": []}, combat_id="narration", seed=7)
    entries = [entry["events"]]
    first, second = (c["id"] for c in state["combatants"][:2])
    newcomer = {**example["combat"]["combatants"][1], "id": "renfort", "name": "Renfort"}
    condition = sorted(ruleset.gm_conditions)[0] if ruleset.gm_conditions else None
    gm: list[Action | None] = [
        {"type": "modify", "target": first, "value": -2, "reason": "fumée"},
        {"type": "modify", "target": first, "value": 1, "rounds": 1},
        {"type": "modify", "target": second, "value": 1, "rounds": 3},
        {"type": "override", "target": second, "result": "success"},
        {"type": "override", "target": first, "result": "failure"},
        {"type": "condition", "target": second, "code": condition, "rounds": 2} if condition else None,
        {"type": "condition", "target": second, "code": condition, "remove": True} if condition else None,
        {"type": "condition", "target": first, "code": condition} if condition else None,
        # A narrative mark: the GM's own words, shown as written in every language.
        {"type": "condition", "target": second, "label": "Rigel", "rounds": 2},
        {"type": "condition", "target": second, "label": "Rigel", "remove": True},
        {"type": "adjust", "target": first, "change": {RULESET_TACTICS[ruleset_id].health: -1}},
        {"type": "join", "combatant": newcomer, "reason": "renforts"},
        {"type": "leave", "target": "renfort", "how": "flight"},
    ]
    states, played = [state], []
    for action in filter(None, gm):
        try:
            state, entry = apply_action(state, {**action, "actor": "gm"})
        except RulesError:
            continue
        states.append(state)
        played.append(entry)
        entries.append(entry["events"])
    state, entry = undo(state, states[-2], b"corpus")  # fixed entropy: the pages are reproducible
    entries.append(entry["events"])
    state, entry = redo(state, played[-1], state["redo"][-1])
    entries.append(entry["events"])
    if state["status"] == STATUS_ACTIVE:
        state, entry = apply_action(state, {"type": "end_combat", "actor": "gm", "reason": "la police arrive"})
        entries.append(entry["events"])
    return Fight(ruleset_id, "game master", _names(state), entries)


def fights(ruleset_id: str) -> list[Fight]:
    """Every played fight of a ruleset: the example, the seeded fights in each style, the GM scene."""
    played = [example_fight(ruleset_id)]
    for seed in SEEDS:
        played.append(simulated_fight(ruleset_id, seed, Tactic(style=STYLES[seed % len(STYLES)])))
    played.append(gm_scene(ruleset_id))
    return played


# Codes no played fight nor rules test reliably reaches, with parameters shaped as
# their emitters write them (the file and line are named).
HAND_WRITTEN: list[tuple[str, Event, dict[str, str]]] = [
    # duel_2d6/effects.py: a disarm on a fighter who holds nothing.
    ("duel-2d6", {"code": "nothing_to_disarm", "params": {"target": "philip"}}, {"philip": "Philip"}),
    # duel_2d6/exchange.py: a shot beyond the weapon's longest band.
    (
        "duel-2d6",
        {"code": "out_of_range", "params": {"attacker": "philip", "defender": "gaston", "band": "au_dela"}},
        {"philip": "Philip", "gaston": "Gaston"},
    ),
    # duel_2d6/exchange.py: a strangle without a hold on the head (the rules tests reach it
    # only in some random orders).
    (
        "duel-2d6",
        {"code": "blow_impossible", "params": {"attacker": "philip", "defender": "gaston", "maneuver": "etrangler"}},
        {"philip": "Philip", "gaston": "Gaston"},
    ),
    # duel_2d6/duels.py: the surprise option names someone absent (shown as sent).
    ("duel-2d6", {"code": "surprise_ignored", "params": {"combatant": "zorro"}}, {"philip": "Philip"}),
    # age_du_silicium/rounds.py: the GM changes an Initiative once the round's declarations have begun.
    ("age-du-silicium", {"code": "initiative_next_round", "params": {"combatant": "krieg"}}, {"krieg": "Krieg"}),
]
# engine.restored: a snapshot restored (usecases/snapshots.py), the same entry in every ruleset.
RESTORED: Event = {
    "code": "combat_restored",
    "params": {"version": 12, "taken_at": "2026-12-03T22:02:51Z", "restored_at": "2026-12-10T19:30:00Z"},
}
HAND_WRITTEN += [
    (ruleset_id, RESTORED, {})
    for ruleset_id in ("age-du-silicium", "dark-earth", "duel-2d6", "sistema-2d6", "space-opera-d100")
]
RECORDED = Path(__file__).resolve().parent / "recorded.json"


def samples(ruleset_id: str) -> list[tuple[Event, dict[str, str]]]:
    """Every (event, names) to read for a ruleset: played fights, recorded rules tests, hand-written."""
    found = [(event, fight.names) for fight in fights(ruleset_id) for event in fight.events]
    for sample in json.loads(RECORDED.read_text(encoding="utf-8")):
        if sample["ruleset"] == ruleset_id:
            found.append(({"code": sample["code"], "params": sample["params"]}, {**sample["names"], "gm": "GM"}))
    found += [(event, names) for owner, event, names in HAND_WRITTEN if owner == ruleset_id]
    return found
