"""One simulated fight: the engine, driven by a tactic, until one side stands.

Every action goes through ``engine.apply_loaded``, the path a live combat's
``POST /actions`` takes after loading the body: the same rules, the same
dice. What the simulator saves is only work around the rules:

- the template is validated once, and each distinct action body a tactic
  produces is loaded once (``ActionLoader``);
- the fight owns its state: it is changed in place; after a refusal it is
  rebuilt by playing the fight's accepted actions again from its start (the
  first refusal of a fight), then from a serialised copy made before each
  action (later ones): a fight refused nothing pays for no copy;
- the engine keeps none of what only readers of a stored combat use
  (``readers=False``: the prompts of every awaited combatant, the running
  tally, the end summary event); the simulator derives the one prompt it
  plays, the first, with the same code (``gm/legal.awaiting_entries``),
  probing the legality of only the action types its tactic asks about
  (``ProbedTypes``), and the whole ``awaiting`` once the fight stops, so the
  final state is the one ``apply_action`` would leave, but for the ``tally``;
- the tactic's bodies are made one at a time, not all before the first is
  tried.
"""

from __future__ import annotations

import marshal
import pickle
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ..rules.engine import STATUS_ACTIVE, apply_loaded, copy_state, create_loaded
from ..rules.errors import InvalidInput, RulesError
from ..rules.gm.legal import awaiting_entries, possible
from ..rules.ruleset import Ruleset
from ..rules.state import Action, Awaiting, Combat
from .tactics import RulesetTactics, Tactic

# A fight that has not ended after this many actions is counted undecided
# (e.g. two fighters who cannot hurt each other).
MAX_ACTIONS_PER_FIGHT = 2000


class ActionLoader:
    """``ruleset.load_action`` memoised on the body (tactics repeat a few bodies)."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
        self._loaded: dict[bytes | str, dict | InvalidInput] = {}

    def __call__(self, body: dict) -> dict:
        # The body's exact content (True is not 1, "1" is not 1), in the tactic's key
        # order (the same body in another order is loaded once more): marshal's version 0,
        # which writes every value as it is (no references, no interning), in about 60 % of
        # the instructions of repr(); repr() for what marshal cannot write.
        try:
            key: bytes | str = marshal.dumps(body, 0)
        except ValueError:
            key = repr(body)
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


class ProbedTypes(Sequence):
    """An awaited entry's action types with a legal choice, probed only as far as they are read.

    Reads as the list ``gm/legal.legal_types`` makes (the same ``possible``
    probes, in the same order), but ``"attack" in types`` probes ``attack``
    alone: a tactic asks about a few types, and the legality probes were
    most of the prompts' cost.
    """

    __slots__ = ("_ruleset", "_state", "_actor", "_types", "_known")

    def __init__(self, ruleset: Ruleset, state: Combat[Any], actor_id: str, types: list[str]):
        self._ruleset, self._state, self._actor, self._types = ruleset, state, actor_id, types
        self._known: dict[str, bool] = {}

    def _possible(self, action_type: str) -> bool:
        known = self._known.get(action_type)
        if known is None:
            known = self._known[action_type] = possible(self._ruleset, self._state, self._actor, action_type)
        return known

    def _list(self) -> list[str]:
        return [t for t in self._types if self._possible(t)]

    def __contains__(self, action_type: object) -> bool:
        return action_type in self._types and self._possible(action_type)  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return any(self._possible(t) for t in self._types)

    def __len__(self) -> int:
        return len(self._list())

    def __iter__(self) -> Iterator[str]:
        return iter(self._list())

    def __getitem__(self, index):  # type: ignore[override]
        return self._list()[index]

    def __eq__(self, other: object) -> bool:
        return self._list() == (other._list() if isinstance(other, ProbedTypes) else other)

    def __repr__(self) -> str:
        return repr(self._list())


def first_awaited(ruleset: Ruleset) -> Callable[[Combat[Any]], Awaiting | None]:
    """``state -> ruleset.awaiting(state)[0]`` (None when nobody is), deriving no other entry."""
    if type(ruleset).awaiting is Ruleset.awaiting:
        return lambda state: next(awaiting_entries(ruleset, state, ProbedTypes), None)
    # A ruleset with its own awaiting(): the whole list, as a live combat gets it.
    return lambda state: next(iter(ruleset.awaiting(state)), None)


def play(
    ruleset: Ruleset, tactics: RulesetTactics, template: dict | bytes, seed: int, tactic: Tactic, load: ActionLoader
) -> Fight:
    """Play one fight from a loaded creation body, with the server's dice seeded by ``seed``.

    ``template``: the loaded body, or its pickle (the runner serialises it once per run: each
    fight then only loads its own copy, instead of serialising the body too)."""
    state = _started(ruleset, template, seed)
    by_id = {c["id"]: i for i, c in enumerate(state["combatants"])}
    next_awaited = first_awaited(ruleset)
    candidates = tactics.candidates
    # The way back after a refusal (the rules change the state in place, even for an action they
    # then refuse): until a first refusal, the actions played, to play again from the start (a
    # fight is a function of its seed and its actions); from then on, the state serialised before
    # each action (half the price of a copy). The default tactics are refused no action in the
    # example fights: no fight pays for a copy it never uses.
    played: list[Action] | None = []
    before = b""
    for count in range(MAX_ACTIONS_PER_FIGHT):
        waiting = next_awaited(state) if state["status"] == STATUS_ACTIVE else None
        if waiting is None:
            return _stopped(ruleset, state, count, stalled=state["status"] == STATUS_ACTIVE)
        if played is None:
            before = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
        tried = 0
        while True:
            # The tactic's bodies are made one at a time, from the state before the action:
            # after a refusal, from its restored copy, past the bodies already tried
            # (a tactic is a function of the state: the same bodies, in the same order).
            actor = state["combatants"][by_id[waiting["actor"]]]
            body = next(islice(candidates(state, actor, waiting, tactic), tried, None), None)
            if body is None:
                return _stopped(ruleset, state, count, stalled=True)
            try:
                action = load(body)
            except InvalidInput:  # refused before the rules: the state is untouched
                tried += 1
                continue
            try:
                state, _ = apply_loaded(ruleset, state, action, in_place=True, readers=False)
                if played is not None:
                    played.append(action)
                break
            except RulesError:
                if played is not None:  # the fight's first refusal: its actions again, then snapshots
                    state = _started(ruleset, template, seed)
                    for earlier in played:
                        state, _ = apply_loaded(ruleset, state, earlier, in_place=True, readers=False)
                    played = None
                    before = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)
                else:
                    state = pickle.loads(before)  # refused: try the tactic's next choice
                again = next_awaited(state)  # the same entry, probing the restored state
                assert again is not None
                waiting, tried = again, tried + 1
    return _stopped(ruleset, state, MAX_ACTIONS_PER_FIGHT, stalled=True)


def _started(ruleset: Ruleset, template: dict | bytes, seed: int) -> Combat[Any]:
    data = pickle.loads(template) if isinstance(template, bytes) else copy_state(template)  # the fight's own copy
    state, _ = create_loaded(ruleset, data, combat_id="simulation", seed=seed, readers=False)
    return state


def _stopped(ruleset: Ruleset, state: Combat[Any], count: int, stalled: bool) -> Fight:
    # What apply_action would have left in the state: the prompts ([] once the fight is over).
    state["awaiting"] = ruleset.awaiting(state)
    return Fight(state, count, stalled)
