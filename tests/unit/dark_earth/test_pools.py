"""Dark Earth dice: 1-3 no success, 4-5 one, 6 two; all ones a fumble."""

import pytest

from service.rules.dark_earth.pools import Pool

from ..rules_helpers import codes, params, start, step
from .fixtures import RULESET, allocate, goule, kael


@pytest.mark.parametrize(("face", "successes"), [(1, 0), (2, 0), (3, 0), (4, 1), (5, 1), (6, 2)])
def test_each_face_counts_its_successes(face, successes):
    assert Pool((face,)).successes == successes


def test_a_pool_adds_up_its_dice():
    assert Pool((6, 5, 4, 3, 2, 1)).successes == 4


@pytest.mark.parametrize(
    ("dice", "fumble"), [((1,), True), ((1, 1, 1), True), ((1, 1, 2), False), ((6, 1), False), ((), False)]
)
def test_all_ones_is_a_fumble_and_an_empty_pool_is_not(dice, fumble):
    assert Pool(dice).fumble is fumble


def test_a_fumbled_shot_misses_even_against_difficulty_zero():
    # Bout portant -2, immobile -1, TAI +3 -3: DIFF 3-6 -> 0; five ones still miss.
    state, _ = start(RULESET, [kael(), goule(attributes={"MEL": 3, "TIR": 1, "AGI": 4, "FOR": 3, "RES": 3, "TAI": 3})])
    state, _ = step(state, allocate("goule", split=(2, 0, 4)))
    shot = {"range": "bout_portant", "target_movement": "immobile"}
    state, entry = step(state, allocate("kael", "goule", weapon="arc", shot=shot, dice=[1, 1, 1, 1, 1]))
    rolled = params(entry, "shot_rolled")
    assert (rolled["difficulty"], rolled["successes"], rolled["fumble"], rolled["hit"]) == (0, 0, True, False)
    assert params(entry, "fumbled") == {"combatant": "kael", "roll": "TIR"}
    assert "shot_missed" in codes(entry)
