"""The secret allocation of a tour: POT, split into INIT / ATT / DEF, target.

Seed: each fighter's POTentiel is MEL + the weapon's combat skill (POT de
Tir: TIR + the shooting skill); each splits it secretly between INIT, ATT
and DEF and announces his maneuvers. A shooter facing nobody in contact does
not split; a shooter in contact can use only a loaded mechanical weapon,
and then splits his POT de Tir with +2 INIT and -2 DEF. Any other ranged
weapon is useless in contact: the fighter takes a melee weapon or his bare
hands (MEL + Bagarre), the POT de combat of the seed ("MELée + compétence de
l'arme utilisée"). [HOUSE] One who reloads in contact splits that bare-hands
POT (option reload_in_contact).

Each condition an allocation is refused for is one function here (a
``*_refusal`` returns the refusal or None; ``allocated_potential`` and
``splits_the_pot`` bound the split): allocate raises the refusal, legal.py
lists with the same functions and turns.waiting_for awaits with
allocator_refusal.
"""

from __future__ import annotations

from typing import Any, cast

from ..errors import ActionNotAllowed, InvalidAction, RulesError, refusal
from ..state import Action
from . import bouffons
from .contacts import in_contact
from .health import is_standing
from .state import Allocation, DarkEarthCombat, DarkEarthCombatant, Res, Split
from .tables import CONTACT_SHOT_DEF_MALUS, CONTACT_SHOT_INIT_BONUS
from .weapons import BARE_HANDS, bare_hands_potential, potential, weapon_of

MELEE, SHOT, CONTACT_SHOT, NO_ATTACK = "melee", "shot", "contact_shot", "none"


def _tir_in_contact(allocation: Allocation) -> bool:
    """The POT de Tir split in contact (a loaded mechanical weapon): +2 INIT, -2 DEF, shooting or not."""
    return allocation["mode"] == CONTACT_SHOT or allocation.get("tir_in_contact", False)


def effective_init(allocation: Allocation) -> int:
    bonus = CONTACT_SHOT_INIT_BONUS if _tir_in_contact(allocation) else 0
    split = cast("Split", allocation["split"])  # in a melee phase: every allocation there split its POT
    return split["init"] + bonus


def effective_def(allocation: Allocation | None) -> int:
    """DEF dice; a shooter who did not split has none to oppose a blow."""
    if allocation is None or allocation["split"] is None:
        return 0
    malus = CONTACT_SHOT_DEF_MALUS if _tir_in_contact(allocation) else 0
    return max(0, allocation["split"]["def"] - malus)


def allocator_refusal(state: DarkEarthCombat, actor: DarkEarthCombatant) -> ActionNotAllowed | None:
    """Each fighter standing allocates once a tour: allocate refuses with it, turns.waiting_for awaits with it."""
    if not is_standing(actor):
        return ActionNotAllowed(
            refusal("{actor} is out of the fight and cannot allocate", actor=actor["name"]), field="actor"
        )
    if actor["id"] in state["allocations"]:
        return ActionNotAllowed(refusal("{actor} has already allocated this tour", actor=actor["name"]), field="actor")
    return None


def target_refusal(actor: DarkEarthCombatant, target: DarkEarthCombatant) -> RulesError | None:
    """Why ``actor`` may not attack ``target`` this tour, or None."""
    if target["id"] == actor["id"]:
        return InvalidAction(refusal("a fighter cannot attack himself"), field="target")
    if not is_standing(target):
        return ActionNotAllowed(refusal("{target} is already out of the fight", target=target["name"]), field="target")
    return None


def reload_attack_refusal(reloading: bool) -> InvalidAction | None:
    """Reloading takes the tour (G7): a fighter who reloads does not attack."""
    if reloading:
        return InvalidAction(refusal("a fighter who reloads does not attack: send no target"), field="target")
    return None


def evade_attack_refusal(options: dict[str, Any], evading: bool) -> InvalidAction | None:
    """An evader gives up his attack this tour (G6), unless the option evasion_uses_attack is off."""
    if evading and options["evasion_uses_attack"]:
        return InvalidAction(
            refusal("a fighter who evades gives up his attack this tour: send no target"), field="target"
        )
    return None


def _loaded(actor: DarkEarthCombatant, weapon: dict[str, Any]) -> bool:
    loaded: bool = actor["loaded"].get(weapon["id"], True)
    return loaded


def reload_refusal(
    options: dict[str, Any], actor: DarkEarthCombatant, weapon: dict[str, Any], contact: bool
) -> RulesError | None:
    """Why ``actor`` may not reload ``weapon`` this tour, or None: only an unloaded mechanical weapon reloads."""
    if weapon["kind"] != "ranged" or not weapon["mechanical"]:
        return InvalidAction(
            refusal("{weapon} is not a mechanical ranged weapon; there is nothing to reload", weapon=weapon["name"]),
            field="reload",
        )
    if _loaded(actor, weapon):
        return ActionNotAllowed(refusal("{weapon} is already loaded", weapon=weapon["name"]), field="reload")
    if contact and options["reload_in_contact"] == "forbidden":
        return ActionNotAllowed(
            refusal("{actor} is in contact: in this combat nobody reloads in contact", actor=actor["name"]),
            field="reload",
        )
    return None


