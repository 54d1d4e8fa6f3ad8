"""Every outcome of the dice, depth-first, each with its probability.

The engine is pure, so the same action can be resolved again and again.
A :class:`PathDice` box hands out the server's dice from a *path* (one face
per die, in the order the rules roll them); a die past the end of the path
gets face 1 and extends it. After each run the path moves on like an
odometer: the last die that is not at its highest face goes up by one and
every die after it is forgotten, to be rolled (as 1) again by the next run.
The rules may roll different dice after different faces; only the prefix
that produced them is ever kept, so each leaf of the tree is visited once.
A leaf's probability is the product of ``1/sides`` over its dice.

A branch less likely than ``1/max_leaves`` stops the exploration: the tree
is too large (or infinite: exploding dice) to enumerate, and the caller
falls back to Monte Carlo. Checking it at every die, not at the end of a
run, stops an exploding die before the rules' own cap on dice per action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from ..dice import ANY, DiceBox
from ..errors import InvalidAction
from ..state import Roll
from ..viewer import Viewer


class TooManyLeaves(InvalidAction):
    """The tree has more leaves than the cap: use Monte Carlo instead (422 when exact odds were asked for)."""

    def __init__(self, detail: str):
        super().__init__(f"{detail}: too many for exact odds; ask for method 'auto' or 'monte_carlo'", field="method")


class DicePath:
    """The faces of the branch being explored, shared by every box of one run."""

    def __init__(self, max_leaves: int):
        self.faces: list[list[int]] = []  # [face, sides] per die
        self.depth = 0
        self.width = 1  # product of the sides drawn so far in this run
        self.max_leaves = max_leaves

    def draw(self, sides: int) -> int:
        self.width *= sides
        if self.width > self.max_leaves:
            raise TooManyLeaves(f"a branch of the dice is less likely than 1 in {self.max_leaves}")
        if self.depth < len(self.faces):
            face, known = self.faces[self.depth]
            if known != sides:  # the rules are not deterministic given the dice: a bug
                raise RuntimeError(f"die {self.depth} was a d{known}, now a d{sides}")
        else:
            face = 1
            self.faces.append([face, sides])
        self.depth += 1
        return face

    def mark(self) -> int:
        return self.depth

    def rewind(self, mark: int) -> None:
        """Forget the dice drawn since ``mark`` (by an attempt the rules refused)."""
        for _, sides in self.faces[mark : self.depth]:
            self.width //= sides
        del self.faces[mark:]
        self.depth = mark

    def box(self, state: Mapping[str, Any], supplied: Sequence[int], caller: Viewer) -> DiceBox:
        return PathDice(state, supplied, caller, self)

    def probability(self) -> Fraction:
        probability = Fraction(1)
        for _, sides in self.faces[: self.depth]:
            probability /= sides
        return probability

    def advance(self) -> bool:
        """Move to the next branch; False when every branch was visited."""
        del self.faces[self.depth :]
        while self.faces and self.faces[-1][0] == self.faces[-1][1]:
            self.faces.pop()
        if not self.faces:
            return False
        self.faces[-1][0] += 1
        self.depth, self.width = 0, 1
        return True


class PathDice(DiceBox):
    """A dice box whose server dice come from a :class:`DicePath`."""

    __slots__ = ("path",)

    def __init__(self, state: Mapping[str, Any], supplied: Sequence[int], caller: Viewer, path: DicePath):
        # No stream: the combat's own generator is never drawn from (nor moved) by the odds.
        super().__init__(
            None,
            supplied,
            caller=caller,
            policy=state["options"].get("dice_policy", ANY),
            combatants=state["combatants"],
        )
        self.path = path

    def _server_roll(self, sides: int, purpose: str, roller: str) -> Roll:
        return {
            "sides": sides,
            "value": self.path.draw(sides),
            "purpose": purpose,
            "roller": roller,
            "source": "server",
        }


T = TypeVar("T")


def leaves(run: Callable[[DicePath], T], max_leaves: int) -> Iterator[tuple[Fraction, T]]:
    """``(probability, run(path))`` for every leaf; TooManyLeaves past ``max_leaves``."""
    path = DicePath(max_leaves)
    count = 0
    while True:
        result = run(path)
        count += 1
        if count > max_leaves:
            raise TooManyLeaves(f"more than {max_leaves} outcomes of the dice")
        yield path.probability(), result
        if not path.advance():
            return
