"""Summaries of many fights: win rates with Wilson intervals, distributions."""

from __future__ import annotations

import math
from collections import Counter

Z_95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at
    rates near 0 or 1, where lopsided matchups live.
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def distribution(values: Counter) -> dict:
    """Mean, quantiles and the histogram of integer values."""
    total = sum(values.values())
    if not total:
        return {"mean": None, "min": None, "p50": None, "p90": None, "max": None, "histogram": {}}
    ordered = sorted(values)
    return {
        "mean": round(sum(v * n for v, n in values.items()) / total, 4),
        "min": ordered[0],
        "p50": _quantile(values, ordered, total, 0.5),
        "p90": _quantile(values, ordered, total, 0.9),
        "max": ordered[-1],
        "histogram": {str(v): values[v] for v in ordered},
    }


def _quantile(values: Counter, ordered: list[int], total: int, q: float) -> int:
    rank, seen = math.ceil(q * total), 0
    for value in ordered:
        seen += values[value]
        if seen >= rank:
            return value
    return ordered[-1]
