"""One simulated fight: the engine, driven by a tactic, until one side stands.

Every action goes through ``engine.apply_loaded``, the path a live combat's
``POST /actions`` takes after loading the body: the same rules, the same
dice. What the simulator saves is only repeated work around the rules: the
template is validated once, and each distinct action body a tactic produces
is loaded once (``ActionLoader``).
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from typing import Any

from ..rules.engine import STATUS_ACTIVE, apply_loaded, copy_state, create_loaded
from ..rules.errors import InvalidInput, RulesError
from ..rules.ruleset import Ruleset
from ..rules.state import Combat
from .tactics import RulesetTactics, Tactic

# A fight that has not ended after this many actions is counted undecided
# (e.g. two fighters who cannot hurt each other).
MAX_ACTIONS_PER_FIGHT = 2000


class ActionLoader:
    """``ruleset.load_action`` memoised on the body (tactics repeat a few bodies)."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self._loaded: dict[str, dict | InvalidInput] = {}

    def __call__(self, body: dict) -> dict:
        key = json.dumps(body, sort_keys=True)
        found = self._loaded.get(key)
        if found is None:
            try:
                found = self.ruleset.load_action(body)
            except InvalidInput as error:
                found = error
            self._loaded[key] = found
        if isinstance(found, InvalidInput):
            raise found
        return found


@dataclass
class Fight:
    state: Combat[Any]
    actions: int
    stalled: bool  # no candidate of the tactic was accepted, or too many actions


def play(
    ruleset: Ruleset, tactics: RulesetTactics, template: dict, seed: int, tactic: Tactic, load: ActionLoader
) -> Fight:
    """Play one fight from a loaded creation body, with the server's dice seeded by ``seed``."""
    state, _ = create_loaded(ruleset, copy_state(template), combat_id="simulation", seed=seed)
    by_id = {c["id"]: i for i, c in enumerate(state["combatants"])}
    for count in range(MAX_ACTIONS_PER_FIGHT):
        if state["status"] != STATUS_ACTIVE or not state["awaiting"]:
            return Fight(state, count, stalled=state["status"] == STATUS_ACTIVE)
        waiting = state["awaiting"][0]
        actor = state["combatants"][by_id[waiting["actor"]]]
        # The fight owns its state: it is changed in place, and only serialised
        # (half the price of a copy) to come back to it after a refusal.
        before = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
        for body in list(tactics.candidates(state, actor, waiting, tactic)):
            try:
                state, _ = apply_loaded(ruleset, state, load(body), in_place=True)
                break
            except RulesError:
                state = pickle.loads(before)  # refused: try the tactic's next choice
        else:
            return Fight(state, count, stalled=True)
    return Fight(state, MAX_ACTIONS_PER_FIGHT, stalled=True)
