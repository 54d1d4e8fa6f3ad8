"""Exact odds checked by hand, and the enumerator itself."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.dice import DiceBox
from service.rules.errors import InvalidAction
from service.rules.odds.compute import odds
from service.rules.odds.tree import DicePath, TooManyLeaves, leaves
from service.rules.registry import get_ruleset
from service.rules.viewer import GM_VIEWER
from tests.unit.rules_helpers import start

# What a path's box reads of a state: its dice policy, and the names of its combatants.
BOX_STATE = {"options": {"dice_policy": "any"}, "combatants": []}

SISTEMA = get_ruleset("sistema-2d6").example()["combat"]


def sistema(critical_rolls: bool):
    body = {**SISTEMA, "options": {"critical_rolls": critical_rolls}}
    state, _ = start("sistema-2d6", body["combatants"], dice=body["dice"], options=body["options"])
    return state


def two_d6_at_least(k: int) -> Fraction:
    return Fraction(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= k), 36)


def by_outcome(result: dict) -> dict[str, Fraction]:
    return {o["outcome"]: Fraction(o["fraction"]) for o in result["outcomes"]}


@pytest.mark.parametrize("difficulty", [8, 12, 14, 18])
def test_sistema_attack_against_a_difficulty_is_2d6_at_least_k(difficulty):
    # Ana: DES 3 + Armas de Fogo 2 + precision 1 = +6; she hits when 2d6 >= CD - 6.
    # Capanga has 15 PV and no armour: a Pistola's 1d6+3 (6.5 on average) never drops him.
    state = sistema(critical_rolls=False)
    action = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", "difficulty": difficulty}
    result = odds(state, action, GM_VIEWER)
    hit = two_d6_at_least(difficulty - 6)
    assert result["method"] == "exact"
    assert by_outcome(result).get("hit", Fraction(0)) == hit
    assert by_outcome(result).get("miss", Fraction(0)) == 1 - hit
    damage = {d["combatant"]: d["damage"] for d in result["expected_damage"]}
    assert damage.get("capanga", 0) == pytest.approx(float(hit * Fraction(13, 2)), abs=1e-12)
    assert result["assumed_answers"] == []


def test_critical_rolls_split_the_hits():
    # With critical_rolls, 6+6 always hits (critical, damage doubled) and 1+1 always misses.
    state = sistema(critical_rolls=True)
    action = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", "difficulty": 30}
    outcomes = by_outcome(odds(state, action, GM_VIEWER))
    critical = sum((p for name, p in outcomes.items() if name.startswith("critical hit")), Fraction(0))
    assert critical == Fraction(1, 36)
    assert outcomes["miss"] == Fraction(35, 36)


def test_leaves_visit_every_outcome_once_with_its_probability():
    # A d4, then a d6 only when the d4 shows 4: 3 + 6 leaves, weights 1/4 and 1/24.
    def run(path: DicePath):
        box = path.box(BOX_STATE, (), GM_VIEWER)
        first = box.roll(4, "first", "ana")
        return (first, box.roll(6, "second", "ana")) if first == 4 else (first,)

    found = list(leaves(run, 100))
    assert sorted(result for _, result in found) == [(1,), (2,), (3,)] + [(4, face) for face in range(1, 7)]
    assert sum(p for p, _ in found) == 1
    assert dict((r, p) for p, r in found)[(4, 6)] == Fraction(1, 24)


def test_client_dice_come_first_and_only_server_dice_branch():
    def run(path: DicePath):
        box = path.box(BOX_STATE, (5,), GM_VIEWER)
        return box.roll(6, "supplied", "ana"), box.roll(6, "server", "ana")

    found = list(leaves(run, 100))
    assert [result for _, result in found] == [(5, face) for face in range(1, 7)]


def test_a_tree_too_wide_or_infinite_is_refused_before_the_dice_cap():
    def exploding(path: DicePath):
        box: DiceBox = path.box(BOX_STATE, (), GM_VIEWER)
        total = face = box.roll(6, "exploding", "ana")
        while face == 6:
            face = box.roll(6, "again", "ana")
            total += face
        return total

    with pytest.raises(TooManyLeaves) as refused:
        list(leaves(exploding, 1000))
    assert isinstance(refused.value, InvalidAction) and refused.value.field == "method"


def test_exact_refused_when_too_wide_and_auto_falls_back_to_monte_carlo():
    state = sistema(critical_rolls=True)
    action = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola"}
    with pytest.raises(TooManyLeaves):
        odds(state, action, GM_VIEWER, method="exact", max_leaves=100)
    result = odds(state, action, GM_VIEWER, method="auto", max_leaves=100, runs=200, seed=3)
    assert result["method"] == "monte_carlo" and result["runs"] == 200 and result["seed"] == 3
    assert all(0 < o["standard_error"] < 0.05 for o in result["outcomes"] if 0 < o["probability"] < 1)


def test_monte_carlo_is_reproducible_from_its_seed_and_ignores_the_combats_generator():
    state = sistema(critical_rolls=True)
    action = {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola"}
    first = odds(state, action, GM_VIEWER, method="monte_carlo", runs=300, seed=11)
    other_keys = {**state, "dice_keys": [bytes(32).hex()], "rng": {"stream": 0, "draw": 7}}
    assert odds(other_keys, action, GM_VIEWER, method="monte_carlo", runs=300, seed=11) == first
    assert odds(state, action, GM_VIEWER, method="monte_carlo", runs=300, seed=12) != first


def test_the_state_given_is_left_untouched():
    import copy

    state = sistema(critical_rolls=True)
    before = copy.deepcopy(state)
    odds(state, {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola"}, GM_VIEWER)
    assert state == before


def test_errors_point_into_the_odds_request():
    state = sistema(critical_rolls=True)
    with pytest.raises(InvalidAction) as refused:
        odds(state, {"type": "attack", "actor": "ana", "target": "nobody"}, GM_VIEWER)
    assert refused.value.field == "action.target"
