"""L'Âge du Silicium: the legal actions of a combatant now (declarations, attacks, reactions...)."""

from __future__ import annotations

from typing import Any, cast

from ..gm.legal import choice_found, describe, field_spec, present
from ..ruleset import AnyRuleset
from .attacks import full_auto_refusal
from .declarations import attack_target_refusal, reason_target_refusal, reasoned_with, retest_refusal
from .modifiers import maneuver_refusal, mode
from .reactions import parry_refusal, parrying_weapon_refusal
from .rounds import aim_refusal, available_reactions, current_slot, defences, plan
from .state import PendingAttack, SiliciumCombat, SiliciumCombatant
from .status import is_standing, kind_refusal, may_attack
from .tables import DECLARED_KINDS, FULL_AUTO, MANEUVERS, SITUATION, UNARMED
from .weapons import weapon_refusal

# What a melee attack never takes (modifiers._melee), and what a ranged one never takes (_ranged).
RANGED_ONLY = (
    "burst",
    "extra_shots",
    "full_auto",
    "aim",
    "location",
    "cover",
    "secondary_targets",
    "in_vehicle",
    "relative_speed",
)
MELEE_ONLY = ("maneuver", "restricted_space")


def choices(ruleset: AnyRuleset, state: SiliciumCombat, actor_id: str, action_type: str) -> list[dict[str, Any]] | None:
    """Refined parameter sets, or None for the default description."""
    if actor_id == "gm":
        return None
    actor = next(c for c in state["combatants"] if c["id"] == actor_id)
    slot = current_slot(state)
    own = slot if slot is not None and slot["actor"] == actor_id else None
    if action_type == "declare":
        choice_found()  # one choice, whatever its slots: a probe stops before building them
        return [
            describe(
                ruleset,
                state,
                actor_id,
                action_type,
                actions={"required": True, "type": "array", "items": _slots(state, actor)},
            )
        ]
    if action_type == "attack":
        return _attacks(ruleset, state, actor, own)
    if action_type == "reason":
        target = next((c for c in state["combatants"] if c["id"] == cast("dict[str, Any]", own)["target"]), None)
        if target is None or not _may_reason(actor, target) or retest_refusal(state, target) is not None:
            return []
        return [describe(ruleset, state, actor_id, action_type, target={"required": True, "choices": [target["id"]]})]
    if action_type == "react":
        return _reactions(ruleset, state, actor)
    return None


def _allowed_kinds(actor: SiliciumCombatant, forced_defence: bool) -> list[str]:
    """The kinds the declaration accepts (status.kind_refusal)."""
    return [k for k in DECLARED_KINDS if kind_refusal(actor, k, forced_defence) is None]


def _attack_targets(state: SiliciumCombat, actor: SiliciumCombatant) -> list[str]:
    return [c["id"] for c in present(state) if c["id"] != actor["id"] and attack_target_refusal(actor, c) is None]


def _may_reason(actor: SiliciumCombatant, target: SiliciumCombatant) -> bool:
    return target["id"] != actor["id"] and reason_target_refusal(actor, target) is None


def _slots(state: SiliciumCombat, actor: SiliciumCombatant) -> list[dict[str, Any]]:
    """One listed spec per action to declare: each a choice of whole entries (kind, target, weapon)."""
    weapons = [None, *(w["id"] for w in actor["sheet"]["weapons"])]
    items = []
    for index, slot in enumerate(s for s in plan(state, actor) if s["constraint"] != "lost"):
        entries = []
        for kind in _allowed_kinds(actor, slot["constraint"] == "defensive"):
            if kind == "attack":
                entries += [
                    {"kind": kind, "target": t, "weapon": w} for t in _attack_targets(state, actor) for w in weapons
                ]
            elif kind == "reason":
                entries += [
                    {"kind": kind, "target": c["id"]}
                    for c in present(state)
                    if _may_reason(actor, c) and c["id"] not in reasoned_with(state)
                ]
            elif kind != "aim" or aim_refusal(actor["aim"] + index + 1) is None:  # even if every earlier one aims
                entries.append({"kind": kind})
        items.append({"choices": entries})
    return items


def _weapons(actor: SiliciumCombatant) -> list[dict[str, Any]]:
    """The weapons the actor may strike with now (weapons.weapon_refusal)."""
    return [w for w in [*actor["sheet"]["weapons"], UNARMED] if weapon_refusal(actor, w) is None]


