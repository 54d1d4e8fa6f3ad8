"""Attacks: the declaration, then one resolution (seed 1 to 8).

An attack is declared (weapon, mode, N attacks, called shot...). Unless it
cannot be noticed or answered, the combat then waits for the target's
``react`` declaration (dodge, parry or nothing): both are known before any
die is rolled. Dice order of a resolution: reaction d100, attack d100, a
disarm's second attack d100, then the fumble table or the effects
(paralysis 1D4 and d100; disarm d100; martial arts d100, damage dice, vibro,
damage bonus, 1D3 critical, parry points, item wear d100, stun d100 and
3D10, death table d100 and its duration, or CON x 5 d100 and 1D10).
"""

from __future__ import annotations

from typing import Any, cast

from ..conditions import remove
from ..errors import ActionNotAllowed, InvalidAction, RulesError, refusal
from ..state import Action
from .checks import roll_test
from .conditions import OFF_BALANCE, can_act, is_dead, is_droid, test_penalties
from .damage import deal_damage
from .fumbles import fumble
from .items import check_usable, find_weapon, held_item, skill_penalty
from .reactions import NO_REACTION, after_dodge_penalty, check_reaction, parry_against, roll_reaction, skill
from .special import disarm, paralyse
from .state import PendingAttack, Res, SpaceOperaCombatant
from .tables import CALLED_SHOT_PENALTY, MULTI_ATTACK_PENALTY_PER_ATTACK, OFF_HAND_PENALTY, SNEAK_SKILL_FACTOR
from .turns import spend_attack


def declare(res: Res, attacker: SpaceOperaCombatant, action: Action) -> None:
    target = res.combatant(action["target"], field="target")
    if target is attacker:
        raise InvalidAction(refusal("a combatant cannot attack itself"), field="target")
    if is_dead(target):
        raise ActionNotAllowed(refusal("{target} is already dead", target=target["name"]), field="target")
    weapon = find_weapon(attacker, action["weapon"], field="weapon")
    check_usable(attacker, weapon, field="weapon")
    _check_mode(res, attacker, target, weapon, action)
    attacks = _declare_attacks(attacker, action)
    pending: PendingAttack = {
        "attacker": attacker["id"],
        "target": target["id"],
        "weapon": weapon["id"],
        "attacks": attacks,
        "mode": action["mode"],
        "location": action["location"],
        "sneak": action["sneak"],
        "off_hand": action["off_hand"],
        "martial_arts": action["martial_arts"],
        "vibro": action["vibro"],
        "modifier": action["modifier"],
        "target_weapon": _target_weapon(target, action) if action["mode"] == "disarm" else None,
    }
    res.emit(
        "attack_declared",
        attacker=attacker["id"],
        target=target["id"],
        weapon=weapon["id"],
        mode=action["mode"],
        attacks=attacks,
    )
    answerable = can_act(target) and not action["sneak"]
    if action["reaction"] is not None:
        if not answerable:
            raise ActionNotAllowed(
                refusal("{target} cannot react to this attack (unnoticed or helpless)", target=target["name"]),
                field="reaction.kind",
            )
        item = check_reaction(res, target, action["reaction"], weapon, prefix="reaction.")
        resolve(res, pending, action["reaction"], item)
    elif answerable and res.options["ask_reactions"]:
        res.state["pending"] = pending
        res.emit("awaiting_reaction", target=target["id"], attacker=attacker["id"])
    else:
        resolve(res, pending, NO_REACTION, None)


def martial_arts_allowed(weapon: dict[str, Any], options: dict[str, Any]) -> bool:
    """Seed 8: bare hands, or "une arme blanche" (a blade; option armed_martial_arts: any melee weapon)."""
    if weapon["ranged"]:
        return False
    found: bool = weapon["class"] == "natural" or weapon["edged"] or options["armed_martial_arts"] == "any_melee"
    return found


