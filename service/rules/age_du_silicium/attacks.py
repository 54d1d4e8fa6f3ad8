"""Melee and ranged attacks (source, combats-5 and combats-6).

One complex action: d100 <= skill + modifiers. Several shots in one action
(``extra_shots``) each roll to hit in turn. A hit on a combatant holding a
reaction waits for its ``react`` (dodge, parry or none) before it lands.
Dice order, per shot: d100 to hit; then, once the hit lands, the wound's
dice (see wounds.py). The ``react`` action's own d100 comes first in it.
"""

from __future__ import annotations

from typing import Any

from ..conditions import add, has
from ..errors import ActionNotAllowed, InvalidAction, RulesError, refusal
from ..state import Action
from .checks import roll_test
from .declarations import check_attack_target, check_kind
from .modifiers import attack_modifiers, mode
from .rounds import available_reactions, current_slot, defences, finish_slot, own_slot
from .state import PendingAttack, Res, SiliciumCombat, SiliciumCombatant
from .status import DISARMED, IMMOBILISED, is_standing, raise_refusal
from .weapons import skill, usable_weapon, weapon_named
from .wounds import wound


def _spend_action(res: Res, attacker: SiliciumCombatant, action: Action) -> bool:
    """Check the attacker may attack now; True when it is its declared slot."""
    state = res.state
    if action["reaction"]:
        held = available_reactions(state, attacker["id"], ("held",))
        if not held:
            raise ActionNotAllowed(
                refusal("{actor} holds no action to react with", actor=attacker["name"]), field="reaction"
            )
        held[0]["used"] = True
        return False
    own_slot(state, attacker, "attack")
    return True


def _declared_target(res: Res, slot: dict[str, Any] | None, target: SiliciumCombatant) -> None:
    declared = slot and slot.get("target")
    if declared and declared != target["id"] and is_standing(res.combatant(declared)):
        raise ActionNotAllowed(
            refusal(
                "the attack was declared against {target}, who is still standing",
                target=res.combatant(declared)["name"],
            ),
            field="target",
        )


def _check_aim(attacker: SiliciumCombatant, action: Action) -> None:
    aim = action["aim"]
    if len(aim) > attacker["aim"]:
        raise ActionNotAllowed(
            refusal(
                "{actor} has aimed for {aimed:# action|# actions}, not {spent}",
                actor=attacker["name"],
                aimed=attacker["aim"],
                spent=len(aim),
            ),
            field="aim",
        )
    if aim.count("location") > 1 or aim.count("damage") > 1:
        raise InvalidAction(
            refusal("choosing the hit location and doubling the damage die can each be bought once only"), field="aim"
        )
    if ("location" in aim) != (action["location"] is not None):
        raise InvalidAction(
            refusal("choosing the hit location takes both an aimed action spent on it and the location itself"),
            field="location",
        )


def attack(res: Res, attacker: SiliciumCombatant, action: Action) -> None:
    target = res.combatant(action["target"], field="target")
    if target is attacker:
        raise InvalidAction(refusal("a combatant cannot attack itself"), field="target")
    check_kind(attacker, "attack", "type")
    check_attack_target(attacker, target, "target")
    slot = None if action["reaction"] else current_slot(res.state)
    from_slot = _spend_action(res, attacker, action)
    if from_slot:
        _declared_target(res, slot, target)
    weapon = usable_weapon(attacker, action["weapon"] or (slot or {}).get("weapon"))
    if action["full_auto"] is not None:
        action = full_auto(res, weapon, action)
    modifiers = attack_modifiers(attacker, weapon, action)
    if action["aim"] or action["location"]:
        _check_aim(attacker, action)
    chance = skill(attacker, weapon["skill"]) + sum(modifiers.values())
    attacker["aim"] = 0  # aiming serves the next attack only
    shots = 1 + action["extra_shots"]
    res.emit(
        "attack",
        attacker=attacker["id"],
        target=target["id"],
        weapon=weapon["id"],
        skill=weapon["skill"],
        base=skill(attacker, weapon["skill"]),
        modifiers=modifiers,
        chance=chance,
        shots=shots,
        reaction=action["reaction"],
    )
    pending: PendingAttack = {
        "attacker": attacker["id"],
        "target": target["id"],
        "weapon": weapon,
        "mode": mode(weapon),
        "chance": chance,
        "burst": action["burst"],
        "maneuver": action["maneuver"],
        "double_die": "damage" in action["aim"],
        "location": action["location"],
        "shots_left": shots,
        "from_slot": from_slot,
    }
    shoot(res, pending)


def full_auto_refusal(options: dict[str, Any], weapon: dict[str, Any]) -> RulesError | None:
    """Why ``weapon`` may not fire full automatic in this combat, or None: the attack refuses with it,
    legal.py lists the full_auto entries with it."""
    if options["full_auto"] == "off":
        return ActionNotAllowed(
            refusal("full automatic fire is not played in this combat (its options leave it out)"), field="full_auto"
        )
    if mode(weapon) != "ranged" or not weapon["full_auto"]:
        return InvalidAction(
            refusal("{weapon} cannot fire full automatic", weapon=weapon_named(weapon)), field="full_auto"
        )
    return None


def full_auto(res: Res, weapon: dict[str, Any], action: Action) -> dict[str, Any]:
    """The house reading of Tir automatique (docs, gap G12): n bursts, as a burst with n - 1 extra shots."""
    raise_refusal(full_auto_refusal(res.options, weapon))
    if action["burst"] or action["extra_shots"]:
        raise InvalidAction(
            refusal("full automatic fire already sets the bursts and the extra shots: do not give them as well"),
            field="full_auto",
        )
    return {**action, "burst": True, "extra_shots": action["full_auto"] - 1}


def can_react(state: SiliciumCombat, target: SiliciumCombatant, critical: bool, options: dict[str, Any]) -> bool:
    if critical and options["critical_hit"] == "no_reaction":
        return False
    if not is_standing(target) or has(target, IMMOBILISED):
        return False
    return bool(defences(state, target))


def shoot(res: Res, pending: PendingAttack) -> None:
    """Roll the shots left; stop when a hit waits for the target's reaction."""
    target = res.combatant(pending["target"])
    while pending["shots_left"] > 0:
        pending["shots_left"] -= 1
        test = roll_test(res, pending["chance"], "to-hit", res.combatant(pending["attacker"]))
        res.emit("attack_roll", attacker=pending["attacker"], target=target["id"], **test.as_params())
        if not test.success:
            res.emit("attack_missed", attacker=pending["attacker"], target=target["id"], fumble=test.fumble)
            continue
        res.emit("attack_hit", attacker=pending["attacker"], target=target["id"], critical=test.critical)
        if can_react(res.state, target, test.critical, res.options):
            res.state["pending"] = pending
            res.emit("awaiting_reaction", target=target["id"], attacker=pending["attacker"])
            return
        land(res, pending, target)
    if pending["from_slot"]:
        finish_slot(res.state)


def land(res: Res, pending: PendingAttack, target: SiliciumCombatant) -> None:
    """A hit neither dodged nor parried: a maneuver's effect, or a wound."""
    maneuver = pending["maneuver"]
    if maneuver == "immobilisation":
        add(res, target, IMMOBILISED, source=pending["attacker"], until="broken_free", by=pending["attacker"])
        res.emit("immobilised", target=target["id"], attacker=pending["attacker"])
    elif maneuver == "disarm":
        add(res, target, DISARMED, source=pending["attacker"])
        res.emit("disarmed", target=target["id"], attacker=pending["attacker"])
    else:
        wound(res, pending, target)
