"""From a hit to PV lost (seed 1, 2, 6, 7 and 8), in this order:

weapon dice (-1 per item damage step) + working vibro + the wielder's damage
bonus (melee), martial arts, +1D3 for a critical hit on an unarmoured target;
minus the parry points (armour-piercing points eat them first); minus the
armour (ignored by a critical hit); doubled on the head unless a shield took
it; a quarter of it when stunning.
"""

from __future__ import annotations

from typing import Any

from ..dice import DiceExpression
from .checks import Check, roll_test
from .conditions import KNOCKED_OUT, add_timed, is_dead
from .items import damage_penalty, damage_step, vibro_works
from .state import PendingAttack, Res, SpaceOperaCombatant
from .tables import (
    CRITICAL_NO_ARMOUR_BONUS,
    CRITICAL_PARRY_EXTRA_POINTS,
    HEAD_FACTOR,
    MARTIAL_ARTS,
    SKILL_MARTIAL_ARTS,
    STUN_DURATION,
    STUN_FACTOR,
    STUN_PV_DIVISOR,
)
from .wounds import take_damage


def _points(res: Res, expression: str, purpose: str, roller: SpaceOperaCombatant, average: bool = False) -> int:
    parsed = DiceExpression.parse(expression)
    if average:
        return (parsed.count * (parsed.sides + 1)) // 2 + parsed.modifier
    return res.dice.roll_expression(parsed, purpose, roller["id"]).total


def weapon_damage(res: Res, wielder: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool) -> dict[str, Any]:
    """Roll the blow: weapon dice, vibro dice, damage bonus (melee only)."""
    parts = {"weapon": _points(res, weapon["damage"], "damage", wielder), "item_steps": damage_penalty(wielder, weapon)}
    if use_vibro and vibro_works(wielder, weapon):
        parts["vibro"] = _points(res, weapon["vibro"], "vibro damage", wielder)
    if not weapon["ranged"] and wielder["sheet"]["damage_bonus"] != "0":
        parts["damage_bonus"] = _points(res, wielder["sheet"]["damage_bonus"], "damage bonus", wielder)
    return parts


def martial_arts(res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any]) -> tuple[str, int]:
    skill = attacker["sheet"]["skills"].get(SKILL_MARTIAL_ARTS, 0)
    check = roll_test(res, skill, "martial arts", attacker)
    kind = "unarmed" if weapon["class"] == "natural" else "armed"
    operation, amount = MARTIAL_ARTS[kind]["success" if check.success else "failure"]
    res.emit(
        "martial_arts_rolled",
        attacker=attacker["id"],
        kind=kind,
        operation=operation,
        amount=amount,
        **check.as_params(),
    )
    return operation, amount


def _apply(total: int, operation: str, amount: int) -> int:
    if operation == "times":
        return total * amount
    if operation == "divide":
        return total // amount
    return total + amount


def deal_damage(
    res: Res,
    attacker: SpaceOperaCombatant,
    target: SpaceOperaCombatant,
    weapon: dict[str, Any],
    pending: PendingAttack,
    attack: Check,
    parry: dict[str, Any] | None,
) -> None:
    """``parry``: {"check", "item"} of the target's parry, when it was declared."""
    operation = martial_arts(res, attacker, weapon) if pending["martial_arts"] else None
    parts = weapon_damage(res, attacker, weapon, pending["vibro"])
    rolled = sum(parts.values())
    if operation:
        rolled = _apply(rolled, *operation)
    armour = target["sheet"]["armour"]
    if attack.critical and armour == 0:
        rolled += _points(res, CRITICAL_NO_ARMOUR_BONUS, "critical hit without armour", attacker)
    rolled = max(0, rolled)

    parried, ap_left, shield = _parry_points(res, target, weapon, rolled, parry)
    after_parry = rolled - parried
    armour_used = 0 if attack.critical else max(0, armour - ap_left)
    after_armour = max(0, after_parry - armour_used)
    location = pending["location"] or "body"
    if shield and location != "body":
        location = "shield_arm"
    lost = after_armour * (HEAD_FACTOR if location == "head" else 1)
    res.emit(
        "damage_rolled",
        target=target["id"],
        parts=parts,
        rolled=rolled,
        parried=parried,
        armour=armour_used,
        location=location,
        pv_loss=lost,
        critical=attack.critical,
    )
    if pending["mode"] == "stun":
        basis = after_parry if res.options["stun_chance_basis"] == "damage_roll" else after_armour
        _stun(res, attacker, target, weapon, basis, shield)
        lost //= STUN_PV_DIVISOR
        res.emit("stun_damage", target=target["id"], pv_loss=lost)
    take_damage(res, target, lost)


def _parry_points(
    res: Res, defender: SpaceOperaCombatant, weapon: dict[str, Any], rolled: int, parry: dict[str, Any] | None
) -> tuple[int, int, bool]:
    """Seed 6: points = item damage + damage bonus (no vibro); +2 if critical.

    Returns the damage parried, the armour-piercing points left for the
    armour, and whether a shield took the blow.
    """
    piercing = weapon["armour_piercing"]
    if parry is None or not parry["check"].success:
        return 0, piercing, False
    item = parry["item"]
    average = res.options["parry_points"] == "average"
    points = _points(res, item["damage"], "parry points", defender, average) + damage_penalty(defender, item)
    if defender["sheet"]["damage_bonus"] != "0":
        points += _points(res, defender["sheet"]["damage_bonus"], "parry damage bonus", defender, average)
    if parry["check"].critical:
        points += CRITICAL_PARRY_EXTRA_POINTS
    points = max(0, points)
    pierced = min(piercing, points)
    parried = min(points - pierced, rolled)
    res.emit("parry_points", defender=defender["id"], item=item["id"], points=points, pierced=pierced, parried=parried)
    if parried > 0:
        _item_wear(res, defender, item, parried)
    return parried, piercing - pierced, item["class"] == "shield"


def _item_wear(res: Res, defender: SpaceOperaCombatant, item: dict[str, Any], parried: int) -> None:
    """Seed 7: the item is damaged with a chance equal to the damage parried."""
    roll = res.dice.roll(100, "parrying item wear", defender["id"])
    damaged = roll <= parried
    res.emit("item_wear", combatant=defender["id"], item=item["id"], roll=roll, chance=parried, damaged=damaged)
    if damaged:
        damage_step(res, defender, item)


def _stun(
    res: Res,
    attacker: SpaceOperaCombatant,
    target: SpaceOperaCombatant,
    weapon: dict[str, Any],
    damage: int,
    shield: bool,
) -> None:
    """Seed 2: damage x 5 + the weapon's stun bonus = % chance, 3D10 minutes."""
    if shield:
        res.emit("stun_blocked", target=target["id"])
        return
    chance = damage * STUN_FACTOR + weapon["stun_bonus"] if damage > 0 else 0
    if chance <= 0 or is_dead(target):
        res.emit("stun_failed", target=target["id"], chance=chance, roll=None)
        return
    roll = res.dice.roll(100, "stun", attacker["id"])
    if roll > chance:
        res.emit("stun_failed", target=target["id"], chance=chance, roll=roll)
        return
    duration = add_timed(res, target, KNOCKED_OUT, STUN_DURATION, "minutes", "stunned minutes")
    res.emit("stunned", target=target["id"], chance=chance, roll=roll, minutes=duration["value"])
