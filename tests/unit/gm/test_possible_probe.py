"""The legality probe (gm/legal.possible) answers what the full listing says.

``possible`` stops a ruleset's listing at its first choice (``describe``, or
``choice_found`` placed before a choice's costlier parameters): it must be
true exactly when the listing (``Ruleset.action_choices``) has a choice.
Checked at every state of a few simulated fights of every ruleset, for every
prompted combatant's every candidate action type.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from service.rules.gm.legal import possible
from service.rules.registry import RULESETS
from service.simulation import Tactic
from service.simulation import fight as fight_module
from service.simulation.fight import ActionLoader, play
from service.simulation.runner import fight_seed, load_template
from service.simulation.tactics import RULESET_TACTICS


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_the_probe_agrees_with_the_listing_along_simulated_fights(
    ruleset_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ruleset, data = load_template({k: v for k, v in RULESETS[ruleset_id].example()["combat"].items() if k != "dice"})
    states: list[bytes] = []

    apply_loaded = fight_module.apply_loaded

    def recording(ruleset: Any, state: Any, action: Any, **options: Any) -> Any:
        states.append(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))  # each state an action is played on
        return apply_loaded(ruleset, state, action, **options)

    monkeypatch.setattr(fight_module, "apply_loaded", recording)
    for index in range(3):
        play(ruleset, RULESET_TACTICS[ruleset_id], data, fight_seed(7, index), Tactic(), ActionLoader(ruleset))
    checked = set()
    for recorded in states:
        state = pickle.loads(recorded)
        for entry in ruleset.prompts(state):
            for action_type in entry["actions"]:
                listed = ruleset.action_choices(state, entry["actor"], action_type)
                assert possible(ruleset, state, entry["actor"], action_type) == bool(listed), (
                    entry["actor"],
                    action_type,
                )
                checked.add((action_type, bool(listed)))
    assert len(states) >= 6
    assert any(found for _, found in checked)
