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
    # What made the pool, in dice: its base first (``{"ATT": 5, "CHOC": -3, "GM": -2}``); None when the
    # base alone made it. The GM's modifier (``modify``) is its "GM" term.
    terms: dict[str, int] | None = None
    gm: int = 0
    # Counted once, when the pool is made: the tour reads them a few times per pool.
    successes: int = field(init=False)
    # An empty pool is no roll at all, so it cannot fumble (rules-notes 2.2).
    fumble: bool = field(init=False)

    def __post_init__(self) -> None:
        dice = self.dice
        object.__setattr__(self, "successes", sum(map(SUCCESSES_BY_FACE.__getitem__, dice)))
        object.__setattr__(self, "fumble", bool(dice) and dice.count(1) == len(dice))

    def as_params(self) -> dict[str, Any]:
        """The dice actually rolled (``pool``), the GM's modifier among them (``gm``), and the terms."""
        return {
            "pool": len(self.dice),
            "terms": self.terms,
            "gm": self.gm,
            "dice": list(self.dice),
            "successes": self.successes,
            "fumble": self.fumble,
        }


def roll_pool(res: Res, terms: dict[str, int], purpose: str, roller: DarkEarthCombatant) -> Pool:
    """``roller`` rolls the sum of ``terms`` (base first, then what adds or takes dice), plus the GM's
    modifier in dice; a sum below 0 rolls no die.

    Opposed pools have no success of their own, so the GM's override is refused
    here (``DarkEarth.supports_override``); only the modifier applies.
    """
    bonus, _ = take_roll_adjustments(res, roller)
    made = {name: dice for index, (name, dice) in enumerate(terms.items()) if dice or not index}
    if bonus:
        made["GM"] = bonus
    count = max(0, sum(made.values()))
    return Pool(
        res.dice.roll_many(count, 6, purpose, roller["id"]),
        terms=made if len(made) > 1 else None,
        gm=bonus,
    )


def note_fumble(res: Res, combatant_id: str, roll: str, pool: Pool) -> None:
    """All ones: a maladresse, whose consequences the GM decides (rules-notes 2.2)."""
    if pool.fumble:
        res.emit("fumbled", combatant=combatant_id, roll=roll)
