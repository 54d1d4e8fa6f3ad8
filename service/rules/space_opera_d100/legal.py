"""Space opera d100: the legal actions of a combatant now (attack plans, reactions, recoveries) and
the GM's clear_condition."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..gm.legal import choice_found, describe, field_spec, present
from ..ruleset import AnyRuleset, Choice
from .attack import martial_arts_allowed, mode_allowed, paralyse_refusal, stun_refusal
from .conditions import is_dead
from .items import arsenal, find_weapon, recover_refusal, usable
from .reactions import parry_refusal
from .state import SpaceOperaCombat, SpaceOperaCombatant


def choices(
    ruleset: AnyRuleset, state: SpaceOperaCombat, actor_id: str, action_type: str
) -> list[dict[str, Any]] | None:
    """Refined parameter sets, or None for the default description."""
    if action_type == "clear_condition":
        return [
            describe(
                ruleset,
                state,
                "gm",
                action_type,
                target={"required": True, "choices": [c["id"]]},
                condition={"required": True, "choices": sorted({x["code"] for x in c["conditions"]})},
            )
            for c in present(state)
            if c["conditions"]
        ]
    if actor_id == "gm":
        return None
    actor = next(c for c in state["combatants"] if c["id"] == actor_id)
    if action_type == "attack":
        return _attacks(ruleset, state, actor)
    if action_type == "react":
        return _reactions(ruleset, state, actor)
    if action_type == "recover":
        stuck = [w["id"] for w in arsenal(actor) if recover_refusal(actor, w) is None]
        return (
            [describe(ruleset, state, actor_id, action_type, weapon={"required": True, "choices": sorted(stuck)})]
            if stuck
            else []
        )
    return None


def _arsenal(combatant: SpaceOperaCombatant) -> Iterator[dict[str, Any]]:
    """The weapons attack.declare accepts: items.arsenal (carried, or bare hands) that items.usable lets through."""
    return (weapon for weapon in arsenal(combatant) if usable(combatant, weapon))


def _disarmable(target: SpaceOperaCombatant) -> list[str]:
    return [w["id"] for w in target["sheet"]["weapons"] if w["class"] != "natural" and usable(target, w)]


def _attacks(ruleset: AnyRuleset, state: SpaceOperaCombat, actor: SpaceOperaCombatant) -> list[dict[str, Any]]:
    """One entry per weapon and mode (attack._check_mode), disarms per target (the weapon to take)."""
    targets = [c for c in present(state) if c["id"] != actor["id"] and not is_dead(c)]
    if targets and next(_arsenal(actor), None) is not None:
        choice_found()  # a target and a usable weapon: its "kill" entry below (a probe stops here)
    turn = actor["round"]
    # The number is declared with the first attack of the turn; later ones repeat it (or leave it out).
    declared = list(range(1, actor["sheet"]["max_attacks"] + 1)) if turn["attacks"] is None else [turn["attacks"]]
    bounds = field_spec(ruleset, "attack", "attacks")
    declared = [n for n in declared if bounds["minimum"] <= n <= bounds["maximum"]]  # a GM adjustment may leave another
    sets: list[Choice] = []

    def entry(weapon: dict[str, Any], mode: str, ids: list[str], martial_arts: list[bool], **more: Any) -> None:
        if ids:
            sets.append(
                describe(
                    ruleset,
                    state,
                    actor["id"],
                    "attack",
                    weapon={"required": True, "choices": [weapon["id"]]},
                    mode={"required": True, "choices": [mode]},
                    target={"required": True, "choices": ids},
                    attacks={"choices": declared} if declared else None,
                    martial_arts={"choices": martial_arts},
                    # The inline reaction takes what the target's `react` would list.
                    reaction={"type": "object"},
                    **{"target_weapon": None, **more},
                )
            )

    options = state["options"]
    for weapon in _arsenal(actor):
        martial_arts = [False, True] if martial_arts_allowed(weapon, options) else [False]
        entry(weapon, "kill", [t["id"] for t in targets], martial_arts)
        if mode_allowed(weapon, "stun", options):
            entry(weapon, "stun", [t["id"] for t in targets if stun_refusal(weapon, t) is None], [False])
        if mode_allowed(weapon, "paralyse", options):
            paralysable = [t["id"] for t in targets if paralyse_refusal(weapon, t, options) is None]
            entry(weapon, "paralyse", paralysable, martial_arts)
        for target in targets if mode_allowed(weapon, "disarm", options) else ():
            if _disarmable(target):
                entry(
                    weapon,
                    "disarm",
                    [target["id"]],
                    martial_arts,
                    target_weapon={"required": True, "choices": _disarmable(target)},
                )
    return sets


def _reactions(ruleset: AnyRuleset, state: SpaceOperaCombat, actor: SpaceOperaCombatant) -> list[dict[str, Any]]:
    """Dodge or nothing; a parry with a melee weapon or shield (a shield, or nothing, against a shot: option)."""
    pending = state["pending"]
    assert pending is not None, "reactions are listed only while an attack is pending"
    attacker = next(c for c in state["combatants"] if c["id"] == pending["attacker"])
    weapon = find_weapon(attacker, pending["weapon"], field="weapon")
    items = [
        w["id"]
        for w in actor["sheet"]["weapons"]
        if usable(actor, w) and parry_refusal(w, weapon, state["options"]) is None
    ]
    sets = [
        describe(ruleset, state, actor["id"], "react", kind={"required": True, "choices": ["dodge", "none"]}, item=None)
    ]
    if items:
        sets.append(
            describe(
                ruleset,
                state,
                actor["id"],
                "react",
                kind={"required": True, "choices": ["parry"]},
                item={"required": True, "choices": items},
            )
        )
    return sets
