"""2D6 roll-under tests: four result levels and the doubled die (rules-notes 1.1).

A test succeeds when the sum of 2D6 is at most its target (7 + skill, 2 +
attribute, or 2 + Bagarre for an untrained martial-arts maneuver, plus the
modifiers). A double turns the result critical, success or failure; Dd is the
doubled die's face.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..conditions import take_roll_adjustments
from .conditions import is_prone
from .state import DuelCombatant, Res
from .tables import (
    ATTRIBUTE_BASE,
    BRAWL,
    CRITICAL,
    ENCUMBRANCE_MALUS,
    FAILURE,
    FUMBLE,
    LEVELS,
    PRONE_MALUS,
    SKILL_BASE,
    SPECIALIZATION_BONUS,
    SUCCESS,
    UNTRAINED_MA_BASE,
)


@dataclass(frozen=True, slots=True)
class Test:
    dice: tuple[int, int]
    target: int
    modifiers: dict[str, Any]
    forced: str | None = None  # the GM's override: "success" or "failure"

    @property
    def total(self) -> int:
        return self.dice[0] + self.dice[1]  # read several times per blow: no sum() call

    @property
    def double(self) -> bool:
        return self.dice[0] == self.dice[1]

    @property
    def success(self) -> bool:
        if self.forced:
            return self.forced == "success"
        return self.dice[0] + self.dice[1] <= self.target  # self.total, without a second property call

    @property
    def level(self) -> int:
        if self.success:
            return CRITICAL if self.double else SUCCESS
        return FUMBLE if self.double else FAILURE

    @property
    def dd(self) -> int:
        return self.dice[0] if self.double else 0

    def params(self) -> dict[str, Any]:
        return {
            "dice": list(self.dice),
            "total": self.total,
            "target": self.target,
            "level": LEVELS[self.level],
            "dd": self.dd,
            "modifiers": self.modifiers,
        }


def roll_test(res: Res, modifiers: dict[str, Any], purpose: str, roller: DuelCombatant) -> Test:
    """``roller`` rolls 2D6 under the sum of ``modifiers`` (which include the base) and the GM's."""
    bonus, forced = take_roll_adjustments(res, roller)
    modifiers = {**modifiers, "gm_modifier": bonus}
    dice = res.dice.roll_many(2, 6, purpose, roller["id"])
    shown = {key: value for key, value in modifiers.items() if value or key == "base"}
    return Test((dice[0], dice[1]), sum(modifiers.values()), shown, forced)


def skill_level(combatant: DuelCombatant, skill: str | None) -> int:
    found: int = combatant["sheet"]["skills"].get(skill or BRAWL, 0)
    return found


def skill_base(combatant: DuelCombatant, skill: str | None) -> dict[str, Any]:
    return {"base": SKILL_BASE, "skill": skill_level(combatant, skill)}


def attribute_base(combatant: DuelCombatant, attribute: str) -> dict[str, Any]:
    return {"base": ATTRIBUTE_BASE, attribute: combatant["sheet"]["attributes"][attribute]}


def maneuver_base(combatant: DuelCombatant, needs_martial_art: bool, skill: str | None) -> dict[str, Any]:
    """7 + skill, or for a * maneuver 7 + martial art, else 2 + Bagarre."""
    if not needs_martial_art:
        return skill_base(combatant, skill)
    art = combatant["sheet"]["martial_art"]
    if art:
        return skill_base(combatant, art)
    return {"base": UNTRAINED_MA_BASE, "skill": skill_level(combatant, BRAWL)}


def specialization(combatant: DuelCombatant, maneuver: str) -> int:
    return SPECIALIZATION_BONUS if maneuver in combatant["sheet"]["specializations"] else 0


def encumbering_armour(combatant: DuelCombatant) -> list[dict[str, Any]]:
    """The pieces whose IP counts for encumbrance: all but a fragments-only helmet, unless its sheet says so."""
    return [piece for piece in combatant["sheet"]["armour"] if piece.get("encumbers", not piece["fragments_only"])]


def situation(combatant: DuelCombatant, *, physical: bool = True, maneuver: bool = True) -> dict[str, Any]:
    """The maluses a combatant carries into every roll (wounds, ground, armour, opponents)."""
    mods = {"wound": combatant["malus"]}
    if maneuver and is_prone(combatant):
        mods["prone"] = PRONE_MALUS
    worn = encumbering_armour(combatant)
    # "Malus de -1 ... si IP supérieur à FOR": without armour there is no IP to compare, whatever the FOR.
    if physical and worn and sum(piece["ip"] for piece in worn) > combatant["sheet"]["attributes"]["FOR"]:
        mods["encumbrance"] = ENCUMBRANCE_MALUS
    opponents = len(combatant["facing"])
    if maneuver and opponents >= 2:
        mods["opponents"] = -opponents
    return mods
