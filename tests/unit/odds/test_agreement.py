"""The odds agree with a large seeded simulation of the same action, for every ruleset.

The simulation plays the action (and the defender's answer) through the
engine, as POST /actions would, from independent seeds. Tolerance: each
probability and each expected damage within 4.5 combined standard errors
(the odds' own, zero when exact, and the simulation's); a correct
implementation fails one comparison with probability below 1e-5, and the
seeds are fixed, so the test is deterministic.
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict

import pytest

from service.rules.engine import apply_action, create_combat
from service.rules.odds.compute import odds
from service.rules.registry import RULESETS, get_ruleset
from service.rules.viewer import Viewer

SIMULATIONS = 3000
SIGMAS = 4.5

# The documented default answer of each ruleset, played explicitly by the simulation.
DEFAULT_ANSWERS = {
    "duel-2d6": [{"type": "defend", "actor": "philip", "defense": "esquiver"}],
    "dark-earth": [{"type": "allocate", "actor": "goule", "target": "kael", "split": {"init": 2, "att": 2, "def": 2}}],
    "space-opera-d100": [{"type": "react", "actor": "garde", "kind": "dodge"}],
    "age-du-silicium": [],
    "sistema-2d6": [{"type": "defend", "actor": "capanga"}],
}


def first_roll(ruleset_id: str) -> tuple[dict, dict]:
    """The example fight, up to its first attack (or allocation), without the dice it supplies."""
    example = get_ruleset(ruleset_id).example()
    state, _ = create_combat(example["combat"], combat_id="odds", seed=5)
    for action in example["actions"]:
        if action["type"] in ("attack", "allocate"):
            return state, {key: value for key, value in action.items() if key != "dice"}
        state, _ = apply_action(state, action)
    raise AssertionError(f"{ruleset_id}'s example never attacks")


def simulate(ruleset_id: str, state: dict, actions: list[dict]):
    profile = get_ruleset(ruleset_id).odds
    seeds = random.Random(f"simulation {ruleset_id}")
    counts, damage = Counter(), defaultdict(list)
    for _ in range(SIMULATIONS):
        current, events = {**state, "dice_keys": [seeds.randbytes(32).hex()], "rng": {"stream": 0, "draw": 0}}, []
        for action in actions:
            current, entry = apply_action(current, action)
            events += entry["events"]
        counts[profile.outcome(events, actions[0])] += 1
        for combatant, lost in profile.damage(state, current).items():
            damage[combatant].append(lost)
    return counts, damage


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_odds_agree_with_a_seeded_simulation(ruleset_id):
    state, action = first_roll(ruleset_id)
    result = odds(state, action, Viewer(combatant=action["actor"]), runs=SIMULATIONS, seed=99)
    assert result["assumed_answers"] == DEFAULT_ANSWERS[ruleset_id]
    counts, damage = simulate(ruleset_id, state, [action, *DEFAULT_ANSWERS[ruleset_id]])

    predicted = {o["outcome"]: o for o in result["outcomes"]}
    assert abs(sum(o["probability"] for o in result["outcomes"]) - 1) < 1e-9
    for outcome in set(predicted) | set(counts):
        odds_p = predicted.get(outcome, {}).get("probability", 0.0)
        odds_se = predicted.get(outcome, {}).get("standard_error", 0.0)
        seen = counts[outcome] / SIMULATIONS
        p = max(odds_p, seen)
        tolerance = SIGMAS * math.sqrt(odds_se**2 + p * (1 - p) / SIMULATIONS) + 1e-12
        assert abs(odds_p - seen) <= tolerance, (outcome, odds_p, seen, tolerance)

    expected = {d["combatant"]: d for d in result["expected_damage"]}
    for combatant in set(expected) | set(damage):
        losses = damage.get(combatant, []) + [0] * (SIMULATIONS - len(damage.get(combatant, [])))
        mean = sum(losses) / SIMULATIONS
        variance = sum((x - mean) ** 2 for x in losses) / (SIMULATIONS - 1)
        odds_mean = expected.get(combatant, {}).get("damage", 0.0)
        odds_se = expected.get(combatant, {}).get("standard_error", 0.0)
        tolerance = SIGMAS * math.sqrt(odds_se**2 + variance / SIMULATIONS) + 1e-12
        assert abs(odds_mean - mean) <= tolerance, (combatant, odds_mean, mean, tolerance)