def mode_allowed(weapon: dict[str, Any], mode: str, options: dict[str, Any]) -> bool:
    """Stun and disarm are the melee page's; a shot does them only with the option ranged_stun_and_disarm."""
    return not (weapon["ranged"] and mode in ("stun", "disarm") and not options["ranged_stun_and_disarm"])


def stun_refusal(weapon: dict[str, Any], target: SpaceOperaCombatant) -> RulesError | None:
    """Seed 2, "ne doit pas avoir une arme tranchante" and "(sauf droïd)": why ``weapon`` cannot stun
    ``target``, or None. The declaration raises it; legal.py lists the stun targets with it."""
    if weapon["edged"]:
        return InvalidAction(
            refusal("{weapon} is edged: an edged weapon cannot stun", weapon=weapon["name"]), field="weapon"
        )
    if is_droid(target):
        return InvalidAction(
            refusal("{target} is a droid: droids cannot be stunned", target=target["name"]), field="target"
        )
    return None


def paralyse_refusal(weapon: dict[str, Any], target: SpaceOperaCombatant, options: dict[str, Any]) -> RulesError | None:
    """Seed 3, "doit avoir une arme paralysante"; droids only with the option paralyse_droids: why
    ``weapon`` cannot paralyse ``target``, or None. The declaration raises it; legal.py lists with it."""
    if not weapon["paralysing"]:
        return InvalidAction(refusal("{weapon} is not a paralysing weapon", weapon=weapon["name"]), field="weapon")
    if is_droid(target) and not options["paralyse_droids"]:
        return InvalidAction(
            refusal(
                "{target} is a droid: this combat's options make droids immune to paralysis", target=target["name"]
            ),
            field="target",
        )
    return None


def _refuse(found: RulesError | None) -> None:
    if found is not None:
        raise found


def _check_mode(
    res: Res, attacker: SpaceOperaCombatant, target: SpaceOperaCombatant, weapon: dict[str, Any], action: Action
) -> None:
    mode = action["mode"]
    if not mode_allowed(weapon, mode, res.options):
        if mode == "stun":
            melee_only = refusal(
                "{weapon} is a ranged weapon: in this combat only melee blows stun", weapon=weapon["name"]
            )
        else:
            melee_only = refusal(
                "{weapon} is a ranged weapon: in this combat only melee blows disarm", weapon=weapon["name"]
            )
        raise InvalidAction(melee_only, field="mode")
    if mode == "stun":
        _refuse(stun_refusal(weapon, target))
        if action["martial_arts"]:
            raise InvalidAction(refusal("martial arts cannot be used to stun"), field="martial_arts")
    if mode == "paralyse":
        _refuse(paralyse_refusal(weapon, target, res.options))
    if action["martial_arts"] and not martial_arts_allowed(weapon, res.options):
        if res.options["armed_martial_arts"] == "any_melee":
            needed = refusal("martial arts need bare hands or a melee weapon, not {weapon}", weapon=weapon["name"])
        else:
            needed = refusal(
                "martial arts need bare hands or a bladed weapon (arme blanche), not {weapon}", weapon=weapon["name"]
            )
        raise InvalidAction(needed, field="martial_arts")


def _declare_attacks(attacker: SpaceOperaCombatant, action: Action) -> int:
    turn = attacker["round"]
    if turn["attacks"] is None:
        attacks = action["attacks"] or 1
        if attacks > attacker["sheet"]["max_attacks"]:
            raise InvalidAction(
                refusal(
                    "{attacker} may attack at most {most:once|# times} a round",
                    attacker=attacker["name"],
                    most=attacker["sheet"]["max_attacks"],
                ),
                field="attacks",
            )
        turn["attacks"] = turn["attacks_left"] = attacks
        return attacks
    if action["attacks"] is not None and action["attacks"] != turn["attacks"]:
        raise InvalidAction(
            refusal(
                "{attacks:# attack was|# attacks were} declared for this round; the number cannot change",
                attacks=turn["attacks"],
            ),
            field="attacks",
        )
    return turn["attacks"]


