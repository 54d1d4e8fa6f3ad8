"""PV loss, loss of consciousness and the death table (notes 3.2, the source's
"Perte de PV et table des morts violentes").

Every hit that leaves a character at 0 PV or below rolls on the death table
(column by PV: 0, -1, -2, -3 and below). A hit that leaves fewer than 3 PV,
or a round's hits that take half the PV, call for a CON x 5 test or 1D10
hours unconscious. Droids make no CON x 5 test (gap G6).
"""

from __future__ import annotations

from ..conditions import add, has
from .checks import roll_test
from .conditions import DEAD, KNOCKED_OUT, UNCONSCIOUS, WOUND, add_timed, is_dead, is_droid
from .state import Res, SpaceOperaCombatant
from .tables import (
    CONSCIOUSNESS_CON_FACTOR,
    CONSCIOUSNESS_DURATION,
    CONSCIOUSNESS_LOW_PV,
    DEATH_TABLE,
    DEATH_TABLE_COLUMNS,
    WOUND_EFFECTS,
    band,
)


def take_damage(res: Res, target: SpaceOperaCombatant, amount: int) -> None:
    if amount <= 0 or is_dead(target):
        return
    target["pv"] -= amount
    target["round"]["damage"] += amount
    res.emit("damage_taken", target=target["id"], amount=amount, pv=target["pv"])
    _after_loss(res, target)


def _after_loss(res: Res, target: SpaceOperaCombatant) -> None:
    if target["pv"] <= 0:
        death_table(res, target)
    elif _must_test_consciousness(target):
        consciousness_test(res, target)


def pv_adjusted(res: Res, target: SpaceOperaCombatant, before: int) -> None:
    """The GM lowered PV: the consequences of a hit (the death table at 0 or below, else maybe a CON x 5 test).

    Raising PV undoes nothing: no state of these rules ends with PV (wounds and
    unconsciousness last their time; the GM removes them with ``clear_condition``).
    """
    if target["pv"] < before and not is_dead(target):
        _after_loss(res, target)


def _must_test_consciousness(target: SpaceOperaCombatant) -> bool:
    if is_droid(target) or has(target, UNCONSCIOUS) or has(target, KNOCKED_OUT):
        return False
    return target["pv"] < CONSCIOUSNESS_LOW_PV or 2 * target["round"]["damage"] >= target["pv_max"]


def consciousness_test(res: Res, target: SpaceOperaCombatant) -> None:
    con = target["sheet"]["attributes"]["CON"]
    check = roll_test(res, con * CONSCIOUSNESS_CON_FACTOR, "consciousness CON x 5", target)
    res.emit("consciousness_test", target=target["id"], con=con, **check.as_params())
    if not check.success:
        duration = add_timed(
            res,
            target,
            UNCONSCIOUS,
            CONSCIOUSNESS_DURATION["dice"],
            CONSCIOUSNESS_DURATION["unit"],
            "unconscious hours",
            cause="consciousness",
        )
        res.emit("fell_unconscious", target=target["id"], amount=duration["value"], unit=duration["unit"])


def death_table(res: Res, target: SpaceOperaCombatant) -> None:
    column = min(-target["pv"], len(DEATH_TABLE_COLUMNS) - 1)
    roll = res.dice.roll(100, "death table", target["id"])
    result = band(DEATH_TABLE, roll)[column]
    res.emit(
        "death_table",
        target=target["id"],
        roll=roll,
        pv=target["pv"],
        column=DEATH_TABLE_COLUMNS[column],
        result=result,
    )
    if result == "dead":
        add(res, target, DEAD)
        res.emit("died", target=target["id"])
        return
    effects = WOUND_EFFECTS[result]
    san = None
    if effects["san"] and target["san"] is not None and not is_droid(target):
        target["san"] = max(0, target["san"] + effects["san"])
        san = target["san"]
    # Wounds stack: each result of the death table is a condition of its own.
    add(res, target, WOUND, stacks=True, severity=result, skill=effects["skill"], limb_lost=effects["limb_lost"])
    res.emit(
        "wound",
        target=target["id"],
        severity=result,
        san_loss=-effects["san"],
        san=san,
        skill_loss=-effects["skill"],
        limb_lost=effects["limb_lost"],
    )
    if effects["unconscious"]:
        spec = effects["unconscious"]
        duration = add_timed(
            res, target, UNCONSCIOUS, spec["dice"], spec["unit"], f"unconscious {spec['unit']}", cause=result
        )
        res.emit("fell_unconscious", target=target["id"], amount=duration["value"], unit=duration["unit"])
