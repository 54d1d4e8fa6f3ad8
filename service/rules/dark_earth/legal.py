"""Dark Earth: the legal actions of a fighter (his allocation) and of the GM (contact, worsen_wound).

Listed with the functions the actions refuse with: allocation.py's checks for the allocation,
actions.py's for the GM's.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..gm.legal import choice_found, describe, present
from ..ruleset import AnyRuleset
from .actions import between_tours_refusal, contact_refusal, worsen_refusal
from .allocation import (
    allocated_potential,
    allocator_refusal,
    attack_mode,
    contact_weapon_refusal,
    evade_attack_refusal,
    reload_attack_refusal,
    reload_refusal,
    shot_refusal,
    splits_the_pot,
    target_refusal,
    unloaded_refusal,
)
from .bouffons import REFUSED_FIELDS, REFUSED_FLAGS, is_bouffon
from .contacts import in_contact
from .state import DarkEarthCombat, DarkEarthCombatant
from .weapons import weapons_of

SPLIT_KEYS = ["init", "att", "def"]


def choices(
    ruleset: AnyRuleset, state: DarkEarthCombat, actor_id: str, action_type: str
) -> list[dict[str, Any]] | None:
    """Refined parameter sets, or None for the default description."""
    if action_type == "allocate" and actor_id != "gm":
        return _allocations(ruleset, state, next(c for c in state["combatants"] if c["id"] == actor_id))
    if action_type == "contact":
        return _contacts(ruleset, state)
    if action_type == "worsen_wound":
        wounded = [c["id"] for c in present(state) if worsen_refusal(c) is None]
        if between_tours_refusal(state, "wounds worsen") or not wounded:
            return []
        return [describe(ruleset, state, "gm", action_type, target={"required": True, "choices": wounded})]
    return None


def _allocations(ruleset: AnyRuleset, state: DarkEarthCombat, actor: DarkEarthCombatant) -> list[dict[str, Any]]:
    """One entry per weapon, per choice of reloading or not and of attacking or not, that allocate accepts.

    Each choice is kept or left out by the checks allocation.allocate refuses with, and the split is bounded
    by the POT it compares with (allocation.allocated_potential, splits_the_pot).
    """
    if allocator_refusal(state, actor) is not None:
        return []
    if is_bouffon(actor):
        return _bouffon_allocations(ruleset, state, actor)
    options = state["options"]
    contact = bool(in_contact(state, actor["id"]))
    entry = partial(describe, ruleset, state, actor["id"], "allocate")
    sets = []
    targets: list[str] | None = None  # found after the first choice, where a probe has stopped already
    for weapon in weapons_of(actor):
        for reloading in (False, True):
            if not _serves(options, actor, weapon, contact, reloading):
                continue
            choice_found()  # every choice kept has at least its entry without attack: a probe stops here
            if targets is None:
                targets = _targets(state, actor)
            pot = allocated_potential(actor, weapon, contact, reloading)
            common = {
                "weapon": {"required": True, "choices": [weapon["id"]]},
                "split": {"required": True, "type": "object", "keys": SPLIT_KEYS, "total": pot}
                if splits_the_pot(weapon, contact)
                else None,
                "reload": {"required": reloading, "choices": [reloading]},
            }
            if targets and reload_attack_refusal(reloading) is None and unloaded_refusal(actor, weapon) is None:
                shoots = shot_refusal(attack_mode(weapon, True, contact)) is None
                sets.append(
                    entry(
                        **common,
                        target={"required": True, "choices": targets},
                        evade={"choices": [e for e in (False, True) if evade_attack_refusal(options, e) is None]},
                        shot={"type": "object"} if shoots else None,
                    )
                )
            # Evading without an attack gives up nothing.
            sets.append(entry(**common, target=None, shot=None, evade={"choices": [False, True]}))
    return sets


def _bouffon_allocations(
    ruleset: AnyRuleset, state: DarkEarthCombat, actor: DarkEarthCombatant
) -> list[dict[str, Any]]:
    """A bouffon names only its target, or none (bouffons.allocation)."""
    choice_found()  # it always has its entry without attack: a probe stops here
    targets = _targets(state, actor)
    fixed = {field: None for field in (*REFUSED_FIELDS, *REFUSED_FLAGS)}
    attacks = [{"required": True, "choices": targets}] if targets else []
    return [describe(ruleset, state, actor["id"], "allocate", **fixed, target=target) for target in [*attacks, None]]


def _targets(state: DarkEarthCombat, actor: DarkEarthCombatant) -> list[str]:
    return [c["id"] for c in present(state) if target_refusal(actor, c) is None]


def _serves(
    options: dict[str, Any], actor: DarkEarthCombatant, weapon: dict[str, Any], contact: bool, reloading: bool
) -> bool:
    """allocate takes ``weapon`` reloading (or not): in contact a bow, or an unloaded crossbow that may not be
    reloaded there, serves for nothing."""
    if contact_weapon_refusal(actor, weapon, contact, reloading) is not None:
        return False
    return not reloading or reload_refusal(options, actor, weapon, contact) is None


def _contacts(ruleset: AnyRuleset, state: DarkEarthCombat) -> list[dict[str, Any]]:
    """Between tours only: standing fighters come into contact, fighters in contact break off."""
    if between_tours_refusal(state, "contacts change"):
        return []
    sets = []
    for fighter in present(state):
        for engaged in (True, False):
            others = [c["id"] for c in present(state) if contact_refusal(state, fighter, c, engaged) is None]
            if others:
                sets.append(
                    describe(
                        ruleset,
                        state,
                        "gm",
                        "contact",
                        combatant={"required": True, "choices": [fighter["id"]]},
                        target={"required": True, "choices": others},
                        engaged={"required": True, "choices": [engaged]},
                    )
                )
    return sets
