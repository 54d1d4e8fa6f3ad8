"""Shooting specifics (seed B, D-3, E-2): ammunition, jams, suppression fire and its zone."""

from __future__ import annotations

from typing import Any

from ..errors import ActionNotAllowed, InvalidAction, refusal
from ..state import Action
from .arsenal import aim_limit, ammo_refusal, automatic_refusal, shot_modifiers
from .checks import Test, roll_test, situation, skill_base, skill_level
from .conditions import SUPPRESSED, add, condition, is_out, remove
from .duels import by_id
from .state import DuelCombatant, Res
from .tables import CRITICAL, FUMBLE, LEVELS
from .wounds import roll_damage, wound


def refuse(why: str | None, field: str = "weapon") -> None:
    """Raise the refusal a check function found (409 action-not-allowed)."""
    if why is not None:
        raise ActionNotAllowed(why, field=field)


def spend_ammo(res: Res, shooter: DuelCombatant, weapon: dict[str, Any], shots: int) -> None:
    refuse(ammo_refusal(shooter, weapon, shots))
    if weapon.get("ammo"):
        shooter["ammo"][weapon["id"]] = shooter["ammo"].get(weapon["id"], weapon["ammo"]) - shots


def after_shot(res: Res, shooter: DuelCombatant, weapon: dict[str, Any], test: Test) -> None:
    """ "S'enraye si Maladresse et Dd supérieur à niveau de compétence"."""
    if weapon.get("jams") and test.level == FUMBLE and test.dd > skill_level(shooter, weapon["skill"]):
        if weapon["id"] not in shooter["jammed"]:
            shooter["jammed"].append(weapon["id"])
        res.emit("weapon_jammed", attacker=shooter["id"], weapon=weapon["id"], dd=test.dd)


def land_shot(
    res: Res,
    shooter: DuelCombatant,
    target: DuelCombatant,
    weapon: dict[str, Any],
    plan: dict[str, Any],
    band: str,
    *,
    dd: int,
    cover_ip: int = 0,
) -> None:
    raw = roll_damage(res, shooter, weapon, bonus={"Dd": dd, "coup_mortel": plan.get("steps", 0)}, band=band)
    wound(
        res,
        target,
        raw,
        by=shooter,
        fragments=plan.get("fragments", False),
        cover_ip=cover_ip,
        aim=plan.get("aim"),
        shift_limit=aim_limit(shooter, weapon),
    )


def suppression(
    res: Res, shooter: DuelCombatant, defender: DuelCombatant, weapon: dict[str, Any], action: Action, band: str
) -> list[str]:
    """Tir de suppression: no defense; a critical hits the whole zone by ricochet."""
    refuse(automatic_refusal(weapon, "tir_de_suppression"))
    if action["zone_width"] is None:
        raise InvalidAction(refusal("a suppression fire needs zone_width (metres covered)"), field="zone_width")
    zone = [defender["id"]] + [i for i in action["zone"] if i != defender["id"]]
    for index, combatant_id in enumerate(zone[1:]):
        res.combatant(combatant_id, field=f"zone.{index}")
    spend_ammo(res, shooter, weapon, 1)
    plan = {
        "shot": "tir_de_suppression",
        "zone_width": action["zone_width"],
        "modifier": action["modifier"],
        "steps": 0,
    }
    test = roll_test(res, shot_modifiers(shooter, weapon, plan, band), "suppression fire", shooter)
    res.emit("suppression_fire", attacker=shooter["id"], weapon=weapon["id"], zone=zone, **test.params())
    after_shot(res, shooter, weapon, test)
    if not test.success:
        res.emit("attack_missed", attacker=shooter["id"], defender=defender["id"])
        return ["attack_failed"]
    for combatant_id in zone:
        target = by_id(res.state, combatant_id)
        if is_out(target):
            continue
        if test.level == CRITICAL:
            res.emit("ricochet", attacker=shooter["id"], target=combatant_id)
            land_shot(res, shooter, target, weapon, {"fragments": action["fragments"]}, band, dd=0)
        else:
            remove(target, SUPPRESSED)
            # The fire pins the zone until the end of the next round, so the opponent's next exchange meets it.
            add(
                res,
                target,
                SUPPRESSED,
                source=shooter["id"],
                rounds=2,
                by=shooter["id"],
                weapon=weapon["id"],
                level=test.level,
                bursts=action["bursts"],
            )
            res.emit(
                "zone_suppressed",
                target=combatant_id,
                attacker=shooter["id"],
                level=LEVELS[test.level],
                bursts=action["bursts"],
            )
    return []


def zone_test(res: Res, combatant: DuelCombatant) -> None:
    """Acting in a suppressed zone: a dodge roll at -1 per burst, at least the shot's level, or be hit."""
    fire = condition(combatant, SUPPRESSED)
    if fire is None:
        return
    remove(combatant, SUPPRESSED)
    shooter = by_id(res.state, fire["by"])
    if is_out(shooter):
        return
    mods = {
        **skill_base(combatant, combatant["sheet"]["dodge_skill"]),
        "bursts": -fire["bursts"],
        **situation(combatant),
    }
    test = roll_test(res, mods, "suppression zone", combatant)
    safe = test.success and test.level >= fire["level"]
    res.emit("zone_test", combatant=combatant["id"], safe=safe, **test.params())
    if not safe:
        weapon = next(w for w in shooter["sheet"]["weapons"] if w["id"] == fire["weapon"])
        raw = roll_damage(res, shooter, weapon, bonus={})
        wound(res, combatant, raw, by=shooter)
