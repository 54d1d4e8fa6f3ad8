"""Sistema +2d6 damage and death (seed, "Dano", "Redução de Dano", "Morte")."""

from __future__ import annotations

from typing import Any

from ..conditions import RULES, add, has, remove, take_roll_adjustments
from ..dice import DiceExpression
from .conditions import DEAD, DYING, STABLE, UNCONSCIOUS, is_dead, is_dying
from .schemas import FOR_DAMAGE_PATTERN
from .state import Res, SistemaCombatant
from .tables import (
    DEATH_TEST_FAILURES_TO_DIE,
    DEATH_TEST_STABILISES,
    DEATH_TEST_TARGET,
    FOR_DAMAGE,
    SEED_FOR_DAMAGE_SHIFT,
)


def damage_expression(weapon: dict[str, Any], wielder: SistemaCombatant, reading: str) -> DiceExpression:
    """The weapon's dice; ``FOR+N`` reads the FOR damage table (the seed's or the source's, option
    ``for_damage``), plus N."""
    match = FOR_DAMAGE_PATTERN.match(weapon["damage"])
    if not match:
        return DiceExpression.parse(weapon["damage"])
    strength = max(0, min(wielder["sheet"]["attributes"]["FOR"], 10))
    bonus = int(match.group(2) or 0) * (-1 if match.group(1) == "-" else 1)
    if reading == "seed":
        bonus += SEED_FOR_DAMAGE_SHIFT
    return FOR_DAMAGE[strength].plus(bonus)


def damage_reduction(target: SistemaCombatant, damage_type: str) -> int:
    armor = target["sheet"].get("armor")
    if not armor:
        return 0
    rd: dict[str, int] = armor["rd"]
    return max(rd.get(damage_type, 0), rd.get("*", 0))


def death_limit(combatant: SistemaCombatant, threshold: str) -> int:
    """PV at or below which the character dies at once."""
    attributes = combatant["sheet"]["attributes"]
    limit: int = attributes["CON"] + attributes["FOR"] + (10 if threshold == "heroic" else 0)
    return -limit


def take_damage(res: Res, target: SistemaCombatant, amount: int, lethal: bool) -> None:
    """Lower PV and apply unconsciousness, dying and instant death."""
    if amount <= 0:
        return
    if not lethal:
        # Non-lethal damage knocks out but never kills (docs, gap G5): PV stop at 0, and the event says what was lost.
        before = target["pv"]
        target["pv"] = max(before - amount, min(before, 0))
        if before > target["pv"]:
            res.emit("damage_taken", target=target["id"], amount=before - target["pv"], pv=target["pv"], lethal=False)
        if target["pv"] <= 0 and add(res, target, UNCONSCIOUS):
            res.emit("knocked_out", target=target["id"])
        return
    target["pv"] -= amount
    res.emit("damage_taken", target=target["id"], amount=amount, pv=target["pv"], lethal=True)
    _fall(res, target, cause="damage")


def _dying_floor(res: Res) -> int:
    """PV at or below which a character is dying (seed: below 0; option: at 0 already)."""
    return 0 if res.options["death_tests_at_zero"] else -1


def _fall(res: Res, target: SistemaCombatant, cause: str) -> None:
    """PV went down: instant death, dying, or unconscious, by the PV now."""
    if target["pv"] <= death_limit(target, res.options["death_threshold"]):
        _die(res, target, cause=cause)
        return
    if target["pv"] <= _dying_floor(res):
        add(res, target, UNCONSCIOUS)
        remove(target, STABLE)
        if add(res, target, DYING):
            res.emit("dying", target=target["id"], pv=target["pv"])
    elif target["pv"] <= 0 and add(res, target, UNCONSCIOUS):
        res.emit("knocked_out", target=target["id"])


def pv_adjusted(res: Res, target: SistemaCombatant, before: int) -> None:
    """The GM moved PV: down, the consequences of damage; up, of healing (no longer dying, awake above 0).

    The dead stay dead: only the GM's ``condition`` action removes ``dead``.
    """
    if is_dead(target) or target["pv"] == before:
        return
    if target["pv"] < before:
        _fall(res, target, cause="gm")
        return
    if target["pv"] > _dying_floor(res) and is_dying(target):
        remove(target, DYING)
        target["death_failures"] = 0
        res.emit("stabilised", target=target["id"], healer=None)
    if target["pv"] > 0 and (has(target, UNCONSCIOUS) or has(target, STABLE)):
        remove(target, UNCONSCIOUS)
        remove(target, STABLE)
        target["death_failures"] = 0
        res.emit("recovered", target=target["id"])


def _die(res: Res, target: SistemaCombatant, cause: str) -> None:
    remove(target, DYING)
    remove(target, STABLE)
    add(res, target, UNCONSCIOUS)
    add(res, target, DEAD)
    res.emit("died", target=target["id"], cause=cause)


def death_test(res: Res, combatant: SistemaCombatant) -> None:
    """Seed, "Testes de Morte": 2d6 >= 6 holds on, 12 on the dice stabilises, 3 failures kill.

    The GM's modifier adds to the total and his override decides success or failure, as on
    every roll ("O Mestre tem a palavra final"); only the dice's own 12 stabilises.
    """
    gm, forced = take_roll_adjustments(res, combatant)
    dice = res.dice.roll_many(2, 6, "death test", combatant["id"])
    total = sum(dice) + gm
    success = forced == "success" if forced else total >= DEATH_TEST_TARGET
    if success and sum(dice) >= DEATH_TEST_STABILISES:
        outcome = "stabilised"
    elif success:
        outcome = "success"
    else:
        outcome = "failure"
        combatant["death_failures"] += 1
    res.emit(
        "death_test",
        actor=combatant["id"],
        dice=list(dice),
        total=total,
        modifiers={"gm": gm} if gm else {},
        outcome=outcome,
        failures=combatant["death_failures"],
    )
    if outcome == "stabilised":
        stabilise(res, combatant, by=None)
    elif combatant["death_failures"] >= DEATH_TEST_FAILURES_TO_DIE:
        _die(res, combatant, cause="death_tests")


def stabilise(res: Res, combatant: SistemaCombatant, by: str | None) -> None:
    if is_dead(combatant) or not is_dying(combatant):
        return
    remove(combatant, DYING)
    add(res, combatant, STABLE, source=by or RULES)
    res.emit("stabilised", target=combatant["id"], healer=by)
