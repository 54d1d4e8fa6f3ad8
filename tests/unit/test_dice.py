"""The dice engine: notation, limits, supplied dice, the policies, the generator."""

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.rules.dice import (
    ALLOWED_SIDES,
    ANY,
    DEFAULT_POLICY,
    KEY_BYTES,
    MAX_DICE_PER_EXPRESSION,
    OWN,
    SERVER_ONLY,
    DiceBox,
    DiceExpression,
    DiceStream,
    ReplayDice,
    commitment,
    new_stream,
    seeded_key,
    splitmix64,
)
from service.rules.errors import DiceNotYours, DiceSyntaxError, DieOutOfRange, TooManyDice, UnusedDice
from service.rules.viewer import GM_VIEWER, Viewer


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier"),
    [
        ("2d6", 2, 6, 0),
        ("1d6+3", 1, 6, 3),
        ("1d6-5", 1, 6, -5),
        ("d20", 1, 20, 0),
        ("10D6", 10, 6, 0),
        ("1d%", 1, 100, 0),
        (" 3 d 3 + 1 ", 3, 3, 1),
        ("4", 0, 6, 4),
    ],
)
def test_parse(text, count, sides, modifier):
    assert DiceExpression.parse(text) == DiceExpression(count, sides, modifier)


@pytest.mark.parametrize("text", ["", "d", "2d", "2d7", "1d6+", "x", "1d6+2d6", "d0"])
def test_parse_refuses_what_is_not_a_dice_expression(text):
    with pytest.raises(DiceSyntaxError):
        DiceExpression.parse(text)


def test_hard_cap_on_dice_per_expression():
    DiceExpression.parse(f"{MAX_DICE_PER_EXPRESSION}d6")
    with pytest.raises(TooManyDice):
        DiceExpression.parse(f"{MAX_DICE_PER_EXPRESSION + 1}d6")


def test_str_round_trips():
    for text in ["2d6", "1d6+3", "1d6-5", "5d6+6", "1d100"]:
        assert str(DiceExpression.parse(text)) == text


KEY = bytes(range(32))
PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "capanga", "name": "Capanga"}]
ANA = Viewer(combatant="ana")


def box(supplied=(), *, caller=GM_VIEWER, policy=ANY, key=KEY) -> DiceBox:
    return DiceBox(DiceStream(key, 0), supplied, caller=caller, policy=policy, combatants=PLAYERS)


def test_supplied_dice_come_first_then_the_server_rolls():
    dice = box([3, 5])
    assert dice.roll(6, "a", "ana") == 3
    assert dice.roll(6, "b", "capanga") == 5
    third = dice.roll(6, "c", "ana")
    assert [(r["source"], r["roller"]) for r in dice.rolls] == [("gm", "ana"), ("gm", "capanga"), ("server", "ana")]
    assert [r["purpose"] for r in dice.rolls] == ["a", "b", "c"]
    assert dice.rolls[2] == {
        "sides": 6,
        "value": third,
        "purpose": "c",
        "roller": "ana",
        "source": "server",
        "stream": 0,
        "draw": 0,
    }
    dice.finish()


def test_a_players_supplied_die_is_recorded_as_the_players():
    dice = box([4], caller=ANA)
    dice.roll(6, "attack", "ana")
    assert dice.rolls[0]["source"] == "player"


def test_a_supplied_die_out_of_range_names_its_index():
    dice = box([2, 7])
    dice.roll(6, "attack", "ana")
    with pytest.raises(DieOutOfRange) as error:
        dice.roll(6, "attack", "ana")
    assert error.value.field == "dice.1"
    assert "d6" in error.value.detail


def test_unused_supplied_dice_are_refused():
    dice = box([2, 3, 4])
    dice.roll(6, "x", "ana")
    with pytest.raises(UnusedDice) as error:
        dice.finish()
    assert "2 of the 3 supplied dice" in error.value.detail


def test_expression_total_includes_the_modifier():
    result = box([4, 2]).roll_expression("2d6+3", "damage", "ana")
    assert result.values == (4, 2)
    assert result.total == 9


# -- the dice policies ----------------------------------------------------------------


