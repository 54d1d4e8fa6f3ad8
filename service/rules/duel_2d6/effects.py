"""What a blow that lands does (table E-1's damage and particularity columns)."""

from __future__ import annotations

from typing import Any

from .arsenal import aim_limit, weapon_of
from .conditions import PRONE, add
from .duels import lose_initiative_everywhere
from .state import DuelCombatant, Res
from .tables import MELEE_ATTACKS
from .wounds import roll_damage, stun_check, wound


def fall(res: Res, combatant: DuelCombatant) -> None:
    """ "Personnage au sol : perd automatiquement l'initiative s'il l'avait"."""
    # On the ground until the initiative comes back to him (give_initiative: stands_up).
    if add(res, combatant, PRONE, until="stands_up"):
        res.emit("falls", target=combatant["id"])
    lose_initiative_everywhere(res, combatant, "fell")


def release(res: Res, holder_id: str, held_id: str) -> None:
    before = len(res.state["holds"])
    res.state["holds"] = [h for h in res.state["holds"] if not (h["holder"] == holder_id and h["held"] == held_id)]
    if len(res.state["holds"]) != before:
        res.emit("hold_released", attacker=holder_id, defender=held_id)


def _drop_weapons(res: Res, combatant: DuelCombatant) -> list[str]:
    dropped = [
        w["id"] for w in combatant["sheet"]["weapons"] if w["kind"] != "natural" and w["id"] not in combatant["dropped"]
    ]
    combatant["dropped"] += dropped
    for weapon_id in dropped:
        res.emit("weapon_dropped", target=combatant["id"], weapon=weapon_id)
    return dropped


def disarm(res: Res, attacker: DuelCombatant, defender: DuelCombatant, critical: bool) -> None:
    """ "Adversaire lâche arme si rate défense; attaquant s'empare de l'arme si critique"."""
    weapon = next(
        (w for w in defender["sheet"]["weapons"] if w["kind"] != "natural" and w["id"] not in defender["dropped"]), None
    )
    if weapon is None:
        res.emit("nothing_to_disarm", target=defender["id"])
        return
    defender["dropped"].append(weapon["id"])
    res.emit("weapon_dropped", target=defender["id"], weapon=weapon["id"])
    if critical:
        taken_id = (
            weapon["id"]
            if all(w["id"] != weapon["id"] for w in attacker["sheet"]["weapons"])
            else f"{weapon['id']}-{defender['id']}"
        )
        attacker["sheet"]["weapons"].append({**weapon, "id": taken_id})
        if weapon.get("ammo"):
            attacker["ammo"][taken_id] = defender["ammo"].get(weapon["id"], weapon["ammo"])
        res.emit("weapon_taken", attacker=attacker["id"], target=defender["id"], weapon=taken_id)


def land_blow(
    res: Res,
    attacker: DuelCombatant,
    defender: DuelCombatant,
    blow: dict[str, Any],
    *,
    dd: int,
    critical: bool,
    absorbed: int,
    steps: int,
    aim: str | None,
) -> None:
    maneuver = blow["maneuver"]
    spec = MELEE_ATTACKS[maneuver]
    weapon = weapon_of(attacker, blow["weapon"])
    effect = spec.get("effect")
    if effect == "hold":
        res.state["holds"].append(
            {"holder": attacker["id"], "held": defender["id"], "part": blow["part"], "locked": False}
        )
        res.emit("hold_taken", attacker=attacker["id"], defender=defender["id"], part=blow["part"])
        return
    if effect == "lock":
        for hold in res.state["holds"]:
            if hold["holder"] == attacker["id"] and hold["held"] == defender["id"]:
                hold["locked"] = True
        res.emit("locked", attacker=attacker["id"], defender=defender["id"])
        _drop_weapons(res, defender)
        return
    if effect == "disarm":
        disarm(res, attacker, defender, critical)
        return
    bonus = {"maneuver": spec["damage"], "Dd": dd, "coup_mortel": steps}
    if effect == "fall":
        fall(res, defender)
        if maneuver == "projection":
            release(res, attacker["id"], defender["id"])
        if not res.options["fall_damage"]:
            return
    raw = roll_damage(res, attacker, weapon, bonus=bonus)
    if effect == "stun_only":
        # Étrangler: no PV lost, the damage only weighs on the CON roll (gap G9).
        stun_check(res, defender, raw)
        return
    effective = wound(
        res,
        defender,
        raw,
        by=attacker,
        absorbed=absorbed,
        double_overflow=spec.get("double_overflow", False),
        aim=aim,
        shift_limit=aim_limit(attacker, weapon),
    )
    if effect == "stun" and defender["pv"] > 0:
        stun_check(res, defender, effective)
