"""The odds of a proposed action: the probability of each outcome and the
expected damage, exactly when the dice allow, else by seeded Monte Carlo.

Nothing is kept: the engine is pure, so the action is resolved on copies of
the state, once per outcome of the dice (exact) or once per seeded run
(Monte Carlo). The combat's own dice keys are never used: an exact answer
does not depend on them, and the runs draw from keys derived from the
request's ``seed``, so the odds cannot reveal the next rolls.

When the action leaves the combat waiting for another combatant's answer
(a defense, a reaction, the other fighters' allocations), the odds assume
the ``answers`` the caller gives, then the ruleset's default answers
(``Ruleset.odds``, see profile.py), until the round changes.
"""

from __future__ import annotations

import math
import pickle
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, cast

from .. import authority
from ..dice import DiceBox, seeded_key, splitmix64
from ..engine import apply_loaded
from ..errors import InvalidInput, RulesError
from ..gm.legal import awaiting_entries, possible
from ..registry import get_ruleset
from ..state import Action, Combat, Event
from ..viewer import Viewer
from .profile import OddsProfile
from .tree import DicePath, TooManyLeaves, leaves

if TYPE_CHECKING:  # ruleset.py imports odds/: only its type is needed here
    from ..ruleset import AnyRuleset

EXACT, MONTE_CARLO, AUTO = "exact", "monte_carlo", "auto"
MAX_DEFAULT_ANSWERS = 8


@dataclass(frozen=True)
class Leaf:
    outcome: str
    damage: dict[str, int]
    assumed: list[Action]  # the default answers this branch assumed


class DiceSource(Protocol):
    """Where a branch's dice come from: a :class:`DicePath` (exact) or a :class:`SeededSource`."""

    def box(self, state: Mapping[str, Any], supplied: Sequence[int], caller: Viewer, /) -> DiceBox: ...

    def mark(self) -> int: ...

    def rewind(self, mark: int) -> None: ...


class SeededSource:
    """Monte Carlo dice: the ordinary box, on a state whose dice key is derived from the run's seed."""

    box = staticmethod(DiceBox.for_state)

    def mark(self) -> int:
        return 0

    def rewind(self, mark: int) -> None:
        """Nothing to undo: a refused action left the state (and its rng) untouched."""


class Plan:
    """What every branch plays: the proposed action and the given answers, loaded
    once (not once per run or leaf), and the default answers, loaded once each.

    Branches are played without the readers' extras (``readers=False``: the
    prompts of every awaited combatant, the running tally, the end summary):
    a branch only needs its events and the combatants' health. The prompts
    that pick a default answer are derived only then, and only for the action
    types the profile answers with (``awaited``). Computing every prompt on
    every applied action made a run about three times dearer (issue 29)."""

    def __init__(self, ruleset: AnyRuleset, start: Combat[Any], actions: Sequence[Action], profile: OddsProfile):
        self.ruleset = ruleset
        self.start = start
        # Each branch starts from its own copy, made from these bytes (one unpickling; the
        # branch's first action then changes it in place instead of copying it again).
        self._start_bytes = pickle.dumps(start, pickle.HIGHEST_PROTOCOL)
        self.profile = profile
        self.proposed = actions[0]
        self.loaded: list[Action] = []
        for index, action in enumerate(actions):
            with _blamed(index):
                self.loaded.append(ruleset.load_action(action))
        self._answers: dict[str, Action | RulesError] = {}
        self._wanted = frozenset(profile.answered_types())

    def fresh(self, **changes: Any) -> Combat[Any]:
        """A copy of the start state of the branch's own, with ``changes``."""
        copied: Combat[Any] = pickle.loads(self._start_bytes)
        copied.update(changes)  # type: ignore[typeddict-item]
        return copied

    def answer(self, candidate: Action) -> Action:
        """A default answer, loaded (RulesError when the schema refuses it)."""
        key = repr(sorted(candidate.items()))
        loaded = self._answers.get(key)
        if loaded is None:
            try:
                loaded = self.ruleset.load_action(candidate)
            except RulesError as error:
                loaded = error
            self._answers[key] = loaded
        if isinstance(loaded, RulesError):
            raise loaded
        return loaded

    def awaited(self, state: Combat[Any]) -> Combat[Any]:
        """``state`` with the prompts a default answer is chosen from: the
        awaited entries that have a legal choice of a type the profile answers with."""

        def keep(ruleset: AnyRuleset, state: Combat[Any], actor_id: str, types: Sequence[str]) -> list[str]:
            return [t for t in types if t in self._wanted and possible(ruleset, state, actor_id, t)]

        return cast("Combat[Any]", {**state, "awaiting": list(awaiting_entries(self.ruleset, state, keep))})


