"""What one Monte Carlo run or dice-tree leaf of the odds does, counted (issue 29, item 2).

A run plays the proposed action and its answers through the engine; it needs
only their events and the combatants' health. It used to load every action
through its schema again and compute every awaited combatant's prompts (the
legal listing) after every action it applied, which made a run about three
times dearer than the rules themselves. Counted, not timed: the verdict does
not depend on the machine."""

from __future__ import annotations

import pytest

from service.rules import engine
from service.rules import ruleset as ruleset_module
from service.rules.odds.compute import odds
from service.rules.registry import RULESETS
from service.rules.viewer import Viewer

from .test_agreement import first_roll


class Counted:
    """Counts the calls of a function (a method of every ruleset: patched on the base class)."""

    def __init__(self, monkeypatch, owner, name: str):
        self.calls = 0
        original = getattr(owner, name)

        def counting(*args, **kwargs):
            self.calls += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, counting)


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_a_run_loads_no_action_and_lists_no_prompt_of_its_own(ruleset_id, monkeypatch):
    state, action = first_roll(ruleset_id)
    viewer = Viewer(combatant=action["actor"])
    counts, copied = {}, {}
    for runs in (100, 300):
        loads = Counted(monkeypatch, ruleset_module.Ruleset, "load_action")
        prompts = Counted(monkeypatch, ruleset_module.Ruleset, "awaiting")
        copies = Counted(monkeypatch, engine, "copy_state")
        result = odds(state, action, viewer, method="monte_carlo", runs=runs, seed=3)
        assert result["runs"] == runs
        counts[runs] = (loads.calls, prompts.calls)
        copied[runs] = copies.calls
        monkeypatch.undo()
    # The proposed action once for its authority check, once for the runs, and each distinct
    # default answer once: the same for 100 runs as for 300 (main loaded both actions on every run:
    # 200 more loads for 100 more runs, and listed the prompts twice per run).
    assert counts[100] == counts[300], counts
    loads, prompts = counts[100]
    assert loads <= 4, counts
    assert prompts == 0, counts
    # The engine copies the state only for a default answer (which the rules may refuse, and the
    # branch then tries the next): the proposed action changes the run's own copy in place.
    assumed = len(result["assumed_answers"])
    assert copied[300] - copied[100] <= 200 * assumed, (copied, assumed)
