"""Rules-core micro-benchmarks (not part of the test suite): ./bench/micro

Microseconds per complete attack for each ruleset, split into loading the
body (the ruleset's marshmallow schema) and resolving it, a combat's
creation, a replay from a snapshot, and the reference: one
``d20.roll("1d20")`` of avrae's d20.
"""

from __future__ import annotations

import d20
import pytest

from service.rules.engine import apply_action, apply_loaded, create_combat, replay
from service.rules.registry import RULESETS
from service.store.history import CHUNK, SNAPSHOT_EVERY

from .scenarios import ATTACKS, attack_state, creation_body
from .storage import long_fight

RULESET_IDS = sorted(ATTACKS)


def test_reference_d20_roll_1d20(benchmark):
    benchmark.group = "reference"
    result = benchmark(d20.roll, "1d20")
    assert 1 <= result.total <= 20


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_attack_complete(benchmark, ruleset_id):
    """The whole of apply_action: load the body, copy the state, resolve, commit."""
    benchmark.group = "attack: apply_action"
    state, attack = attack_state(ruleset_id)
    new_state, entry = benchmark(apply_action, state, attack)
    assert new_state["version"] == state["version"] + 1 and entry["rolls"]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_attack_resolution_only(benchmark, ruleset_id):
    """The rules alone: the body already loaded, the state changed in place (as the simulator does)."""
    benchmark.group = "attack: resolution only"
    ruleset = RULESETS[ruleset_id]
    state, attack = attack_state(ruleset_id)
    action = ruleset.load_action(attack)
    import pickle

    frozen = pickle.dumps(state)

    def setup():
        return (ruleset, pickle.loads(frozen), action), {"in_place": True}

    new_state, entry = benchmark.pedantic(apply_loaded, setup=setup, rounds=2000)
    assert entry["rolls"]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_load_attack_body(benchmark, ruleset_id):
    benchmark.group = "attack: loading the body"
    ruleset = RULESETS[ruleset_id]
    _, attack = attack_state(ruleset_id)
    assert benchmark(ruleset.load_action, attack)["type"] == attack["type"]


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_create_combat(benchmark, ruleset_id):
    benchmark.group = "create combat"
    state, _ = benchmark(create_combat, creation_body(ruleset_id), combat_id="bench", seed=1)
    assert state["version"] == 1


@pytest.mark.parametrize("count", [SNAPSHOT_EVERY - 1, CHUNK - 1])
def test_replay_from_a_snapshot(benchmark, count):
    """The longest replays the store needs: near the present, and in archived history."""
    benchmark.group = "replay"
    states, entries = long_fight(count + 1)
    final = benchmark(replay, states[0], entries[1 : count + 1])
    assert final == states[count]
