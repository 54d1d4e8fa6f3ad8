"""Build actions from the legal-actions listing (gm/legal.py), for the property tests."""

from __future__ import annotations

import copy

from hypothesis import strategies as st

from service.rules.registry import get_ruleset

SMALL = 5  # numbers drawn near zero: a listing's bounds, kept small so fights go on


def newcomer_sheet(ruleset_id: str, state: dict) -> dict:
    """A copy of the example's first sheet under a fresh id."""
    sheet = copy.deepcopy(get_ruleset(ruleset_id).example()["combat"]["combatants"][0])
    sheet.pop("contact_with", None)
    taken = {c["id"] for c in state["combatants"]}
    number = 1
    while f"new{number}" in taken:
        number += 1
    sheet.update(id=f"new{number}", name=f"Newcomer {number}")
    return sheet


def value_strategy(ruleset_id: str, state: dict, spec: dict):
    """A strategy for one listed parameter, or None when the listing gives nothing to draw from."""
    if "choices" in spec:
        return st.sampled_from(spec["choices"]) if spec["choices"] else None
    if spec.get("type") == "integer":
        low = spec.get("minimum")
        high = spec.get("maximum")
        low = max(low, -SMALL) if low is not None else -SMALL
        high = min(high, max(low, SMALL)) if high is not None else max(low, SMALL)
        return st.integers(low, high)
    if spec.get("type") == "object" and "total" in spec:
        return _split(spec["keys"], spec["total"])
    if spec.get("type") == "array" and isinstance(spec.get("items"), list):
        # One listed spec per element, in order (age-du-silicium's declared actions).
        parts = [value_strategy(ruleset_id, state, item) for item in spec["items"]]
        return None if any(p is None for p in parts) else st.tuples(*parts).map(list)
    if spec.get("type") == "string" and spec.get("maxLength"):
        # A few words of the GM's own (a narrative condition's label).
        return st.text("abcdefgh ", min_size=spec.get("minLength") or 1, max_size=min(spec["maxLength"], 12))
    if spec.get("schema") == "sheet":
        return st.just(newcomer_sheet(ruleset_id, state))
    if spec.get("type") == "object" and spec.get("keys"):
        return st.dictionaries(st.sampled_from(spec["keys"]), st.integers(-2, 2), min_size=1, max_size=2)
    return None


def _split(keys: list[str], total: int):
    """Non-negative integers, one per key, adding up to ``total`` (dark-earth's POT split)."""
    cuts = st.lists(st.integers(0, total), min_size=len(keys) - 1, max_size=len(keys) - 1).map(sorted)
    return cuts.map(lambda c: {k: b - a for k, a, b in zip(keys, [0, *c], [*c, total])})


def instantiable(ruleset_id: str, state: dict, option: dict) -> bool:
    """Every required parameter has listed values to draw from."""
    return all(value_strategy(ruleset_id, state, spec) is not None for spec in option["params"].values() if spec.get("required"))


def draw_action(data, ruleset_id: str, state: dict, actor: str, option: dict) -> dict:
    action = {"type": option["type"], "actor": actor}
    for name, spec in option["params"].items():
        strategy = value_strategy(ruleset_id, state, spec)
        if spec.get("required"):
            assert strategy is not None, f"{option['type']}.{name} is required but the listing gives no values: {spec}"
            action[name] = data.draw(strategy, label=f"{option['type']}.{name}")
        elif strategy is not None and data.draw(st.booleans(), label=f"use {name}"):
            action[name] = data.draw(strategy, label=f"{option['type']}.{name}")
    return action