def contact_weapon_refusal(
    actor: DarkEarthCombatant, weapon: dict[str, Any], contact: bool, reloading: bool
) -> ActionNotAllowed | None:
    """Seed: in contact a ranged weapon serves only mechanical and loaded; one reloading is not used (G7)."""
    if (
        contact
        and weapon["kind"] == "ranged"
        and not reloading
        and not (weapon["mechanical"] and _loaded(actor, weapon))
    ):
        return ActionNotAllowed(
            refusal(
                "{actor} is in contact: only a loaded mechanical weapon (crossbow...) can be used, not "
                "{weapon}; fight with a melee weapon or bare hands (weapon {bare_hands})",
                actor=actor["name"],
                weapon=weapon["name"],
                bare_hands=BARE_HANDS,
            ),
            field="weapon",
        )
    return None


def unloaded_refusal(actor: DarkEarthCombatant, weapon: dict[str, Any]) -> ActionNotAllowed | None:
    """A mechanical weapon shoots only loaded: why ``actor`` may not attack with ``weapon``, or None."""
    if weapon["kind"] == "ranged" and weapon["mechanical"] and not _loaded(actor, weapon):
        return ActionNotAllowed(
            refusal("{weapon} is not loaded: reload it first", weapon=weapon["name"]), field="weapon"
        )
    return None


def allocated_potential(actor: DarkEarthCombatant, weapon: dict[str, Any], contact: bool, reloading: bool) -> int:
    """The POT the allocation splits (or shoots): the weapon's; reloading in contact, the bare hands' (G7)."""
    return bare_hands_potential(actor) if contact and reloading else potential(actor, weapon)


def splits_the_pot(weapon: dict[str, Any], contact: bool) -> bool:
    """Seed: a shooter facing nobody in contact does not split his POT de Tir; every other allocation does."""
    return weapon["kind"] != "ranged" or contact


def attack_mode(weapon: dict[str, Any], attacking: bool, contact: bool) -> str:
    if not attacking:
        return NO_ATTACK
    if weapon["kind"] == "melee":
        return MELEE
    return CONTACT_SHOT if contact else SHOT


def shot_refusal(mode: str) -> InvalidAction | None:
    """Why an allocation of ``mode`` may not give shooting modifiers, or None: only a shot at a distance takes them."""
    if mode != SHOT:
        return InvalidAction(refusal("shooting modifiers apply only to a shot at a distance"), field="shot")
    return None


def _refuse(refusal: RulesError | None) -> None:
    if refusal is not None:
        raise refusal


def allocate(res: Res, actor: DarkEarthCombatant, action: Action) -> Allocation:
    """Check the allocation against the rules (the checks above); return what the tour will use."""
    state = res.state
    _refuse(allocator_refusal(state, actor))
    target = _target(res, actor, action)
    if bouffons.is_bouffon(actor):
        return bouffons.allocation(res, actor, action, target)
    weapon = weapon_of(actor, action["weapon"])
    contact = bool(in_contact(state, actor["id"]))
    reloading = action["reload"]
    if reloading:
        _refuse(reload_refusal(res.options, actor, weapon, contact))
    if target is not None:
        _refuse(evade_attack_refusal(res.options, action["evade"]))
    _refuse(contact_weapon_refusal(actor, weapon, contact, reloading))
    if target is not None:
        _refuse(unloaded_refusal(actor, weapon))
    mode = attack_mode(weapon, target is not None, contact)
    pot = allocated_potential(actor, weapon, contact, reloading)
    split = _split(action, weapon, contact, pot)
    if action["shot"] is not None:
        _refuse(shot_refusal(mode))
    return {
        "combatant": actor["id"],
        "weapon": weapon["id"],
        "mode": mode,
        "target": target["id"] if target else None,
        "pot": pot,
        "split": split,
        "tir_in_contact": contact and weapon["kind"] == "ranged" and not reloading,
        "evade": action["evade"],
        "reload": reloading,
        "shot": (action["shot"] or _default_shot()) if mode == SHOT else None,
        "dice_modifier": action["dice_modifier"],
        "maneuver": action["maneuver"],
    }


def _default_shot() -> dict[str, Any]:
    return {"range": "moyenne", "cover": "none", "target_movement": "normal", "shooter_pace": "still", "modifier": 0}


def _target(res: Res, actor: DarkEarthCombatant, action: Action) -> DarkEarthCombatant | None:
    if action["target"] is None:
        return None
    _refuse(reload_attack_refusal(action["reload"]))
    target = res.combatant(action["target"], field="target")
    _refuse(target_refusal(actor, target))
    return target


def _split(action: Action, weapon: dict[str, Any], contact: bool, pot: int) -> Split | None:
    split = action["split"]
    if not splits_the_pot(weapon, contact):
        if split is not None:
            raise InvalidAction(
                refusal("a shooter facing nobody in contact does not split his POT de Tir: send no split"),
                field="split",
            )
        return None
    if split is None:
        raise InvalidAction(refusal("split the POT ({pot} dice) between init, att and def", pot=pot), field="split")
    total = split["init"] + split["att"] + split["def"]
    if total != pot:
        raise InvalidAction(
            refusal(
                "init + att + def = {total}, but the POT is {pot} dice: they must add up to it", total=total, pot=pot
            ),
            field="split",
        )
    return cast("Split", dict(split))