def _play(plan: Plan, source: DiceSource, current: Combat[Any]) -> Leaf:
    """Resolve the proposed action, the given answers, then default answers, on one branch of the dice.

    ``current``: the branch's own copy of the start (``Plan.fresh``). The
    proposed action and the given answers change it in place (a refusal ends
    the whole request); a default answer, which the rules may refuse and the
    branch then tries the next of, is applied to a copy."""
    ruleset, profile, proposed, state = plan.ruleset, plan.profile, plan.proposed, plan.start
    events: list[Event] = []
    assumed: list[Action] = []
    for index, action in enumerate(plan.loaded):
        with _blamed(index):
            current, entry = apply_loaded(ruleset, current, action, dice_box=source.box, in_place=True, readers=False)
        events += entry["events"]
    for _ in range(MAX_DEFAULT_ANSWERS):
        if current["round"] != state["round"] or current["status"] != state["status"]:
            break
        answered = False
        for candidate in profile.answers(plan.awaited(current), proposed):
            mark = source.mark()
            try:
                current, entry = apply_loaded(
                    ruleset, current, plan.answer(candidate), dice_box=source.box, readers=False
                )
            except TooManyLeaves:
                raise
            except RulesError:  # InvalidInput included
                source.rewind(mark)
                continue
            events += entry["events"]
            assumed.append(candidate)
            answered = True
            break
        if not answered:
            break
    return Leaf(profile.outcome(events, proposed), profile.damage(state, current), assumed)


@contextmanager
def _blamed(index: int) -> Iterator[None]:
    """Point errors at ``action`` (index 0) or ``answers.<i>`` of the odds request."""
    where = "action" if index == 0 else f"answers.{index - 1}"
    try:
        yield
    except TooManyLeaves:
        raise
    except InvalidInput as error:
        messages: dict[str, Any] = {where: error.messages}
        if index:
            messages = {"answers": {index - 1: error.messages}}
        raise InvalidInput(messages) from error
    except RulesError as error:
        error.field = f"{where}.{error.field}" if error.field else where
        raise


def odds(
    state: Mapping[str, Any],
    action: Action,
    viewer: Viewer,
    *,
    answers: Sequence[Action] = (),
    method: str = AUTO,
    runs: int = 10_000,
    seed: int = 0,
    max_leaves: int = 10_000,
) -> dict[str, Any]:
    """The odds of ``action`` on ``state`` as ``viewer`` may compute them.

    The proposed action must be one ``viewer`` may post (authority.py): a
    player's odds set no field the GM decides and answer for no one else;
    ``answers`` are assumptions about the others, not decisions."""
    ruleset = get_ruleset(state["ruleset"])
    with _blamed(0):
        authority.check(ruleset, state, ruleset.load_action(action), viewer)
    profile = ruleset.odds
    start = profile.assumed_state(cast("Combat[Any]", dict(state)), viewer)
    plan = Plan(ruleset, start, [action, *answers], profile)
    if method in (EXACT, AUTO):
        try:
            return _exact(plan, max_leaves)
        except TooManyLeaves:
            if method == EXACT:
                raise
    return _monte_carlo(plan, runs, seed)


def _exact(plan: Plan, max_leaves: int) -> dict[str, Any]:
    probabilities: dict[str, Fraction] = defaultdict(Fraction)
    damage: dict[str, Fraction] = defaultdict(Fraction)
    assumed: list[Action] | None = None
    count = 0

    def run(path: DicePath) -> Leaf:
        return _play(plan, path, plan.fresh())

    for probability, leaf in leaves(run, max_leaves):
        count += 1
        assumed = leaf.assumed if assumed is None else assumed
        probabilities[leaf.outcome] += probability
        for combatant, lost in leaf.damage.items():
            damage[combatant] += probability * lost
    return {
        "method": EXACT,
        "leaves": count,
        "outcomes": _sorted(
            {"outcome": name, "probability": float(p), "fraction": f"{p.numerator}/{p.denominator}"}
            for name, p in probabilities.items()
        ),
        "expected_damage": [{"combatant": cid, "damage": float(total)} for cid, total in damage.items()],
        "assumed_answers": assumed,
    }


def _monte_carlo(plan: Plan, runs: int, seed: int) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    sums: dict[str, float] = defaultdict(float)
    squares: dict[str, float] = defaultdict(float)
    source, generator = SeededSource(), seed
    assumed: list[Action] | None = None
    for _ in range(runs):
        generator, run_seed = splitmix64(generator)
        run_state = plan.fresh(dice_keys=[seeded_key(run_seed, 0).hex()], rng={"stream": 0, "draw": 0})
        leaf = _play(plan, source, run_state)
        assumed = leaf.assumed if assumed is None else assumed
        counts[leaf.outcome] += 1
        for combatant, lost in leaf.damage.items():
            sums[combatant] += lost
            squares[combatant] += lost * lost
    outcomes: list[dict[str, Any]] = []
    for name, count in counts.items():
        p = count / runs
        outcomes.append({"outcome": name, "probability": p, "standard_error": math.sqrt(p * (1 - p) / runs)})
    expected: list[dict[str, Any]] = []
    for combatant, total in sums.items():
        mean = total / runs
        variance = max(0.0, squares[combatant] / runs - mean * mean) * runs / max(1, runs - 1)
        expected.append({"combatant": combatant, "damage": mean, "standard_error": math.sqrt(variance / runs)})
    return {
        "method": MONTE_CARLO,
        "runs": runs,
        "seed": seed,
        "outcomes": _sorted(outcomes),
        "expected_damage": expected,
        "assumed_answers": assumed,
    }


def _sorted(outcomes: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(outcomes, key=lambda o: (-o["probability"], o["outcome"]))
