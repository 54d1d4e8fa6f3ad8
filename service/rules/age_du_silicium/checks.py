"""The d100 roll-under test every rule of the game uses.

Source: "d100 <= skill". House (rules-notes 4.3): 01-05 always succeeds and
96-00 always fails, each behind an option; a d100 showing 100 reads "00".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..conditions import take_roll_adjustments
from .state import Res, SiliciumCombatant
from .tables import CRITICAL_MAX, FUMBLE_MIN


@dataclass(frozen=True, slots=True)
class Test:
    roll: int
    chance: int
    success: bool
    critical: bool
    fumble: bool

    def as_params(self) -> dict[str, Any]:
        return {
            "roll": self.roll,
            "chance": self.chance,
            "success": self.success,
            "critical": self.critical,
            "fumble": self.fumble,
        }


def judge(roll: int, chance: int, options: dict[str, Any]) -> Test:
    critical = options["criticals"] and roll <= CRITICAL_MAX
    fumble = options["fumbles"] and roll >= FUMBLE_MIN
    success = (roll <= chance or critical) and not fumble
    return Test(roll, chance, success, critical and success, fumble)


# The key of the GM's ``modify`` in a test's modifiers, where a test lists them (the Calme tests).
GM_MODIFIER = "gm_modifier"


def roll_test(res: Res, chance: int, purpose: str, roller: SiliciumCombatant) -> Test:
    """``roller`` rolls d100 under ``chance`` plus the GM's modifiers; the GM's override decides."""
    bonus, forced = take_roll_adjustments(res, roller)
    return _rolled(res, chance + bonus, purpose, roller, forced)


def roll_floored_test(
    res: Res, base: int, modifiers: dict[str, int], floor: int, purpose: str, roller: SiliciumCombatant
) -> tuple[Test, dict[str, int]]:
    """A test whose chance never goes below ``floor`` (seed: the Calme tests, "minimum 10 % de chances").

    The GM's ``modify`` is one more of its modifiers (``gm_modifier``): the
    floor holds under it too. Returns the test and every modifier it used.
    """
    bonus, forced = take_roll_adjustments(res, roller)
    if bonus:
        modifiers = {**modifiers, GM_MODIFIER: bonus}
    chance = max(floor, base + sum(modifiers.values()))
    return _rolled(res, chance, purpose, roller, forced), modifiers


def _rolled(res: Res, chance: int, purpose: str, roller: SiliciumCombatant, forced: str | None) -> Test:
    test = judge(res.dice.roll(100, purpose, roller["id"]), chance, res.options)
    if forced:
        won = forced == "success"
        test = replace(test, success=won, critical=test.critical and won, fumble=test.fumble and not won)
    return test
