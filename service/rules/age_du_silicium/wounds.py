"""Wounds (source, combats-9) and the Blessure critique (house, rules-notes 4.3).

Blessures = weapon damage - (Endurance + armour at the location for the
damage type) + 1d6. On a 6 the to-hit is rolled again at the same chance; a
success adds another d6, and so on while 6s come up. Dice order: d10 hit
location (unless aimed), d6, then for each 6: d100 re-roll, d6.
"""

from __future__ import annotations

from ..conditions import add
from ..health import health_adjusted
from .checks import judge
from .state import PendingAttack, Res, SiliciumCombatant
from .status import DEAD, OUT_OF_ACTION
from .tables import BURST, HIT_LOCATION_D10, WOUND_DIE


def protection(target: SiliciumCombatant, location: str, damage_type: str) -> int:
    armor = target["sheet"]["armor"]
    piece = armor.get(location) or armor.get("*") or {}
    found: int = piece.get(damage_type, 0)
    return found


def hit_location(res: Res, attacker_id: str, target: SiliciumCombatant, chosen: str | None) -> str:
    if chosen:
        res.emit("hit_location", target=target["id"], location=chosen, roll=None, aimed=True)
        return chosen
    roll = res.dice.roll(10, "hit location", attacker_id)
    location = HIT_LOCATION_D10[roll]
    res.emit("hit_location", target=target["id"], location=location, roll=roll, aimed=False)
    return location


def wound_dice(res: Res, attack: PendingAttack) -> list[int]:
    """1d6, and another for each 6 while the re-rolled to-hit succeeds."""
    dice = [res.dice.roll(WOUND_DIE, "wound", attack["attacker"])]
    while dice[-1] == WOUND_DIE:
        retest = judge(
            res.dice.roll(100, "to-hit again on a wound 6", attack["attacker"]), attack["chance"], res.options
        )
        res.emit("wound_reroll", attacker=attack["attacker"], target=attack["target"], **retest.as_params())
        if not retest.success:
            break
        dice.append(res.dice.roll(WOUND_DIE, "extra wound die", attack["attacker"]))
    return dice


def wound(res: Res, attack: PendingAttack, target: SiliciumCombatant) -> None:
    weapon = attack["weapon"]
    location = hit_location(res, attack["attacker"], target, attack["location"])
    dice = wound_dice(res, attack)
    # Aiming "doubles the damage die": the formula's own d6, not the extra ones.
    rolled = sum(dice) + (dice[0] if attack["double_die"] else 0)
    burst = BURST["damage"] if attack["burst"] else 0
    endurance = target["sheet"]["endurance"]
    armour = protection(target, location, weapon["damage_type"])
    wounds = max(0, weapon["damage"] + burst - (endurance + armour) + rolled)
    halved = attack["maneuver"] == "projection"
    if halved:
        wounds //= 2  # "dommages divisés par deux après l'encaissement", rounded down
    res.emit(
        "wound_rolled",
        target=target["id"],
        location=location,
        damage=weapon["damage"],
        burst=burst,
        endurance=endurance,
        armour=armour,
        damage_type=weapon["damage_type"],
        dice=dice,
        doubled=attack["double_die"],
        halved=halved,
        wounds=wounds,
    )
    take_wounds(res, target, wounds)


def blessures_adjusted(res: Res, target: SiliciumCombatant, before: int) -> None:
    """The GM moved Blessures: below 0, the excess is a Blessure critique as after a hit; up above 0, back in."""

    def fall(res: Res, target: SiliciumCombatant) -> None:
        if target["blessures"] < 0:
            lost = before - target["blessures"]
            target["blessures"] = before
            take_wounds(res, target, lost)

    health_adjusted(res, target, "blessures", before, dead=DEAD, down=OUT_OF_ACTION, fall=fall)


def take_wounds(res: Res, target: SiliciumCombatant, wounds: int) -> None:
    if wounds <= 0:
        return
    if wounds <= target["blessures"]:
        target["blessures"] -= wounds
        res.emit("wounded", target=target["id"], amount=wounds, left=target["blessures"])
        return
    # Source: losing more Blessure points than remain is a Blessure critique.
    excess = wounds - target["blessures"]
    target["blessures"] = 0
    endurance = target["sheet"]["endurance"]
    res.emit("critical_wound", target=target["id"], amount=wounds, excess=excess, endurance=endurance)
    add(res, target, OUT_OF_ACTION)
    if res.options["critical_wound"] == "death_over_endurance" and excess > endurance:
        add(res, target, DEAD)
        res.emit("died", target=target["id"])
    else:
        res.emit("out_of_action", target=target["id"])
