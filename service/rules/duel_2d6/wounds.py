"""Damage and wounds (seed C-1, C-2 fixed by example F, C-5, C-6; rules-notes 1.4, 1.5).

The damage that gets through armour (E) is compared with the target's
current PV: E <= PV/2 is an égratignure, E <= PV a blessure légère (-1),
E > PV a blessure grave (-3) whose overflow E - PV is taken off the PV.
"""

from __future__ import annotations

from typing import Any

from ..health import health_adjusted
from .checks import attribute_base, roll_test
from .conditions import DEAD, STUNNED, UNCONSCIOUS, add, remove
from .duels import leave_fight, lose_initiative_everywhere
from .state import DuelCombatant, Res
from .tables import FOR_BONUS_KINDS, LIMBS, LOCATIONS, WOUND_ORDER, WOUNDS


def roll_damage(
    res: Res, attacker: DuelCombatant, weapon: dict[str, Any], *, bonus: dict[str, Any], band: str | None = None
) -> int:
    """Weapon dice, + FOR for natural and melee weapons, + the named bonuses (maneuver, Dd...)."""
    expression = weapon.get("damage_by_band", {}).get(band, weapon["damage"]) if band else weapon["damage"]
    rolled = res.dice.roll_expression(expression, "damage", attacker["id"])
    parts = {"dice": rolled.total}
    if weapon["kind"] in FOR_BONUS_KINDS:
        parts["FOR"] = attacker["sheet"]["attributes"]["FOR"]
    parts.update({key: value for key, value in bonus.items() if value})
    total = max(0, sum(parts.values()))
    res.emit(
        "damage_rolled",
        attacker=attacker["id"],
        expression=expression,
        rolls=list(rolled.values),
        parts=parts,
        total=total,
    )
    return total


def protection(target: DuelCombatant, *, fragments: bool, cover_ip: int = 0) -> int:
    worn = sum(p["ip"] for p in target["sheet"]["armour"] if fragments or not p["fragments_only"])
    found: int = worn + cover_ip
    return found


def _location(res: Res, attacker: DuelCombatant, target: DuelCombatant, aim: str | None, shift_limit: int) -> str:
    roll = sum(res.dice.roll_many(2, 6, "hit location", attacker["id"]))
    shift = 0
    if aim:
        # "on peut modifier le jet de dés avec +/- niveau compétence arme": the smallest shift that reaches the aim.
        reachable = [s for s in sorted(range(-shift_limit, shift_limit + 1), key=abs) if LOCATIONS.get(roll + s) == aim]
        shift = reachable[0] if reachable else 0
    location = LOCATIONS[roll + shift]
    res.emit("hit_location", target=target["id"], roll=roll, shift=shift, location=location)
    return location


def wound(
    res: Res,
    target: DuelCombatant,
    raw: int,
    *,
    by: DuelCombatant,
    absorbed: int = 0,
    fragments: bool = False,
    cover_ip: int = 0,
    double_overflow: bool = False,
    aim: str | None = None,
    shift_limit: int = 0,
) -> int:
    """Apply a blow of ``by`` that landed (``by`` rolls where); returns E, the damage that got through."""
    location = _location(res, by, target, aim, shift_limit) if res.options["hit_location"] else None
    ip = protection(target, fragments=fragments, cover_ip=cover_ip)
    effective = max(0, raw - absorbed - ip)
    pv = target["pv"]
    if effective <= 0:
        level = "aucune"
    elif effective <= pv // 2:
        level = "egratignure"
    elif effective <= pv:
        level = "legere"
    else:
        level = "grave"
    loss = max(0, effective - pv)
    if loss and double_overflow:
        loss *= 2
    if loss and location in LIMBS:
        loss = max(1, loss // 2)
    elif loss and location == "tete":
        loss *= 2
    target["pv"] -= loss
    if WOUND_ORDER.index(level) > WOUND_ORDER.index(target["wound"]):
        target["wound"] = level
        target["malus"] = WOUNDS[level]["malus"]
    res.emit(
        "wounded",
        target=target["id"],
        damage=raw,
        absorbed=absorbed,
        ip=ip,
        effective=effective,
        level=level,
        malus=WOUNDS[level]["malus"],
        loss=loss,
        pv=target["pv"],
        location=location,
        malus_now=target["malus"],  # the worst wound's: a lighter one does not lower it
    )
    _check_out(res, target)
    return effective


def _check_out(res: Res, target: DuelCombatant) -> None:
    """Dead below 0 PV (option ``death``: at 0 already), else out of the fight at 0; each said once."""
    dead_at = 0 if res.options["death"] == "zero" else -1
    if target["pv"] <= dead_at:
        if not add(res, target, DEAD):
            return
        add(res, target, UNCONSCIOUS)
        res.emit("died", target=target["id"], pv=target["pv"])
    elif target["pv"] <= 0:
        if not add(res, target, UNCONSCIOUS):
            return
        res.emit("out_of_fight", target=target["id"], pv=target["pv"])
    else:
        return
    leave_fight(res, target)


def pv_adjusted(res: Res, target: DuelCombatant, before: int) -> None:
    """The GM moved PV: down, the consequences of a wound (out, dead); up above 0, back in the fight."""
    health_adjusted(res, target, "pv", before, dead=DEAD, down=UNCONSCIOUS, fall=_check_out)


def wound_level_set(res: Res, target: DuelCombatant) -> None:
    """The GM set the wound level: its malus follows, as the wound's would (G1: the worst wound gives it)."""
    malus: int = WOUNDS[target["wound"]]["malus"]
    if target["malus"] != malus:
        target["malus"] = malus
        res.emit("wound_malus", target=target["id"], level=target["wound"], malus=malus)


def stun_check(res: Res, target: DuelCombatant, damage: int) -> None:
    """ "Adversaire étourdi si rate jet CON avec malus=dmg": 2 + CON - damage."""
    test = roll_test(
        res, {**attribute_base(target, "CON"), "damage": -damage, "wound": target["malus"]}, "stun CON", target
    )
    res.emit("stun_check", combatant=target["id"], **test.params())
    if test.success or target["pv"] <= 0:
        return
    until = res.state["round"] + res.options["stun_rounds"]
    remove(target, STUNNED)
    # Stunned through round ``until``: it expires when the round after begins.
    add(res, target, STUNNED, rounds=res.options["stun_rounds"] + 1)
    res.emit("stunned", target=target["id"], until=until)
    lose_initiative_everywhere(res, target, "stunned")
