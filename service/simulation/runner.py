"""Many fights from one template, and what they add up to.

Fight *i* of a run seeded *s* gets its own seed from SplitMix64 (the dice
engine's generator), so a run is reproducible from ``(template, fights,
seed, tactic)`` and any single fight can be replayed as a live combat with
``{"seed": <its seed>}`` in the creation body.
"""

from __future__ import annotations

import time

from collections import Counter
from collections.abc import Callable, Mapping

from marshmallow import ValidationError

from ..rules.dice import splitmix64
from ..rules.registry import get_ruleset
from .fight import ActionLoader, play
from .stats import distribution, wilson
from .tactics import RULESET_TACTICS, Tactic

# 20,000 fights: a win rate within ±0.7 % (95 %), and at most ~3 minutes of a
# worker's thread for the slowest ruleset (docs/simulations.md).
MAX_FIGHTS = 20_000
SEED_LIMIT = 2**63 - 1
Progress = Callable[[int], None]


def load_template(template: Mapping) -> tuple:
    """The ruleset and the loaded creation body, errors pointing into ``template``."""
    if not isinstance(template, Mapping):
        raise ValidationError({"template": ["a combat creation body, as for POST /combats"]})
    try:
        ruleset = get_ruleset(template.get("ruleset"))
        data = ruleset.load_creation(template)
    except ValidationError as error:
        raise ValidationError({"template": error.messages}) from None
    if data["dice"]:
        raise ValidationError({"template": {"dice": ["a simulation rolls every die itself: send no dice"]}})
    # A simulated fight is over when at most one side stands, whatever the template says.
    data["options"]["auto_end"] = True
    return ruleset, data


def fight_seeds(seed: int, fights: int):
    state = seed
    for _ in range(fights):
        state, bits = splitmix64(state)
        yield bits & SEED_LIMIT


def simulate(
    template: Mapping, fights: int, seed: int, tactic: Tactic = Tactic(), progress: Progress | None = None, every: int = 500
) -> dict:
    ruleset, data = load_template(template)
    tactics = RULESET_TACTICS[ruleset.id]
    load = ActionLoader(ruleset)
    summary = Summary(data["combatants"], tactics.health)
    for index, fight_seed in enumerate(fight_seeds(seed, fights), start=1):
        summary.add(play(ruleset, tactics, data, fight_seed, tactic, load), tactics)
        # Between fights, let the worker's other requests run: under gunicorn's
        # gevent workers a simulation would otherwise hold them all (and the
        # event streams) until it ends.
        time.sleep(0)
        if progress and index % every == 0:
            progress(index)
    return {
        "ruleset": ruleset.id,
        "fights": fights,
        "seed": seed,
        "tactic": {"target": tactic.target, "style": tactic.style, "description": tactics.description},
        **summary.result(),
    }


class Summary:
    def __init__(self, combatants: list[dict], health: str):
        self.health = health
        self.sides = list(dict.fromkeys(c["side"] for c in combatants))
        self.side_of = {c["id"]: c["side"] for c in combatants}
        self.wins: Counter = Counter()
        self.undecided = self.stalled = self.fights = 0
        self.rounds: Counter = Counter()
        self.actions: Counter = Counter()
        self.health_left = {i: Counter() for i in self.side_of}
        self.deaths: Counter = Counter()
        self.wounds = {i: Counter() for i in self.side_of}
        self.conditions = {i: Counter() for i in self.side_of}

    def add(self, fight, tactics) -> None:
        state = fight.state
        self.fights += 1
        self.rounds[state["round"]] += 1
        self.actions[fight.actions] += 1
        self.stalled += fight.stalled
        standing = {c["side"] for c in state["combatants"] if tactics.standing(c)}
        if len(standing) == 1 and not fight.stalled:
            self.wins[standing.pop()] += 1
        else:
            self.undecided += 1
        for combatant in state["combatants"]:
            cid = combatant["id"]
            self.health_left[cid][combatant[self.health]] += 1
            codes = {condition["code"] for condition in combatant["conditions"]}
            self.deaths[cid] += "dead" in codes
            for code in codes:
                self.conditions[cid][code] += 1
            # The rulesets that grade wounds keep the grade on the combatant.
            level = combatant.get("wound", combatant.get("wound_level"))
            self.wounds[cid][str(level) if level is not None else "none"] += 1

    def result(self) -> dict:
        n = self.fights
        sides = {}
        for side in self.sides:
            low, high = wilson(self.wins[side], n)
            sides[side] = {"wins": self.wins[side], "win_rate": round(self.wins[side] / n, 6), "ci95": [round(low, 6), round(high, 6)]}
        combatants = {
            cid: {
                "side": side,
                "health_left": distribution(self.health_left[cid]),
                "deaths": self.deaths[cid],
                "death_rate": round(self.deaths[cid] / n, 6),
                "wound_levels": dict(sorted(self.wounds[cid].items())),
                "conditions": dict(sorted(self.conditions[cid].items())),
            }
            for cid, side in self.side_of.items()
        }
        return {
            "sides": sides,
            "undecided": self.undecided,
            "stalled": self.stalled,
            "rounds": distribution(self.rounds),
            "actions": distribution(self.actions),
            "combatants": combatants,
        }
