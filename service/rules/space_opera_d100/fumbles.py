"""Fumbled attacks (seed 8, notes 3.3): a d100 on the combat's fumble table.

Shots use the ranged table (the source's jam table), blows the melee table
(lost in the source; the notes' proposal by default). A blow that hits an ally strikes the first
one still in the fight, else the attacker. Every fumble d100 is
moved by -(Chance - 40) / 2, truncated, and kept within 1-100. The option
``none`` leaves the effect to the GM.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..conditions import LEFT, add, has
from .conditions import LOSES_NEXT_ACTION, OFF_BALANCE, is_dead
from .damage import weapon_damage
from .items import damage_step, drop, jam, state_of
from .state import Res, SpaceOperaCombatant
from .tables import CHANCE_DIVISOR, CHANCE_PIVOT, DESTROYED_AT_STEP, FUMBLE_TABLES, JAM_ACTIONS_TO_CLEAR, band
from .wounds import take_damage


def chance_adjustment(combatant: SpaceOperaCombatant) -> int:
    return -int((combatant["sheet"]["chance"] - CHANCE_PIVOT) / CHANCE_DIVISOR)


def fumble(res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool) -> None:
    table = res.options["ranged_fumble_table" if weapon["ranged"] else "melee_fumble_table"]
    if table == "none":
        res.emit("fumble_for_gm", attacker=attacker["id"], item=weapon["id"])
        return
    roll = res.dice.roll(100, "fumble table", attacker["id"])
    adjustment = chance_adjustment(attacker) if res.options["fumble_chance_adjustment"] else 0
    value = max(1, min(100, roll + adjustment))
    result = band(FUMBLE_TABLES[table], value)
    res.emit(
        "fumble_rolled",
        attacker=attacker["id"],
        table=table,
        roll=roll,
        adjustment=adjustment,
        value=value,
        result=result,
    )
    EFFECTS[result](res, attacker, weapon, use_vibro, result)


def _off_balance(res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str) -> None:
    # Until the attacker's next attack or defence roll (attack.py, reactions.py).
    add(res, attacker, OFF_BALANCE, until="next_test")


def _loses_next_action(
    res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str
) -> None:
    add(res, attacker, LOSES_NEXT_ACTION, until="next_action")


def _drops_weapon(
    res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str
) -> None:
    drop(res, attacker, weapon)


def _weapon_damaged(
    res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str
) -> None:
    damage_step(res, attacker, weapon)


def _hits_ally(res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str) -> None:
    """The first ally still in the fight (alive, not gone: fled, surrendered or taken out by the GM), else
    the attacker himself, who is told that no ally is there."""
    ally = next((c for c in res.state["combatants"] if c is not attacker and _beside(attacker, c)), None)
    if ally is None:
        res.emit("fumble_no_ally", attacker=attacker["id"])
    strike(res, attacker, ally or attacker, weapon, use_vibro)


def _beside(attacker: SpaceOperaCombatant, other: SpaceOperaCombatant) -> bool:
    return other["side"] == attacker["side"] and not is_dead(other) and not has(other, LEFT)


def _hits_self(res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str) -> None:
    strike(res, attacker, attacker, weapon, use_vibro)


def _no_jam(res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str) -> None:
    pass


def _jams(res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str) -> None:
    jam(res, attacker, weapon, JAM_ACTIONS_TO_CLEAR[result])


def _damaged_and_jammed(
    res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str
) -> None:
    damage_step(res, attacker, weapon)
    if not state_of(attacker, weapon)["destroyed"]:
        jam(res, attacker, weapon, JAM_ACTIONS_TO_CLEAR["weapon_damaged_jam"])


def _explodes(res: Res, attacker: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool, result: str) -> None:
    strike(res, attacker, attacker, weapon, use_vibro)
    item = state_of(attacker, weapon)
    item["steps"] = max(item["steps"], DESTROYED_AT_STEP.get(weapon["class"], item["steps"]))
    item["destroyed"] = True
    res.emit(
        "item_damaged",
        combatant=attacker["id"],
        item=weapon["id"],
        steps=item["steps"],
        vibro_lost=False,
        destroyed=True,
    )


def strike(
    res: Res, attacker: SpaceOperaCombatant, victim: SpaceOperaCombatant, weapon: dict[str, Any], use_vibro: bool
) -> None:
    """A fumbled blow that lands on someone: the weapon's damage, armour applies."""
    parts = weapon_damage(res, attacker, weapon, use_vibro)
    rolled = max(0, sum(parts.values()))
    armour = max(0, victim["sheet"]["armour"] - weapon["armour_piercing"])
    lost = max(0, rolled - armour)
    res.emit(
        "fumble_strike",
        attacker=attacker["id"],
        target=victim["id"],
        parts=parts,
        rolled=rolled,
        armour=armour,
        pv_loss=lost,
    )
    take_damage(res, victim, lost)


EFFECTS: dict[str, Callable[[Res, SpaceOperaCombatant, dict[str, Any], bool, str], None]] = {
    "off_balance": _off_balance,
    "loses_next_action": _loses_next_action,
    "drops_weapon": _drops_weapon,
    "weapon_damaged": _weapon_damaged,
    "hits_ally": _hits_ally,
    "hits_self": _hits_self,
    "no_jam": _no_jam,
    "jam_1": _jams,
    "jam_2": _jams,
    "jam_fight": _jams,
    "weapon_damaged_jam": _damaged_and_jammed,
    "weapon_explodes": _explodes,
}
