"""The one dice engine.

Every die any ruleset needs comes from a :class:`DiceBox`. A box first hands
out the values the client supplied (physical dice, in order), then rolls the
rest from a seeded generator whose whole state is one 64-bit integer kept with
the combat. A combat is therefore reproducible from its seed and its action
log, and every die is recorded with its purpose and source for the audit.

The generator is SplitMix64 (Steele, Lea & Flood 2014): tiny state, good
statistical quality, and cheap enough in pure Python. The global ``random``
module is never used.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import DiceSyntaxError, DieOutOfRange, TooManyDice, UnusedDice

ALLOWED_SIDES = frozenset({3, 4, 6, 8, 10, 12, 20, 100})
MAX_DICE_PER_EXPRESSION = 100
MAX_DICE_PER_ACTION = 1000
MAX_MODIFIER = 1000
MAX_EXPRESSION_LENGTH = 32
_MASK64 = (1 << 64) - 1

_EXPRESSION = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+|%)\s*(?:([+-])\s*(\d+))?\s*$")
_CONSTANT = re.compile(r"^\s*([+-]?\d+)\s*$")


def splitmix64(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


@dataclass(frozen=True, slots=True)
class DiceExpression:
    """``NdM+K``: ``count`` dice of ``sides`` faces plus ``modifier``."""

    count: int
    sides: int
    modifier: int = 0

    @classmethod
    def parse(cls, text: str) -> DiceExpression:
        if not isinstance(text, str):
            raise DiceSyntaxError(f"a dice expression must be a string, not {text!r}", field=None)
        if len(text) > MAX_EXPRESSION_LENGTH:
            # Before int(): Python refuses (ValueError) numbers of more than 4,300 digits.
            raise DiceSyntaxError(f"a dice expression has at most {MAX_EXPRESSION_LENGTH} characters, such as 2d6+3", field=None)
        constant = _CONSTANT.match(text)
        if constant:
            return cls(0, 6, int(constant.group(1)))
        match = _EXPRESSION.match(text)
        if not match:
            raise DiceSyntaxError(
                f"{text!r} is not a dice expression such as 2d6, 1d6+3 or 1d100-5", field=None
            )
        count = int(match.group(1) or 1)
        sides = 100 if match.group(2) == "%" else int(match.group(2))
        modifier = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        expression = cls(count, sides, modifier)
        expression.check()
        return expression

    def check(self) -> None:
        if self.sides not in ALLOWED_SIDES:
            allowed = ", ".join(f"d{s}" for s in sorted(ALLOWED_SIDES))
            raise DiceSyntaxError(f"d{self.sides} is not a die Melee rolls (allowed: {allowed})", field=None)
        if not 0 <= self.count <= MAX_DICE_PER_EXPRESSION:
            raise TooManyDice(
                f"{self.count} dice in one expression; at most {MAX_DICE_PER_EXPRESSION}", field=None
            )
        if abs(self.modifier) > MAX_MODIFIER:
            raise DiceSyntaxError(f"the modifier {self.modifier:+d} is beyond ±{MAX_MODIFIER}", field=None)

    def plus(self, modifier: int) -> DiceExpression:
        return DiceExpression(self.count, self.sides, self.modifier + modifier)

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        sign = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{sign}"


@dataclass(frozen=True, slots=True)
class RollResult:
    expression: str
    values: tuple[int, ...]
    modifier: int

    @property
    def total(self) -> int:
        return sum(self.values) + self.modifier


class DiceBox:
    """Hands out dice: the client's first, then seeded rolls; records each one."""

    __slots__ = ("_supplied", "_next_supplied", "rng_state", "rolls")

    def __init__(self, rng_state: int, supplied: list[int] | tuple[int, ...] = ()):
        self._supplied = list(supplied)
        self._next_supplied = 0
        self.rng_state = rng_state & _MASK64
        self.rolls: list[dict] = []

    def roll(self, sides: int, purpose: str) -> int:
        if sides not in ALLOWED_SIDES:
            raise DiceSyntaxError(f"d{sides} is not a die Melee rolls", field=None)
        if len(self.rolls) >= MAX_DICE_PER_ACTION:
            raise TooManyDice(f"an action may roll at most {MAX_DICE_PER_ACTION} dice")
        if self._next_supplied < len(self._supplied):
            index = self._next_supplied
            value = self._supplied[index]
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
                raise DieOutOfRange(
                    f"dice[{index}] = {value!r} cannot be a d{sides} ({purpose}): it must be 1 to {sides}",
                    field=f"dice.{index}",
                )
            self._next_supplied += 1
            source = "client"
        else:
            value = self._draw(sides)
            source = "server"
        self.rolls.append({"sides": sides, "value": value, "purpose": purpose, "source": source})
        return value

    def roll_many(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
        if count > MAX_DICE_PER_EXPRESSION:
            raise TooManyDice(f"{count} dice in one roll; at most {MAX_DICE_PER_EXPRESSION}")
        return tuple(self.roll(sides, purpose) for _ in range(count))

    def roll_expression(self, expression: DiceExpression | str, purpose: str) -> RollResult:
        if isinstance(expression, str):
            expression = DiceExpression.parse(expression)
        values = self.roll_many(expression.count, expression.sides, purpose)
        return RollResult(str(expression), values, expression.modifier)

    def finish(self) -> None:
        """Refuse the action if the client supplied dice the rules never needed."""
        left = len(self._supplied) - self._next_supplied
        if left:
            raise UnusedDice(
                f"{left} supplied dice were not needed (the action used {self._next_supplied}); "
                "send only the dice the rules ask for",
                field=f"dice.{self._next_supplied}",
            )

    def _draw(self, sides: int) -> int:
        # Rejection keeps every face equally likely (no modulo bias).
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            self.rng_state, bits = splitmix64(self.rng_state)
            if bits < limit:
                return bits % sides + 1
