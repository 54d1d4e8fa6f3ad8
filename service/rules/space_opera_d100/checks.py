"""d100 roll-under tests and their critical edges (seed 8, "Les coups Critiques").

A roll succeeds when it is at most the modified skill. A success that is a
double (11, 22, ... 99) or 01 is critical; a failure that is a double or
96-00 is a fumble. 00 reads as 100, and there is no automatic failure, so a
skill of 100 or more succeeds on 00, but not critically: the seed's doubles
run "11, 22..." to "99", and 00 is named only among the fumbles (notes 3.1
[HOUSE]; the option ``high_rolls_always_fumble`` makes 96-00 a failed fumble
whatever the skill).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..conditions import take_roll_adjustments
from .state import Res, SpaceOperaCombatant
from .tables import CRITICAL_SINGLE, FUMBLE_FROM


def is_double(roll: int) -> bool:
    """11, 22 ... 99: the seed's doubles. 00 (100) is named only in the fumbles' "96 à 00"."""
    return roll % 11 == 0 and roll < 100


@dataclass(frozen=True, slots=True)
class Check:
    roll: int
    target: int
    success: bool
    critical: bool
    fumble: bool

    @property
    def margin(self) -> int:
        return self.target - self.roll

    @property
    def level(self) -> str:
        if self.critical:
            return "critical"
        if self.fumble:
            return "fumble"
        return "success" if self.success else "failure"

    def as_params(self) -> dict[str, Any]:
        return {"roll": self.roll, "needed": self.target, "level": self.level}


def classify(roll: int, target: int, high_rolls_always_fumble: bool = False) -> Check:
    high = roll >= FUMBLE_FROM
    success = roll <= target and not (high and high_rolls_always_fumble)
    critical = success and (is_double(roll) or roll == CRITICAL_SINGLE)
    fumble = not success and (is_double(roll) or high)
    return Check(roll, target, success, critical, fumble)


def roll_test(res: Res, target: int, purpose: str, roller: SpaceOperaCombatant) -> Check:
    """``roller`` rolls d100 under ``target`` plus the GM's modifiers; the GM's override decides."""
    bonus, forced = take_roll_adjustments(res, roller)
    check = classify(res.dice.roll(100, purpose, roller["id"]), target + bonus, res.options["high_rolls_always_fumble"])
    if forced:
        won = forced == "success"
        check = replace(check, success=won, critical=check.critical and won, fumble=check.fumble and not won)
    return check


def with_target(check: Check, target: int, high_rolls_always_fumble: bool) -> Check:
    """The same die read against another target (a penalty known after the roll)."""
    return classify(check.roll, target, high_rolls_always_fumble)
