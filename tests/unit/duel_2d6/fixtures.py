"""Sheets and helpers for the Duel 2D6 rules tests.

Dice order, per action (see docs/rules/duel-2d6.md): initiative 2D6 per
fighter in list order; an exchange: [counter 2D6, its damage] [zigzag 2D6]
then per blow: attack 2D6 (none at contact range), [Désarmer damage],
defense 2D6 if the blow succeeded and the defense rolls, [attacker SEN 2D6
after a successful Feinte], damage dice, [location 2D6], [CON 2D6 stun].
"""

import copy

import pytest

from service.rules.engine import apply_action
from service.rules.registry import RULESETS

from ..rules_helpers import start

RULESET = "duel-2d6"
ATTRS = {"FOR": 0, "DEX": 2, "CON": 0, "SEN": 0}


def sheet(combatant_id: str, side: str, **overrides) -> dict:
    base = {
        "id": combatant_id,
        "name": combatant_id.capitalize(),
        "side": side,
        "pv": 6,
        "attributes": dict(ATTRS),
        "skills": {"Bagarre": 1},
    }
    attributes = overrides.pop("attributes", {})
    base.update(overrides)
    base["attributes"] = {**base["attributes"], **attributes}
    return base


def ana(**overrides) -> dict:
    return sheet("ana", "heroes", **overrides)


def bob(**overrides) -> dict:
    return sheet("bob", "villains", **overrides)


def fight(*sheets, options=None, dice=(), first="ana"):
    """A fight where ``first`` has surprise (no initiative dice) unless dice are given."""
    options = {"surprise": [first] if first else [], **(options or {})}
    state, _ = start(RULESET, list(sheets) or [ana(), bob()], options=options, dice=dice)
    return state


def refused(state: dict, action: dict, error: type) -> str:
    """The action is refused with ``error`` and the state is left untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(error) as caught:
        apply_action(state, action)
    assert state == before
    return caught.value.field


def attack(actor="ana", target="bob", dice=(), defense="aucune", **fields) -> dict:
    action = {"type": "attack", "actor": actor, "target": target, "dice": list(dice), **fields}
    if defense is not None:
        action["defense"] = defense if isinstance(defense, dict) else {"defense": defense}
    return action


def shoot(weapon, distance, actor="ana", target="bob", dice=(), defense="aucune", **fields) -> dict:
    action = {
        "type": "shoot",
        "actor": actor,
        "target": target,
        "weapon": weapon,
        "distance": distance,
        "dice": list(dice),
        **fields,
    }
    if defense is not None:
        action["defense"] = defense if isinstance(defense, dict) else {"defense": defense}
    return action


def duel(state: dict, first="ana", second="bob") -> dict:
    return next(d for d in state["duels"] if {d["a"], d["b"]} == {first, second})


def legal(state: dict, actor: str) -> list[dict]:
    """What GET /combats/{id}/options lists for ``actor``."""
    return RULESETS[RULESET].legal_actions(state, actor)
