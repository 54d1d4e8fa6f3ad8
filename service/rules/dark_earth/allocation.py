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
"""

from __future__ import annotations

from typing import Any, cast

from ..errors import ActionNotAllowed, InvalidAction
from ..state import Action
from . import bouffons
from .contacts import in_contact
from .health import is_standing
from .state import Allocation, DarkEarthCombatant, Res, Split
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


def allocate(res: Res, actor: DarkEarthCombatant, action: Action) -> Allocation:
    """Check the allocation against the rules; return what the tour will use."""
    state = res.state
    if not is_standing(actor):
        raise ActionNotAllowed(f"{actor['name']} is out of the fight and cannot allocate", field="actor")
    if actor["id"] in state["allocations"]:
        raise ActionNotAllowed(f"{actor['name']} has already allocated this tour", field="actor")
    target = _target(res, actor, action)
    if bouffons.is_bouffon(actor):
        return bouffons.allocation(res, actor, action, target)
    weapon = weapon_of(actor, action["weapon"])
    contact = bool(in_contact(state, actor["id"]))
    if action["reload"]:
        _check_reload(res, actor, weapon, contact)
    if action["evade"] and target is not None and res.options["evasion_uses_attack"]:
        raise InvalidAction("a fighter who evades gives up his attack this tour: send no target", field="target")
    mode = _mode(actor, weapon, target, contact, action["reload"])
    reloading_in_contact = contact and action["reload"]
    pot = bare_hands_potential(actor) if reloading_in_contact else potential(actor, weapon)
    split = _split(action, weapon, contact, pot)
    if action["shot"] is not None and mode != SHOT:
        raise InvalidAction("shooting modifiers apply only to a shot at a distance", field="shot")
    return {
        "combatant": actor["id"],
        "weapon": weapon["id"],
        "mode": mode,
        "target": target["id"] if target else None,
        "pot": pot,
        "split": split,
        "tir_in_contact": contact and weapon["kind"] == "ranged" and not reloading_in_contact,
        "evade": action["evade"],
        "reload": action["reload"],
        "shot": (action["shot"] or _default_shot()) if mode == SHOT else None,
        "dice_modifier": action["dice_modifier"],
        "maneuver": action["maneuver"],
    }


def _default_shot() -> dict[str, Any]:
    return {"range": "moyenne", "cover": "none", "target_movement": "normal", "shooter_pace": "still", "modifier": 0}


def _target(res: Res, actor: DarkEarthCombatant, action: Action) -> DarkEarthCombatant | None:
    if action["target"] is None:
        return None
    if action["reload"]:
        raise InvalidAction("a fighter who reloads does not attack: send no target", field="target")
    target = res.combatant(action["target"], field="target")
    if target is actor:
        raise InvalidAction("a fighter cannot attack himself", field="target")
    if not is_standing(target):
        raise ActionNotAllowed(f"{target['name']} is already out of the fight", field="target")
    return target


def _check_reload(res: Res, actor: DarkEarthCombatant, weapon: dict[str, Any], contact: bool) -> None:
    if weapon["kind"] != "ranged" or not weapon["mechanical"]:
        raise InvalidAction(
            f"{weapon['name']} is not a mechanical ranged weapon; there is nothing to reload", field="reload"
        )
    if actor["loaded"].get(weapon["id"], True):
        raise ActionNotAllowed(f"{weapon['name']} is already loaded", field="reload")
    if contact and res.options["reload_in_contact"] == "forbidden":
        raise ActionNotAllowed(
            f"{actor['name']} is in contact: in this combat nobody reloads in contact", field="reload"
        )


def _mode(
    actor: DarkEarthCombatant, weapon: dict[str, Any], target: DarkEarthCombatant | None, contact: bool, reloading: bool
) -> str:
    loaded = actor["loaded"].get(weapon["id"], True)
    if contact and weapon["kind"] == "ranged" and not reloading and not (weapon["mechanical"] and loaded):
        raise ActionNotAllowed(
            f"{actor['name']} is in contact: only a loaded mechanical weapon (crossbow...) can be used, not "
            f"{weapon['name']}; fight with a melee weapon or bare hands (weapon {BARE_HANDS})",
            field="weapon",
        )
    if target is None:
        return NO_ATTACK
    if weapon["kind"] == "melee":
        return MELEE
    if weapon["mechanical"] and not loaded:
        raise ActionNotAllowed(f"{weapon['name']} is not loaded: reload it first", field="weapon")
    return CONTACT_SHOT if contact else SHOT


def _split(action: Action, weapon: dict[str, Any], contact: bool, pot: int) -> Split | None:
    split = action["split"]
    if weapon["kind"] == "ranged" and not contact:
        if split is not None:
            raise InvalidAction(
                "a shooter facing nobody in contact does not split his POT de Tir: send no split", field="split"
            )
        return None
    if split is None:
        raise InvalidAction(f"split the POT ({pot} dice) between init, att and def", field="split")
    total = split["init"] + split["att"] + split["def"]
    if total != pot:
        raise InvalidAction(
            f"init + att + def = {total}, but the POT is {pot} dice: they must add up to it", field="split"
        )
    return cast("Split", dict(split))
