"""Actions built from the legal-actions listing (gm/legal.py), and the property walk on them.

:func:`walk` plays random listed actions from a fight and checks at every step
that ``awaiting`` and ``/options`` agree, that what is listed is accepted and
what is not is refused, and that the GM is awaited once the fight is decided
(tests/unit/gm/test_legal_actions.py, and the ruleset kit for any ruleset).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import strategies as st

from service.rules.ending import decided
from service.rules.engine import apply_action
from service.rules.errors import InvalidInput, RulesError
from service.rules.gm.legal import describe
from service.rules.registry import get_ruleset
from service.rules.viewer import GM_VIEWER, Viewer

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
    return cuts.map(lambda c: {k: b - a for k, a, b in zip(keys, [0, *c], [*c, total], strict=True)})


def instantiable(ruleset_id: str, state: dict, option: dict) -> bool:
    """Every required parameter has listed values to draw from."""
    return all(
        value_strategy(ruleset_id, state, spec) is not None
        for spec in option["params"].values()
        if spec.get("required")
    )


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


def _unlisted_is_refused(data, ruleset, state: Any, actor: str, listed: set[str], caller: Viewer) -> None:
    candidates = sorted(set(ruleset.all_action_schemas) - listed - ruleset.gm_only_actions)
    if not candidates:
        return
    kind = data.draw(st.sampled_from(candidates), label="unlisted type")
    action = {"type": kind, "actor": actor}
    for name, spec in describe(ruleset, state, actor, kind).items():
        if spec["required"]:
            strategy = value_strategy(ruleset.id, state, spec)
            if strategy is None:
                return  # nothing legal to put there: the schema refuses it already
            action[name] = data.draw(strategy, label=f"unlisted {kind}.{name}")
    with pytest.raises(RulesError) as refused:
        apply_action(state, action, caller=caller)
    if isinstance(refused.value, InvalidInput):
        # Only the type-specific shape may fail (e.g. duel-2d6's join without a sheet); never silently accepted.
        assert refused.value.messages


def _accepted(state: dict, action: dict, caller=GM_VIEWER) -> Any:  # a Combat (rules/state.py)
    try:
        return apply_action(state, action, caller=caller)[0]
    except RulesError as error:
        raise AssertionError(f"listed action refused: {action}: {error}") from error


def _prompts_match_the_listing(ruleset, state: dict) -> None:
    awaited: dict[str, set[str]] = {}
    for entry in state["awaiting"]:
        awaited.setdefault(entry["actor"], set()).update(entry["actions"])
    reason = decided(ruleset.standing_sides(state))
    if reason:
        last = state["awaiting"][-1]
        assert (last["actor"], last["actions"][0], last["reason"]) == ("gm", "end_combat", reason)
    assert awaited, "nobody is awaited in an active fight"
    for combatant in state["combatants"]:
        listed = {o["type"] for o in ruleset.legal_actions(state, combatant["id"])}
        assert listed == awaited.get(combatant["id"], set()), (
            f"{combatant['id']}: listed {listed}, awaited {awaited.get(combatant['id'])}"
        )


def walk(data, state: dict, steps: int) -> None:
    """Play up to ``steps`` random listed actions from ``state`` (hypothesis ``data``), checking each step."""
    ruleset_id = state["ruleset"]
    ruleset = get_ruleset(ruleset_id)
    for _ in range(steps):
        if state["status"] != "active":
            break
        _prompts_match_the_listing(ruleset, state)
        actors = [
            entry["actor"]
            for entry in state["awaiting"]
            # A combatant awaited for a choice only the GM may fill (sistema-2d6's difficulty for a
            # defender who cannot defend) has nothing listed for his own token: the GM plays it.
            if entry["actor"] != "gm" and ruleset.legal_actions(state, entry["actor"], Viewer(combatant=entry["actor"]))
        ]
        actor = data.draw(st.sampled_from(actors + ["gm"]) if actors else st.just("gm"), label="actor")
        # Each combatant's options as his own player's token sees them: what is listed, that token may send.
        caller = GM_VIEWER if actor == "gm" else Viewer(combatant=actor)
        options = ruleset.legal_actions(state, actor, caller)
        if actor != "gm":
            _unlisted_is_refused(data, ruleset, state, actor, {o["type"] for o in options}, caller)
            # Every awaited type is accepted with some listed parameters, not only the one played on.
            for kind in sorted({o["type"] for o in options}):
                of_kind = [o for o in options if o["type"] == kind]
                _accepted(
                    state,
                    draw_action(
                        data, ruleset_id, state, actor, data.draw(st.sampled_from(of_kind), label=f"some {kind}")
                    ),
                    caller,
                )
        else:
            # Ending would stop the walk (the summary tests end fights).
            options = [o for o in options if o["type"] != "end_combat"]
        assert options, f"{actor} is awaited but nothing is listed"
        undrawable = [o for o in options if not instantiable(ruleset_id, state, o)]
        assert not undrawable, f"not drawable from the listing: {undrawable}"
        option = data.draw(st.sampled_from(options), label="option")
        state = _accepted(state, draw_action(data, ruleset_id, state, actor, option), caller)
