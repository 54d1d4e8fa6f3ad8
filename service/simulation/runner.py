"""Many fights from one template, and what they add up to.

``play_range`` is the one function that plays fights. Every run calls it,
and the runs differ only in where it runs: an inline request calls it from
``simulate`` in the web process (on gevent's thread pool under gunicorn,
``Compute.run``); a job calls it once per chunk, in a queue worker
(service/jobs/chunk.py ``run_chunk``) or in a child process of the web
process (service/simulation/pool.py, for ``run_chunks``).

Fight *i* of a run seeded *s* gets its own seed, a hash of ``(s, i)``
(``fight_seed``), so a run is reproducible from ``(template, fights, seed,
tactic)``, any single fight can be replayed as a live combat with
``{"seed": <its seed>}`` in the creation body, and any range of fights can be
played on its own: a long run is split into ``chunks`` whose boundaries depend
only on the number of fights, played anywhere, and their ``Summary`` counts
added (``Summary.merge``). Every rate and mean is computed once, from the
summed integers, so the merged answer is the single-process one byte for
byte.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping

from ..rules.errors import InvalidInput
from ..rules.registry import get_ruleset
from .fight import ActionLoader, play
from .stats import distribution, wilson
from .tactics import RULESET_TACTICS, Tactic

# 20,000 fights: a win rate within ±0.7 % (95 %), and at most ~3 minutes of a
# worker's thread for the slowest ruleset (docs/simulations.md).
MAX_FIGHTS = 20_000
SEED_LIMIT = 2**63 - 1
# Fights per chunk of a background run: a constant, so the chunks (and the
# answer) do not depend on how many workers play them.
CHUNK_FIGHTS = 2000
Progress = Callable[[int], None]


def load_template(template: Mapping) -> tuple:
    """The ruleset and the loaded creation body, errors pointing into ``template``."""
    if not isinstance(template, Mapping):
        raise InvalidInput({"template": ["a combat creation body, as for POST /combats"]})
    try:
        ruleset = get_ruleset(template.get("ruleset"))
        data = ruleset.load_creation(template)
    except InvalidInput as error:
        raise InvalidInput({"template": error.messages}) from None
    if data["dice"]:
        raise InvalidInput({"template": {"dice": ["a simulation rolls every die itself: send no dice"]}})
    # A simulated fight is over when at most one side stands, whatever the template says.
    data["options"]["auto_end"] = True
    return ruleset, data


def fight_seed(seed: int, index: int) -> int:
    """The seed of fight ``index`` (from 0) of a run seeded ``seed``.

    A hash of the pair rather than the n-th output of a generator: fight
    40 000 needs no walk through the 39 999 before it, and the simulator does
    not depend on the dice engine's generator.
    """
    digest = hashlib.blake2b(
        seed.to_bytes(8, "big") + index.to_bytes(8, "big"), digest_size=8, person=b"melee-fight"
    ).digest()
    return int.from_bytes(digest, "big") & SEED_LIMIT


def fight_seeds(seed: int, fights: int, start: int = 0):
    return (fight_seed(seed, index) for index in range(start, fights))


def chunks(fights: int, size: int | None = None) -> list[tuple[int, int]]:
    """``[start, stop)`` ranges of fight indexes covering ``fights``, ``size`` (CHUNK_FIGHTS) each but the last."""
    size = size or CHUNK_FIGHTS
    return [(start, min(start + size, fights)) for start in range(0, fights, size)]


def job_request(template: dict, fights: int, seed: int, tactic: Tactic) -> dict:
    """A simulation job's request, JSON-safe: what each of its chunks plays (service/jobs/chunk.py)."""
    return {
        "template": template,
        "fights": fights,
        "seed": seed,
        "tactic": {"target": tactic.target, "style": tactic.style},
    }


def play_range(
    template: Mapping,
    seed: int,
    tactic: Tactic,
    start: int,
    stop: int,
    progress: Progress | None = None,
    every: int = 500,
) -> Summary:
    """The summary of fights ``start`` to ``stop - 1`` of a run; ``progress`` gets the count played so far.

    The one place fights are played: a whole inline run (``simulate``) and
    each chunk of a job, in whichever process, come here."""
    ruleset, data = load_template(template)
    tactics = RULESET_TACTICS[ruleset.id]
    load = ActionLoader(ruleset)
    summary = Summary(data["combatants"], tactics.health)
    pause = _greenlet_pause()
    serialised = pickle.dumps(data, pickle.HIGHEST_PROTOCOL)  # once: each fight loads its own copy (fight.play)
    for played, one_seed in enumerate(fight_seeds(seed, stop, start), start=1):
        summary.add(play(ruleset, tactics, serialised, one_seed, tactic, load), tactics)
        if pause:
            pause()
        if progress and played % every == 0:
            progress(played)
    return summary


