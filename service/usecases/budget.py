"""What a costly request will cost, in compute units, before it runs (docs/security.md#costly-requests).

A unit is about 0.2 ms of CPU on the development machine: one Monte Carlo
run or dice-tree leaf of ``/odds`` on a combat of two. The cost is what the
request will really do: the branches it allows times their weight in the
combat's size for the odds, the fights it asks for times what one fight of
its ruleset and size takes for a simulation (measured: ``FIGHT_MS``). The
budget itself (per client, per worker) is counted by service/adapters/compute.py
and enforced by the API's ``Compute`` port (service/api/budget.py); this
module is only the policy: costs and bounds.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

UNIT_MS = 0.2
# The least a simulated fight costs, whatever its size (the flat cost before issue 29).
FIGHT_UNITS = 10
# The most units one request may cost (a larger one is refused: 422), and so the
# least COMPUTE_LIMIT a deployment may set (service/settings.py): about 40 s of CPU.
MAX_REQUEST_UNITS = 200_000
# Simulations costing up to this many units answer inline (about 2.5 s of a web
# worker); costlier ones run as a job.
INLINE_MAX_UNITS = 12_500
# The weighted branches of one /odds request, Monte Carlo runs and dice-tree
# leaves each (about 2 s of CPU): a larger combat gets fewer of them.
ODDS_MAX_UNITS = 10_000
MIN_RUNS = 100

# CPU per simulated fight, in ms, for templates of 2, 10 and 50 combatants (the
# example's sheets repeated), measured with service.simulation.simulate on the
# development machine (2 cores, shared: load 12-14) on 2026-12-02: 100, 20 and
# 4 fights. In between: interpolated on a log-log scale.
SIZES = (2, 10, 50)
FIGHT_MS: dict[str, tuple[float, float, float]] = {
    "age-du-silicium": (1.3, 6.9, 105.1),
    "dark-earth": (0.6, 4.6, 105.7),
    "duel-2d6": (8.1, 577.0, 1759.4),
    "sistema-2d6": (0.4, 3.2, 27.7),
    "space-opera-d100": (2.3, 9.5, 103.1),
}
# A ruleset not measured (a plugin) is charged as the dearest.
UNMEASURED = tuple(max(row[i] for row in FIGHT_MS.values()) for i in range(len(SIZES)))


def fight_ms(ruleset_id: str, combatants: int) -> float:
    """The CPU one simulated fight of this ruleset and size takes, as measured (FIGHT_MS)."""
    row = FIGHT_MS.get(ruleset_id, UNMEASURED)
    n = min(max(combatants, SIZES[0]), SIZES[-1])
    for i in range(len(SIZES) - 1):
        low, high, low_ms, high_ms = SIZES[i], SIZES[i + 1], row[i], row[i + 1]
        if n <= high:
            share = math.log(n / low) / math.log(high / low)
            return math.exp(math.log(low_ms) + share * (math.log(high_ms) - math.log(low_ms)))
    return row[-1]  # pragma: no cover - n is at most SIZES[-1]


def fight_units(ruleset_id: str, combatants: int) -> int:
    """Units per simulated fight: its measured CPU, FIGHT_UNITS at least."""
    return max(FIGHT_UNITS, math.ceil(fight_ms(ruleset_id, combatants) / UNIT_MS))


def simulation_cost(template: Mapping[str, Any], fights: int) -> int:
    """Units of ``fights`` fights of ``template`` (a loaded creation body's ruleset and combatants)."""
    return fights * fight_units(str(template.get("ruleset")), len(template.get("combatants") or ()))


def max_fights(template: Mapping[str, Any]) -> int:
    """The most fights of ``template`` one request may ask for (MAX_REQUEST_UNITS)."""
    return MAX_REQUEST_UNITS // fight_units(str(template.get("ruleset")), len(template.get("combatants") or ()))


def branch_weight(combatants: int) -> float:
    """Units of one Monte Carlo run or dice-tree leaf: each applied action copies and
    checks the whole combat (measured: 0.22, 0.35 and 1.1 ms per run for 2, 10 and 50)."""
    return 1 + max(0, combatants - 2) / 12


def odds_branches(asked: int, combatants: int) -> int:
    """The runs (or leaves) an /odds request gets: what it asked for, at most ODDS_MAX_UNITS weighted."""
    return min(asked, max(MIN_RUNS, int(ODDS_MAX_UNITS / branch_weight(combatants))))


def odds_cost(method: str, runs: int, leaves: int, combatants: int) -> int:
    """Units of an /odds request: the branches it allows (exact: leaves, Monte Carlo: runs, auto: both), weighted."""
    branches = {"exact": leaves, "monte_carlo": runs}.get(method, leaves + runs)
    return math.ceil(branches * branch_weight(combatants))
