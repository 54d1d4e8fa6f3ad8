"""The actions the benchmarks time: each ruleset's complete attack, from its example.

"Complete" means the whole exchange the rules resolve for one blow: the
roll, the defense (declared inline where the ruleset allows it), damage,
wounds and events. ``attack_state(ruleset_id)`` is the state just before it.
"""

from __future__ import annotations

from service.rules.engine import apply_action, create_combat
from service.rules.registry import RULESETS


def _example(ruleset_id: str) -> tuple[dict, list[dict]]:
    example = RULESETS[ruleset_id].example()
    return example["combat"], example["actions"]


def _after(ruleset_id: str, count: int) -> dict:
    body, actions = _example(ruleset_id)
    state, _ = create_combat(body, combat_id="bench", seed=1)
    for action in actions[:count]:
        state, _ = apply_action(state, action)
    return state


# ruleset -> (actions of the example played first, the attack timed)
ATTACKS = {
    "sistema-2d6": (0, {"type": "attack", "actor": "ana", "target": "capanga", "weapon": "pistola", "defense": {}}),
    "duel-2d6": (
        0,
        {
            "type": "attack",
            "actor": "truand",
            "target": "philip",
            "weapon": "poing",
            "defense": {"defense": "esquiver"},
        },
    ),
    "space-opera-d100": (
        0,
        {"type": "attack", "actor": "kira", "target": "garde", "weapon": "vibro", "reaction": {"kind": "dodge"}},
    ),
    # The resolution phase, after both declared: Ana shoots.
    "age-du-silicium": (2, {"type": "attack", "actor": "ana", "target": "krieg", "range": "short"}),
    # The second secret allocation resolves the whole tour (initiative, blows, wounds).
    "dark-earth": (
        1,
        {"type": "allocate", "actor": "goule", "target": "kael", "split": {"init": 1, "att": 3, "def": 2}},
    ),
}


def attack_state(ruleset_id: str) -> tuple[dict, dict]:
    played, attack = ATTACKS[ruleset_id]
    return _after(ruleset_id, played), attack


def creation_body(ruleset_id: str) -> dict:
    return _example(ruleset_id)[0]