def test_own_hands_a_players_dice_only_to_its_own_combatants_rolls():
    # Ana's attack 5, 4; Capanga's defense (the server's); Ana's damage 6: nothing left over.
    dice = box([5, 4, 6], caller=ANA, policy=OWN)
    assert dice.roll_many(2, 6, "attack", "ana") == (5, 4)
    defense = dice.roll_many(2, 6, "defense", "capanga")
    assert dice.roll(6, "damage", "ana") == 6
    dice.finish()
    assert [r["source"] for r in dice.rolls] == ["player", "player", "server", "server", "player"]
    assert [r["value"] for r in dice.rolls[2:4]] == list(defense)


def test_own_a_players_dice_for_another_combatants_roll_are_unused_and_that_roll_is_named():
    # Today's README from Ana's token: 5, 4 attack, then 2, 3 meant for Capanga's defense; Ana's damage takes the 2.
    dice = box([5, 4, 2, 3, 6], caller=ANA, policy=OWN)
    dice.roll_many(2, 6, "attack", "ana")
    dice.roll_many(2, 6, "defense", "capanga")
    dice.roll(6, "damage", "ana")
    with pytest.raises(UnusedDice) as refused:
        dice.finish()
    assert refused.value.status == 422 and refused.value.field == "dice.3"
    assert refused.value.detail == (
        "2 of the 5 supplied dice were not needed (the rules took 3); with the dice policy 'own' the server rolled "
        "the dice of Capanga itself: only their player or the game master supplies them. "
        "Send only your own combatant's dice, or none"
    )


def test_own_left_over_dice_with_no_foreign_roll_are_only_unused():
    dice = box([5, 4, 1], caller=ANA, policy=OWN)
    dice.roll_many(2, 6, "attack", "ana")
    with pytest.raises(UnusedDice):
        dice.finish()


def test_own_lets_the_game_master_supply_any_roll():
    dice = box([5, 4, 2, 3], policy=OWN)
    dice.roll_many(2, 6, "attack", "ana")
    assert dice.roll_many(2, 6, "defense", "capanga") == (2, 3)
    assert dice.roll(6, "table", "gm") and dice.rolls[-1]["source"] == "server"
    dice.finish()


def test_own_a_gm_roll_is_only_the_game_masters_to_supply():
    dice = box([4], caller=ANA, policy=OWN)
    dice.roll(100, "death table", "gm")
    with pytest.raises(UnusedDice) as refused:
        dice.finish()
    assert "the server rolled the game master's dice itself: only the game master supplies them" in (
        refused.value.detail
    )


@pytest.mark.parametrize("caller", [GM_VIEWER, ANA])
def test_server_refuses_every_supplied_die_even_the_game_masters(caller):
    with pytest.raises(DiceNotYours) as refused:
        box([3], caller=caller, policy=SERVER_ONLY)
    assert refused.value.field == "dice" and "'server'" in refused.value.detail
    box([], caller=caller, policy=SERVER_ONLY).roll(6, "x", "ana")


def test_any_is_a_trusted_table_a_players_dice_go_to_every_roll_in_order():
    dice = box([5, 4, 2, 3], caller=ANA, policy=ANY)
    assert dice.roll_many(4, 6, "x", "capanga") == (5, 4, 2, 3)
    assert {r["source"] for r in dice.rolls} == {"player"}
    dice.finish()


def test_the_default_policy_is_own():
    assert DEFAULT_POLICY == OWN


# -- the generator --------------------------------------------------------------------


def test_a_server_die_is_keyed_blake2b_of_its_draw_number():
    # Recomputed here from the documented formula with hashlib, independently of DiceStream.
    stream = DiceStream(KEY, 3)
    values = [stream.roll(20) for _ in range(5)]
    for value, draw in values:
        bits = int.from_bytes(hashlib.blake2b(draw.to_bytes(8, "big"), key=KEY, digest_size=8).digest(), "big")
        assert value == bits % 20 + 1
    assert [draw for _, draw in values] == [0, 1, 2, 3, 4]
    assert stream.position() == {"stream": 3, "draw": 5}


def test_a_stream_resumes_exactly_from_its_position():
    first = DiceStream(KEY, 0)
    [first.roll(6) for _ in range(10)]
    resumed = DiceStream(KEY, 0, first.draw)
    assert [first.roll(100) for _ in range(10)] == [resumed.roll(100) for _ in range(10)]