def _greenlet_pause() -> Callable[[], None] | None:
    """``time.sleep(0)`` under gevent's monkey-patching (None elsewhere).

    Between fights, let other greenlets run: under gunicorn's gevent workers a
    simulation played in the web process would otherwise hold the event loop.
    Elsewhere a real ``sleep(0)`` is a system call that only gives the core
    away to other processes.
    """
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("time"):
        return lambda: time.sleep(0)
    return None


def report(template: Mapping, seed: int, tactic: Tactic, summary: Summary) -> dict:
    """The answer of a run: what it was asked, then the summary's statistics."""
    ruleset = get_ruleset(template["ruleset"])
    return {
        "ruleset": ruleset.id,
        "fights": summary.fights,
        "seed": seed,
        "tactic": {
            "target": tactic.target,
            "style": tactic.style,
            "description": RULESET_TACTICS[ruleset.id].description,
        },
        **summary.result(),
    }


def simulate(template: Mapping, fights: int, seed: int, tactic: Tactic = Tactic()) -> dict:
    """The answer of a run of ``fights`` fights, every one in this process, in
    order: an inline request's answer, and the one a job's merged chunks must equal."""
    return report(template, seed, tactic, play_range(template, seed, tactic, 0, fights))


class Summary:
    def __init__(self, combatants: list[dict], health: str):
        self.health = health
        self.sides = list(dict.fromkeys(c["side"] for c in combatants))
        self.side_of = {c["id"]: c["side"] for c in combatants}
        self.wins: Counter = Counter()
        self.undecided = self.stalled = self.fights = 0
        self.rounds: Counter = Counter()
        self.actions: Counter = Counter()
        self.health_left: dict[str, Counter[int]] = {i: Counter() for i in self.side_of}
        self.deaths: Counter = Counter()
        self.wounds: dict[str, Counter[str]] = {i: Counter() for i in self.side_of}
        self.conditions: dict[str, Counter[str]] = {i: Counter() for i in self.side_of}

    # The counters, by name, that merge() adds and to_counts() serialises.
    COUNTED = ("wins", "rounds", "actions", "deaths")
    PER_COMBATANT = ("health_left", "wounds", "conditions")
    TOTALS = ("undecided", "stalled", "fights")

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

    def merge(self, other: Summary) -> None:
        """Add ``other``'s counts (the same template, other fights) to these."""
        for name in self.TOTALS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in self.COUNTED:
            getattr(self, name).update(getattr(other, name))
        for name in self.PER_COMBATANT:
            for cid, counter in getattr(self, name).items():
                counter.update(getattr(other, name)[cid])

    def to_counts(self) -> dict:
        """The counts as JSON-safe data (pairs keep integer keys integers)."""
        return {
            **{name: getattr(self, name) for name in self.TOTALS},
            **{name: _pairs(getattr(self, name)) for name in self.COUNTED},
            **{name: {cid: _pairs(c) for cid, c in getattr(self, name).items()} for name in self.PER_COMBATANT},
        }

    def load_counts(self, counts: Mapping) -> Summary:
        """Add counts made by ``to_counts`` (from another process) to these; returns self."""
        other = Summary([], self.health)
        for name in self.TOTALS:
            setattr(other, name, counts[name])
        for name in self.COUNTED:
            setattr(other, name, _counter(counts[name]))
        for name in self.PER_COMBATANT:
            setattr(other, name, {cid: _counter(counts[name][cid]) for cid in self.side_of})
        self.merge(other)
        return self

    @classmethod
    def merged(cls, template: Mapping, parts: Iterable[Mapping]) -> Summary:
        """One summary from the counts of every chunk of a run of ``template``."""
        ruleset, data = load_template(template)
        total = cls(data["combatants"], RULESET_TACTICS[ruleset.id].health)
        for counts in parts:
            total.load_counts(counts)
        return total

    def result(self) -> dict:
        n = self.fights
        sides = {}
        for side in self.sides:
            low, high = wilson(self.wins[side], n)
            sides[side] = {
                "wins": self.wins[side],
                "win_rate": round(self.wins[side] / n, 6),
                "ci95": [round(low, 6), round(high, 6)],
            }
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


def _pairs(counter: Counter) -> list[list]:
    return [[key, count] for key, count in counter.items()]


def _counter(pairs: list[list]) -> Counter:
    return Counter({key: count for key, count in pairs})