def _attacks(
    ruleset: AnyRuleset, state: SiliciumCombat, actor: SiliciumCombatant, own: dict[str, Any] | None
) -> list[dict[str, Any]]:
    if not may_attack(actor):
        return []
    targets = _attack_targets(state, actor)
    declared = own and own.get("target")
    if own is not None and own["kind"] == "attack" and declared and is_standing(find_by_id(state, declared)):
        slot_targets = [declared] if declared in targets else []
    else:
        slot_targets = targets
    sets = []
    for reaction, ids in (
        (False, slot_targets if own is not None and own["kind"] == "attack" else []),
        (True, targets if available_reactions(state, actor["id"], ("held",)) else []),
    ):
        if ids:
            for weapon in _weapons(actor):
                sets += _attack_sets(ruleset, state, actor, weapon, reaction, ids)
    return sets


def find_by_id(state: SiliciumCombat, combatant_id: str) -> SiliciumCombatant:
    return next(c for c in state["combatants"] if c["id"] == combatant_id)


def _situations(kind: str) -> list[list[str]]:
    return [[]] + [[key] for key, entry in SITUATION.items() if entry["mode"] == kind and key != "after_projection"]


def _attack_sets(
    ruleset: AnyRuleset,
    state: SiliciumCombat,
    actor: SiliciumCombatant,
    weapon: dict[str, Any],
    reaction: bool,
    targets: list[str],
) -> list[dict[str, Any]]:
    choice_found()  # every weapon has at least one set below: a probe stops before building it
    kind = mode(weapon)
    common = {
        "target": {"required": True, "choices": targets},
        "weapon": {"required": True, "choices": [weapon["id"]]},
        "reaction": {"required": True, "choices": [reaction]},
        "situation": {"choices": _situations(kind)},
    }
    if kind == "melee":
        maneuvers = [m for m in sorted(MANEUVERS) if maneuver_refusal(actor, weapon, m) is None]
        return [
            describe(
                ruleset,
                state,
                actor["id"],
                "attack",
                **common,
                **dict.fromkeys(RANGED_ONLY),
                maneuver={"choices": maneuvers} if maneuvers else None,
            )
        ]
    ranged = {
        **common,
        **dict.fromkeys(MELEE_ONLY),
        "burst": {"choices": [False, True] if weapon["burst"] else [False]},
        "aim": {"choices": _aims(actor["aim"])},
        "location": None,
        "in_vehicle": None,
        "relative_speed": None,
        "full_auto": None,
    }
    sets = [describe(ruleset, state, actor["id"], "attack", **ranged)]
    if full_auto_refusal(state["options"], weapon) is None:
        bursts = FULL_AUTO["bursts"]
        sets.append(
            describe(
                ruleset,
                state,
                actor["id"],
                "attack",
                **{
                    **ranged,
                    "burst": None,
                    "extra_shots": None,
                    "full_auto": {"required": True, "choices": list(range(bursts["min"], bursts["max"] + 1))},
                },
            )
        )
    sets.append(
        describe(
            ruleset,
            state,
            actor["id"],
            "attack",
            **{
                **ranged,
                "in_vehicle": {"required": True, "choices": [True]},
                "relative_speed": field_spec(ruleset, "attack", "relative_speed"),
            },
        )
    )
    located = [aim for aim in _aims(actor["aim"], location=True) if "location" in aim]
    if located:
        sets.append(
            describe(
                ruleset,
                state,
                actor["id"],
                "attack",
                **{
                    **ranged,
                    "aim": {"required": True, "choices": located},
                    "location": {**field_spec(ruleset, "attack", "location"), "required": True},
                },
            )
        )
    return sets


def _aims(aimed: int, location: bool = False) -> list[list[str]]:
    """What the aimed actions may be spent on: accuracy any number of times, location and damage once each."""
    found = []
    for extras in ([], ["damage"], *([["location"], ["location", "damage"]] if location else [])):
        for accuracy in range(aimed - len(extras) + 1):
            found.append(["accuracy"] * accuracy + extras)
    return found


def _reactions(ruleset: AnyRuleset, state: SiliciumCombat, actor: SiliciumCombatant) -> list[dict[str, Any]]:
    """Nothing; a dodge or a parry when a defence or held action is left (a parry against a melee hit only)."""
    sets = [
        describe(
            ruleset,
            state,
            actor["id"],
            "react",
            reaction={"required": True, "choices": ["none"]},
            weapon=None,
            modifier=None,
        )
    ]
    if not defences(state, actor):
        return sets
    sets.append(
        describe(ruleset, state, actor["id"], "react", reaction={"required": True, "choices": ["dodge"]}, weapon=None)
    )
    if parry_refusal(cast("PendingAttack", state["pending"])) is None:  # reactions are listed only to a pending hit
        parrying = [w["id"] for w in _weapons(actor) if parrying_weapon_refusal(w) is None]
        if parrying:
            sets.append(
                describe(
                    ruleset,
                    state,
                    actor["id"],
                    "react",
                    reaction={"required": True, "choices": ["parry"]},
                    weapon={"required": True, "choices": parrying},
                )
            )
    return sets