def test_another_key_gives_other_dice():
    one, other = DiceStream(KEY, 0), DiceStream(bytes(32), 0)
    assert [one.roll(100)[0] for _ in range(20)] != [other.roll(100)[0] for _ in range(20)]


def test_the_commitment_is_the_keys_sha256():
    assert commitment(KEY) == hashlib.sha256(KEY).hexdigest()


def test_a_seeds_keys_are_reproducible_and_differ_by_stream():
    assert seeded_key(42, 0) == seeded_key(42, 0)
    assert len({seeded_key(42, 0), seeded_key(42, 1), seeded_key(43, 0)}) == 3
    assert len(seeded_key(42, 0)) == KEY_BYTES


def test_new_stream_keys_from_entropy_unless_the_combat_is_seeded():
    state = {"seed": None}
    published = new_stream(state, KEY)
    assert state["dice_keys"] == [KEY.hex()] and state["rng"] == {"stream": 0, "draw": 0}
    assert published == {"stream": 0, "sha256": commitment(KEY)} and state["dice_commitments"] == [published]
    second = new_stream(state, bytes(32))
    assert second["stream"] == 1 and state["rng"] == {"stream": 1, "draw": 0}
    seeded = {"seed": 7}
    new_stream(seeded, b"ignored")
    assert seeded["dice_keys"] == [seeded_key(7, 0).hex()]
    with pytest.raises(ValueError):
        new_stream({"seed": None}, b"short")


def test_splitmix64_reference_vector():
    # First outputs of SplitMix64 seeded with 0 (the published reference sequence); it derives seeds only.
    state, first = splitmix64(0)
    _, second = splitmix64(state)
    assert first == 0xE220A8397B1DCDAF
    assert second == 0x6E789E6AA1B965F4


def test_faces_are_uniform_chi_square():
    # 60,000 d6 from a fixed key; chi-square with 5 degrees of freedom stays
    # under 20.5 (p = 0.001), so this fails only if the generator is biased.
    stream = DiceStream(KEY, 0)
    counts = Counter(stream.roll(6)[0] for _ in range(60_000))
    expected = 10_000
    chi2 = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert chi2 < 20.5, counts


def test_replayed_dice_come_out_as_logged_and_move_the_counter_of_their_stream_only():
    first = box([3])  # a supplied die, then the server's draw 0
    first.roll(6, "a", "ana")
    first.roll(6, "b", "capanga")
    same_stream = ReplayDice(DiceStream(KEY, 0), first.rolls)
    assert [same_stream.roll(6, "a", "ana"), same_stream.roll(6, "b", "capanga")] == [r["value"] for r in first.rolls]
    assert same_stream.rolls == first.rolls and same_stream.position() == {"stream": 0, "draw": 1}
    newer = ReplayDice(DiceStream(KEY, 1), first.rolls)  # a redo after an undo: the new stream stays untouched
    newer.roll(6, "a", "ana")
    newer.roll(6, "b", "capanga")
    assert newer.rolls == first.rolls and newer.position() == {"stream": 1, "draw": 0}


@given(key=st.binary(min_size=32, max_size=32), sides=st.sampled_from(sorted(ALLOWED_SIDES)))
def test_every_server_roll_is_a_face_of_its_die(key, sides):
    dice = box(key=key)
    values = [dice.roll(sides, "p", "ana") for _ in range(20)]
    assert all(1 <= v <= sides for v in values)


@given(
    count=st.integers(1, MAX_DICE_PER_EXPRESSION),
    sides=st.sampled_from(sorted(ALLOWED_SIDES)),
    modifier=st.integers(-50, 50),
    key=st.binary(min_size=32, max_size=32),
)
def test_expression_totals_stay_in_bounds(count, sides, modifier, key):
    expression = DiceExpression(count, sides, modifier)
    assert DiceExpression.parse(str(expression)) == expression
    total = box(key=key).roll_expression(expression, "p", "ana").total
    assert count + modifier <= total <= count * sides + modifier


@given(values=st.lists(st.integers(1, 6), max_size=30))
def test_supplied_dice_are_used_verbatim(values):
    dice = box(values)
    assert [dice.roll(6, "p", "ana") for _ in values] == values
    dice.finish()
