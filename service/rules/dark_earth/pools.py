"""Dark Earth dice pools: d6s counting successes, all ones a fumble."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..conditions import take_roll_adjustments
from .state import DarkEarthCombatant, Res
from .tables import SUCCESSES_BY_FACE


@dataclass(frozen=True, slots=True)
class Pool:
    dice: tuple[int, ...]
    # Counted once, when the pool is made: the tour reads them a few times per pool.
    successes: int = field(init=False)
    # An empty pool is no roll at all, so it cannot fumble (rules-notes 2.2).
    fumble: bool = field(init=False)

    def __post_init__(self) -> None:
        dice = self.dice
        object.__setattr__(self, "successes", sum(map(SUCCESSES_BY_FACE.__getitem__, dice)))
        object.__setattr__(self, "fumble", bool(dice) and dice.count(1) == len(dice))

    def as_params(self) -> dict[str, Any]:
        return {"dice": list(self.dice), "successes": self.successes, "fumble": self.fumble}


def roll_pool(res: Res, count: int, purpose: str, roller: DarkEarthCombatant) -> Pool:
    """``roller`` rolls ``count`` d6 plus the GM's modifier in dice (none when a malus ate the whole pool).

    Opposed pools have no success of their own, so the GM's override is refused
    here (``DarkEarth.supports_override``); only the modifier applies.
    """
    bonus, _ = take_roll_adjustments(res, roller)
    return Pool(res.dice.roll_many(max(0, count + bonus), 6, purpose, roller["id"]))


def note_fumble(res: Res, combatant_id: str, roll: str, pool: Pool) -> None:
    """All ones: a maladresse, whose consequences the GM decides (rules-notes 2.2)."""
    if pool.fumble:
        res.emit("fumbled", combatant=combatant_id, roll=roll)