def _target_weapon(target: SpaceOperaCombatant, action: Action) -> str:
    """The weapon named, else the one the target last used, else its first: always one of its sheet."""
    wanted = action["target_weapon"]
    if wanted is None:
        carried = [w["id"] for w in target["sheet"]["weapons"] if w["class"] != "natural"]
        if not carried:
            raise InvalidAction(
                refusal("{target} holds no weapon to disarm", target=target["name"]), field="target_weapon"
            )
        wanted = target["wielding"] if target["wielding"] in carried else carried[0]
    weapon = held_item(target, wanted, field="target_weapon")
    check_usable(target, weapon, field="target_weapon")
    if weapon["class"] == "natural":
        raise InvalidAction(refusal("bare hands cannot be disarmed"), field="target_weapon")
    found: str = weapon["id"]
    return found


def attack_target(
    res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], pending: PendingAttack
) -> tuple[int, dict[str, Any]]:
    base = skill(attacker, weapon["skill"])
    if pending["sneak"]:
        base *= SNEAK_SKILL_FACTOR
    attacks = pending["attacks"]
    modifiers = {
        "weapon_bonus": weapon["bonus"],
        "item_steps": skill_penalty(attacker, weapon),
        "multiple_attacks": MULTI_ATTACK_PENALTY_PER_ATTACK * attacks if attacks > 1 else 0,
        "called_shot": CALLED_SHOT_PENALTY if pending["location"] else 0,
        "off_hand": OFF_HAND_PENALTY if pending["off_hand"] and weapon["class"] != "shield" else 0,
        **after_dodge_penalty(res, attacker),
        **test_penalties(attacker),
        "modifier": pending["modifier"],
    }
    return base, modifiers


def resolve(res: Res, pending: PendingAttack, reaction: dict[str, Any], item: dict[str, Any] | None) -> None:
    attacker = res.combatant(pending["attacker"])
    target = res.combatant(pending["target"])
    weapon = find_weapon(attacker, pending["weapon"], field="weapon")
    defence = roll_reaction(res, target, reaction, item, weapon)
    base, modifiers = attack_target(res, attacker, weapon, pending)
    modifiers["reaction"] = defence["attack_modifier"]
    shown = {key: value for key, value in modifiers.items() if value}
    check = roll_test(res, base + sum(modifiers.values()), "attack", attacker)
    remove(attacker, OFF_BALANCE)
    attacker["wielding"] = weapon["id"]
    res.emit(
        "attack_rolled",
        attacker=attacker["id"],
        target=target["id"],
        weapon=weapon["id"],
        skill=base,
        modifiers=shown,
        **check.as_params(),
    )
    parry = parry_against(res, target, defence, check)
    spend_attack(res, attacker)
    if check.success and pending["mode"] == "disarm":
        check = roll_test(res, check.target, "disarm second attack", attacker)
        res.emit("disarm_second_roll", attacker=attacker["id"], **check.as_params())
    if not check.success:
        res.emit("attack_missed", attacker=attacker["id"], target=target["id"], fumble=check.fumble)
        if check.fumble:
            fumble(res, attacker, weapon, pending["vibro"])
        return
    res.emit("attack_hit", attacker=attacker["id"], target=target["id"], critical=check.critical)
    if (
        pending["mode"] in ("paralyse", "disarm")
        and parry is not None
        and parry.success
        and res.options["parry_stops_effects"]
    ):
        res.emit("parry_stopped", defender=target["id"], mode=pending["mode"])
        return
    if pending["mode"] == "paralyse":
        paralyse(res, target)
    elif pending["mode"] == "disarm":
        aimed_at = cast(str, pending["target_weapon"])  # a disarm names it (declare)
        disarm(res, target, find_weapon(target, aimed_at, field="target_weapon"))
    else:
        deal_damage(res, attacker, target, weapon, pending, check, {**defence, "check": parry} if parry else None)
