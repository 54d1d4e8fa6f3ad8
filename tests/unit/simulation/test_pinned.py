"""Fights pinned before the simulator was made faster (2026-11-30): the same
seed must keep giving the same fights, byte for byte.

The digests are the first 16 hex digits of the SHA-256 of
``json.dumps(result, sort_keys=True)`` (for ``test_one_fight_ends_as_pinned``:
of the fight's final state but its ``tally``, the running totals of a live
combat that the simulator does not keep), recorded from the simulator as it
was before any of its speed-ups; the readable figures beside them say what a
change broke when a digest no longer matches.

The dark-earth rows were pinned again on 2026-11-30 when its default tactic
began moving dice past the pain into ATT (docs/rules/dark-earth.md, G16), a
change of the fights, not of the simulator: the aggressive run had 3 of its
40 fights capped at 2,000 actions (both fighters critique, every ATT roll
empty), now none; the balanced and defensive runs keep their winners. The pinned fight's state
digest changed again with the option ``pain_beyond_pot`` (its default is in
every state's options), its figures did not. The space-opera-d100 fight's
state digest changed on 2026-12-02 when a sheet's catalog weapon without a
name of its own began to carry ``named: false`` (its sentences name it in the
combat's language); with that field left out the state gives the old digest,
df65e432c218fb28, and its figures are unchanged. The sistema-2d6 fight's state
digest changed the same way, later on 2026-12-02 (``named`` on its sheets'
weapons; without it, 35039d1740342fa5). The age-du-silicium fight's state
digest changed on 2026-12-04 when its rounds began to keep the round's
Initiative of each combatant (``initiatives``, issue 38); without that key
the state gives the old digest, 74a4b2711a355496, and its figures are unchanged.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from service.rules.registry import RULESETS
from service.simulation import Tactic, simulate
from service.simulation.fight import ActionLoader, play
from service.simulation.runner import fight_seed, load_template
from service.simulation.tactics import RULESET_TACTICS


def template(ruleset_id: str) -> dict:
    return {key: value for key, value in RULESETS[ruleset_id].example()["combat"].items() if key != "dice"}


def digest(data: dict) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


# ruleset, tactic: wins per side, undecided, mean actions, mean rounds, digest of the answer (40 fights, seed 2026)
RUNS = [
    ("age-du-silicium", Tactic(), {"runners": 29, "corpo": 11}, 0, 18.6, 4.625, "d60e076bec75f215"),
    (
        "age-du-silicium",
        Tactic("weakest", "aggressive"),
        {"runners": 29, "corpo": 11},
        0,
        18.6,
        4.625,
        "3446353980e8736b",
    ),
    ("dark-earth", Tactic(), {"stallites": 39, "ombres": 1}, 0, 7.0, 3.5, "42939f8e816778f5"),
    (
        "dark-earth",
        Tactic("weakest", "aggressive"),
        {"stallites": 38, "ombres": 2},
        0,
        5.2,
        2.6,
        "5d51e6f1da9775c8",
    ),
    ("dark-earth", Tactic("first", "defensive"), {"stallites": 40, "ombres": 0}, 0, 7.95, 3.975, "8832dc3c2348e626"),
    ("duel-2d6", Tactic(), {"truands": 11, "heros": 29}, 0, 95.075, 95.075, "dda9544aa772cdb8"),
    ("duel-2d6", Tactic("first", "defensive"), {"truands": 9, "heros": 31}, 0, 99.45, 99.45, "8c4f1c9fa9fbed26"),
    ("sistema-2d6", Tactic(), {"heroes": 25, "villains": 15}, 0, 4.825, 3.3, "03602bd237c03043"),
    ("sistema-2d6", Tactic("first", "defensive"), {"heroes": 25, "villains": 15}, 0, 4.825, 3.3, "4e6dc835b9332ddf"),
    ("space-opera-d100", Tactic(), {"rebelles": 17, "empire": 23}, 0, 35.825, 19.475, "9c494fa2a624f375"),
    (
        "space-opera-d100",
        Tactic("weakest", "aggressive"),
        {"rebelles": 9, "empire": 31},
        0,
        17.025,
        9.725,
        "8641484828bd21f6",
    ),
    (
        "space-opera-d100",
        Tactic("first", "defensive"),
        {"rebelles": 10, "empire": 30},
        0,
        28.825,
        15.7,
        "d4e23b60d99813c5",
    ),
]


@pytest.mark.parametrize(("ruleset_id", "tactic", "wins", "undecided", "actions", "rounds", "expected"), RUNS)
def test_a_run_answers_as_pinned(ruleset_id, tactic, wins, undecided, actions, rounds, expected):
    result = simulate(template(ruleset_id), 40, seed=2026, tactic=tactic)
    assert {side: counts["wins"] for side, counts in result["sides"].items()} == wins
    assert result["undecided"] == undecided
    assert result["actions"]["mean"] == actions
    assert result["rounds"]["mean"] == rounds
    assert digest(result) == expected


# ruleset: actions, final round, final version, health left per combatant, digest of the final state but its tally
# (fight 3 of a run seeded 2026, default tactic)
FIGHTS = [
    ("age-du-silicium", 18, 4, 19, {"ana": 0, "krieg": 3}, "ea0d5625477dda91"),
    ("dark-earth", 8, 4, 9, {"kael": 11, "goule": -4}, "836ba94bcde05e3d"),
    ("duel-2d6", 121, 121, 122, {"truand": 0, "philip": 5}, "e5afa85a9e0b15f9"),
    ("sistema-2d6", 3, 2, 4, {"ana": 14, "capanga": -1}, "f9f03391738b6f2f"),
    ("space-opera-d100", 30, 16, 31, {"kira": 1, "garde": 2}, "ec6bf4e06739d154"),
]


@pytest.mark.parametrize(("ruleset_id", "actions", "round_", "version", "health", "expected"), FIGHTS)
def test_one_fight_ends_as_pinned(ruleset_id, actions, round_, version, health, expected):
    ruleset, data = load_template(template(ruleset_id))
    tactics = RULESET_TACTICS[ruleset_id]
    fight = play(ruleset, tactics, data, fight_seed(2026, 3), Tactic(), ActionLoader(ruleset))
    state = fight.state
    assert (fight.actions, state["round"], state["version"], state["status"]) == (actions, round_, version, "over")
    assert {c["id"]: c[tactics.health] for c in state["combatants"]} == health
    assert "tally" not in state
    assert digest(state) == expected
