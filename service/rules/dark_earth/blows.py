"""A blow that landed: the seed's wound formula.

Seed: "On ajoute aux DEGats les dommages de l'arme utilisée, ainsi que la
FORce de l'attaquant. On en retranche la PROTection de l'armure du
défenseur, et le résultat d'un jet de RESistance." Positive: a wound (and
CHOC); otherwise the defender took the blow without consequence.

Dice, in order: the armour's PROT dice if it is partial, then the RES dice.
"""

from __future__ import annotations

from typing import Any

from . import bouffons
from .health import take_wound
from .pools import note_fumble, roll_pool
from .state import DarkEarthCombatant, Res


def land_blow(
    res: Res, attacker: DarkEarthCombatant, target: DarkEarthCombatant, weapon: dict[str, Any], deg: int
) -> None:
    strength = attacker["sheet"]["attributes"]["FOR"]
    if weapon["kind"] == "ranged" and not res.options["strength_on_ranged"]:
        strength = 0
    if bouffons.is_bouffon(target):
        bouffons.strike(res, attacker, target, weapon, deg, strength)
        return
    protection = _protection(res, target)
    resistance = roll_pool(res, {"RES": target["sheet"]["attributes"]["RES"]}, f"resistance {target['id']}", target)
    res.emit("resistance_rolled", combatant=target["id"], **resistance.as_params())
    note_fumble(res, target["id"], "RES", resistance)
    score = deg + weapon["damage"] + strength - protection - resistance.successes
    res.emit(
        "blow_scored",
        attacker=attacker["id"],
        target=target["id"],
        deg=deg,
        weapon_damage=weapon["damage"],
        strength=strength,
        protection=protection,
        resistance=resistance.successes,
        score=score,
    )
    if score > 0:
        take_wound(res, target, score)
    else:
        res.emit("blow_absorbed", target=target["id"], score=score)


def _protection(res: Res, target: DarkEarthCombatant) -> int:
    armour = target["sheet"]["armour"]
    if not armour:
        return 0
    if armour["coverage"] == "complete":
        found: int = armour["prot"]
        return found
    pool = roll_pool(res, {"PROT": armour["prot"]}, f"armour {target['id']}", target)
    res.emit("armour_rolled", combatant=target["id"], **pool.as_params())
    note_fumble(res, target["id"], "PROT", pool)
    return pool.successes
