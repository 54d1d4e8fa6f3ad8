"""Dark Earth: the legal actions of a fighter (his allocation) and of the GM (contact, worsen_wound)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..gm.legal import choice_found, describe, present
from ..ruleset import AnyRuleset
from .actions import between_tours_refusal, contact_refusal, worsen_refusal
from .bouffons import is_bouffon
from .contacts import in_contact
from .health import is_standing
from .state import DarkEarthCombat, DarkEarthCombatant
from .weapons import BARE_HANDS, bare_hands_potential, potential, weapon_of

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


def _weapons(actor: DarkEarthCombatant) -> Iterator[dict[str, Any]]:
    """The sheet's weapons, and bare hands (the catalog's mains_nues), which anyone may fight with;
    one at a time (a probe stops at the first weapon kept)."""
    weapons = actor["sheet"]["weapons"]
    yield from weapons
    if all(w["id"] != BARE_HANDS for w in weapons):
        yield weapon_of(actor, BARE_HANDS)


def _allocations(ruleset: AnyRuleset, state: DarkEarthCombat, actor: DarkEarthCombatant) -> list[dict[str, Any]]:
    """One entry per weapon and per choice of attacking or not (allocation.allocate's rules).

    In contact a ranged weapon serves only loaded and mechanical (its POT de Tir split); an unloaded one
    may be reloaded (the bare-hands POT split; option reload_in_contact); a bow is not offered at all.
    """
    contact = bool(in_contact(state, actor["id"]))
    targets = [c["id"] for c in present(state) if c["id"] != actor["id"] and is_standing(c)]
    if is_bouffon(actor):  # only its target to name (bouffons.allocation)
        fixed = {field: None for field in ("weapon", "split", "evade", "reload", "shot")}
        attacks = [{"required": True, "choices": targets}] if targets else []
        return [
            describe(ruleset, state, actor["id"], "allocate", **fixed, target=target) for target in [*attacks, None]
        ]
    evade_and_attack = not state["options"]["evasion_uses_attack"]
    reload_in_contact = state["options"]["reload_in_contact"] == "allowed"
    sets = []
    for weapon in _weapons(actor):
        ranged, mechanical = weapon["kind"] == "ranged", weapon["mechanical"]
        loaded = actor["loaded"].get(weapon["id"], True)
        reloads = [False, True] if ranged and mechanical and not loaded else [False]
        unready = contact and ranged and not (mechanical and loaded)  # in contact, a shot needs a loaded mechanism
        if unready and not (mechanical and reload_in_contact):
            continue  # useless in contact
        choice_found()  # every weapon kept has at least the entry without attack: a probe stops here
        if unready:
            reloads, pot = [True], bare_hands_potential(actor)
        else:
            pot = potential(actor, weapon)
        shooting_free = ranged and not contact  # a shot at a distance: no split, shooting modifiers
        split = None if shooting_free else {"required": True, "type": "object", "keys": SPLIT_KEYS, "total": pot}
        common = {"weapon": {"required": True, "choices": [weapon["id"]]}, "split": split}
        can_strike = not ranged or (loaded if mechanical else not contact)
        if can_strike and targets:
            sets.append(
                describe(
                    ruleset,
                    state,
                    actor["id"],
                    "allocate",
                    **common,
                    target={"required": True, "choices": targets},
                    evade={"choices": [False, True] if evade_and_attack else [False]},
                    reload={"choices": [False]},
                    shot={"type": "object"} if shooting_free else None,
                )
            )
        sets.append(
            describe(
                ruleset,
                state,
                actor["id"],
                "allocate",
                **common,
                target=None,
                shot=None,
                evade={"choices": [False, True]},
                reload={"required": reloads == [True], "choices": reloads},
            )
        )
    return sets


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
