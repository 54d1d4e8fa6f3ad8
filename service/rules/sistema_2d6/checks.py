"""Sistema +2d6 tests: attribute + skill + 2d6, against a CD or opposed.

Source (nerun/sistema2d6, "Testes"): 6+6 is a critical success and 1+1 a
critical failure. With the ``critical_rolls`` option a critical success
always succeeds and a critical failure always fails; when both sides of an
opposed test are at the same level, the totals decide (docs, gap G2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..conditions import take_roll_adjustments
from .state import Res, SistemaCombatant
from .tables import BONUS_CAP

CRITICAL_FAILURE, NORMAL, CRITICAL_SUCCESS = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Check:
    dice: tuple[int, ...]  # 2d6
    total: int
    breakdown: dict[str, Any]
    forced: str | None = None  # the GM's override: "success" or "failure"

    @property
    def level(self) -> int:
        if self.dice == (6, 6):
            return CRITICAL_SUCCESS
        if self.dice == (1, 1):
            return CRITICAL_FAILURE
        return NORMAL

    def as_params(self) -> dict[str, Any]:
        return {"dice": list(self.dice), "total": self.total, "modifiers": self.breakdown}


def roll_check(
    res: Res, combatant: SistemaCombatant, attribute: str, skill: str | None, extra: dict[str, Any], purpose: str
) -> Check:
    """Roll 2d6 + attribute + skill + the named extra modifiers."""
    sheet = combatant["sheet"]
    breakdown = {attribute: sheet["attributes"].get(attribute, 0)}
    if skill:
        breakdown[skill] = sheet["skills"].get(skill, 0)
    gm, forced = take_roll_adjustments(res, combatant)
    bonus = gm
    for name, value in extra.items():  # the named modifiers that are not 0, in their order, then the GM's
        bonus += value
        if value:
            breakdown[name] = value
    if gm:
        breakdown["gm"] = gm
    if res.options["bonus_cap"] == "total" and bonus > BONUS_CAP:
        # Source, "Precisão": "o valor máximo do bônus total de modificadores será sempre +5".
        breakdown["cap"] = BONUS_CAP - bonus
    dice = res.dice.roll_many(2, 6, purpose, combatant["id"])
    return Check(dice, sum(dice) + sum(breakdown.values()), breakdown, forced)


def beats_difficulty(check: Check, difficulty: int, criticals: bool) -> bool:
    if check.forced:
        return check.forced == "success"
    if criticals and check.level != NORMAL:
        return check.level == CRITICAL_SUCCESS
    return check.total >= difficulty


def wins_opposed(active: Check, passive: Check, criticals: bool, tie_to_active: bool) -> bool:
    """Does ``active`` (the attacker) win against ``passive`` (the defender)?"""
    if active.forced or passive.forced:
        # The GM's word: a forced attack decides; else a forced defense does.
        return active.forced == "success" if active.forced else passive.forced == "failure"
    if criticals:
        if active.level == CRITICAL_FAILURE:
            return False
        if active.level != passive.level:
            return active.level > passive.level
    if active.total == passive.total:
        return tie_to_active
    return active.total > passive.total
