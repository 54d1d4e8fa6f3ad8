from collections import Counter

import pytest

from service.simulation.stats import distribution, wilson


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    # Reference values: Wilson (1927) score interval, z = 1.95996.
    [(0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662)],
)
def test_wilson_interval(wins, n, low, high):
    got = wilson(wins, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_no_trials_means_no_knowledge():
    assert wilson(0, 0) == (0.0, 1.0)


def test_distribution_quantiles_and_histogram():
    summary = distribution(Counter({1: 5, 2: 3, 10: 2}))
    assert summary["mean"] == pytest.approx(3.1)
    assert (summary["min"], summary["p50"], summary["p90"], summary["max"]) == (1, 1, 10, 10)
    assert summary["histogram"] == {"1": 5, "2": 3, "10": 2}
