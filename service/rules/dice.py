"""The one dice engine.

Every die any ruleset needs comes from a :class:`DiceBox`. Every roll has an
owner, its ``roller``: the combatant whose roll it is at the table, or "gm".
The combat's dice policy says whose supplied dice (physical dice, in order)
a box takes: ``any`` hands them to every roll in order (a trusted table),
``own`` only to the rolls of the combatants the caller controls (the GM
controls all), ``server`` to none. Every other die is the server's.

The server's dice come from a keyed hash in counter mode: the die of draw
*n* of stream *s* is BLAKE2b(n as 8 big-endian bytes, key = the stream's
32-byte secret, 8-byte digest) read as a big-endian integer, rejection
sampled to the die's faces. Its outputs do not reveal the key, so nobody can
predict the next die; the combat publishes the SHA-256 of each key from the
start and reveals the keys when it ends, so anyone can recompute every
server die of the log (docs/dice-audit.md). The rules core stays pure: the
keys come from the caller's entropy (or from a seed, for reproducible runs).
The global ``random`` module is never used.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .errors import DiceNotYours, DiceSyntaxError, DieOutOfRange, Refusal, TooManyDice, UnusedDice, refusal
from .state import Combat, DiceCommitment, RngPosition, Roll
from .viewer import GM_VIEWER, Viewer

ALLOWED_SIDES = frozenset({3, 4, 6, 8, 10, 12, 20, 100})
MAX_DICE_PER_EXPRESSION = 100
MAX_DICE_PER_ACTION = 1000
MAX_MODIFIER = 1000
MAX_EXPRESSION_LENGTH = 32
_MASK64 = (1 << 64) - 1

_EXPRESSION = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+|%)\s*(?:([+-])\s*(\d+))?\s*$")
_CONSTANT = re.compile(r"^\s*([+-]?\d+)\s*$")


POLICIES = ("own", "server", "any")
OWN, SERVER_ONLY, ANY = POLICIES
DEFAULT_POLICY = OWN
SERVER = "server"  # the source of a server die; a supplied die's source is the supplier's role
KEY_BYTES = 32
_SEEDED = b"melee-seeded"  # BLAKE2b personalisation of the keys derived from a seed


def splitmix64(state: int) -> tuple[int, int]:
    """SplitMix64 (Steele, Lea & Flood 2014): returns (new state, 64 bits).

    It derives seeds (one per simulated fight, one per Monte Carlo run of the
    odds), never a combat's dice: its output reveals its state."""
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
            raise DiceSyntaxError(
                refusal("a dice expression must be a string, not {given}", given=repr(text)), field=None
            )
        if cls is DiceExpression:
            return _parsed(text)  # the rules parse the same few expressions (a weapon's damage) on every blow
        return cls._parse(text)

    @classmethod
    def _parse(cls, text: str) -> DiceExpression:
        if len(text) > MAX_EXPRESSION_LENGTH:
            # Before int(): Python refuses (ValueError) numbers of more than 4,300 digits.
            raise DiceSyntaxError(
                refusal("a dice expression has at most {limit} characters, such as 2d6+3", limit=MAX_EXPRESSION_LENGTH),
                field=None,
            )
        constant = _CONSTANT.match(text)
        if constant:
            return cls(0, 6, int(constant.group(1)))
        match = _EXPRESSION.match(text)
        if not match:
            raise DiceSyntaxError(
                refusal("'{text}' is not a dice expression such as 2d6, 1d6+3 or 1d100-5", text=text), field=None
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
            raise DiceSyntaxError(
                refusal("d{sides} is not a die Melee rolls (allowed: {allowed})", sides=self.sides, allowed=allowed),
                field=None,
            )
        if not 0 <= self.count <= MAX_DICE_PER_EXPRESSION:
            raise TooManyDice(
                refusal(
                    "{count} dice in one expression; at most {limit}", count=self.count, limit=MAX_DICE_PER_EXPRESSION
                ),
                field=None,
            )
        if abs(self.modifier) > MAX_MODIFIER:
            raise DiceSyntaxError(
                refusal("the modifier {modifier:+d} is beyond ±{limit}", modifier=self.modifier, limit=MAX_MODIFIER),
                field=None,
            )

    def plus(self, modifier: int) -> DiceExpression:
        return DiceExpression(self.count, self.sides, self.modifier + modifier)

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        sign = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{sign}"


@lru_cache(maxsize=4096)
def _parsed(text: str) -> DiceExpression:
    """An expression's parse, once per text: a frozen value; a refusal is raised again each time (never cached)."""
    return DiceExpression._parse(text)


@dataclass(frozen=True, slots=True)
class RollResult:
    expression: str
    values: tuple[int, ...]
    modifier: int

    @property
    def total(self) -> int:
        return sum(self.values) + self.modifier


def seeded_key(seed: int, stream: int) -> bytes:
    """The key of ``stream`` of a combat created with an explicit ``seed``: predictable to whoever knows the seed."""
    return hashlib.blake2b(
        stream.to_bytes(8, "big"), key=seed.to_bytes(8, "big"), person=_SEEDED, digest_size=KEY_BYTES
    ).digest()


def commitment(key: bytes) -> str:
    """What a combat publishes of a stream's key before revealing it: its SHA-256, in hex."""
    return hashlib.sha256(key).hexdigest()


def new_stream(state: Combat[Any], entropy: bytes) -> DiceCommitment:
    """Open the next stream of ``state``'s server dice and publish its commitment.

    Its key comes from ``entropy`` (32 bytes), or from the combat's seed when it
    has one. Returns the commitment ``{"stream", "sha256"}``."""
    keys = state.setdefault("dice_keys", [])
    index = len(keys)
    seed = state.get("seed")
    key = seeded_key(seed, index) if seed is not None else bytes(entropy)
    if len(key) != KEY_BYTES:
        raise ValueError(f"a dice key is {KEY_BYTES} bytes of entropy, not {len(key)}")
    keys.append(key.hex())
    published: DiceCommitment = {"stream": index, "sha256": commitment(key)}
    state["dice_commitments"] = [*state.get("dice_commitments", []), published]
    state["rng"] = {"stream": index, "draw": 0}
    return published


# Rejection keeps every face equally likely (no modulo bias): draws at or above a die's limit are thrown away.
_LIMITS = {sides: (1 << 64) - ((1 << 64) % sides) for sides in ALLOWED_SIDES}


# A draw's counter as 8 big-endian bytes, and a digest's 8 bytes as that integer (struct: cheaper than int.to_bytes).
_COUNTER = struct.Struct(">Q").pack
_BITS = struct.Struct(">Q").unpack


@lru_cache(maxsize=1024)
def _keyed(key_hex: str) -> Any:  # hashlib's blake2b type is private
    """The BLAKE2b state keyed with a stream's key, copied for each draw (keying it again costs more)."""
    return hashlib.blake2b(key=bytes.fromhex(key_hex), digest_size=8)


class DiceStream:
    """The server's dice of one stream: keyed BLAKE2b of a counter (the draw)."""

    __slots__ = ("index", "draw", "_keyed")

    def __init__(self, key: bytes | str, index: int, draw: int = 0):
        self.index = index
        self.draw = draw
        self._keyed = _keyed(key if isinstance(key, str) else key.hex())

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> DiceStream:
        position = state["rng"]
        return cls(state["dice_keys"][position["stream"]], position["stream"], position["draw"])

    def roll(self, sides: int) -> tuple[int, int]:
        """(face, the draw that gave it)."""
        limit = _LIMITS[sides]
        keyed = self._keyed
        draw = self.draw
        while True:
            hashed = keyed.copy()
            hashed.update(_COUNTER(draw))
            bits: int = _BITS(hashed.digest())[0]
            if bits < limit:
                self.draw = draw + 1
                return bits % sides + 1, draw
            draw += 1

    def position(self) -> RngPosition:
        return {"stream": self.index, "draw": self.draw}


class DiceBox:
    """Hands out the dice of one action under the combat's dice policy; records each one.

    ``supplied``: the caller's dice, in order; ``caller``: who sent them (a
    :class:`Viewer`); ``policy``: ``own``, ``server`` or ``any``;
    ``combatants``: the state's, to name a roller in a refusal.
    """

    __slots__ = ("_supplied", "_next_supplied", "_taker", "_source", "_foreign", "_combatants", "stream", "rolls")

    def __init__(
        self,
        stream: DiceStream | None,
        supplied: Sequence[int] = (),
        *,
        caller: Viewer = GM_VIEWER,
        policy: str = ANY,
        combatants: Sequence[Mapping[str, Any]] = (),
    ):
        self._supplied = list(supplied)
        self._next_supplied = 0
        self._source = "gm" if caller.gm else "player"
        if self._supplied and policy == SERVER_ONLY:
            raise DiceNotYours(
                refusal("this combat's dice policy is 'server': the server rolls every die, so send no dice"),
                field="dice",
            )
        # Who may supply a roll's die: anyone (any), the caller for its own rolls (own).
        self._taker: Callable[[str], bool] | None = caller.controls if policy == OWN and not caller.gm else None
        self._foreign: list[
            tuple[int, str, str]
        ] = []  # (next supplied index, roller, purpose) of rolls the caller may not supply
        self._combatants = combatants
        self.stream = stream
        self.rolls: list[Roll] = []

    @classmethod
    def for_state(cls, state: Mapping[str, Any], supplied: Sequence[int] = (), caller: Viewer = GM_VIEWER) -> DiceBox:
        """The box of an action on ``state``: its generator, its policy."""
        return cls(
            DiceStream.of(state),
            supplied,
            caller=caller,
            policy=state["options"].get("dice_policy", ANY),
            combatants=state["combatants"],
        )

    def roll(self, sides: int, purpose: str, roller: str) -> int:
        if sides not in ALLOWED_SIDES:
            raise DiceSyntaxError(refusal("d{sides} is not a die Melee rolls", sides=sides), field=None)
        rolls = self.rolls
        if len(rolls) >= MAX_DICE_PER_ACTION:
            raise TooManyDice(refusal("an action may roll at most {limit} dice", limit=MAX_DICE_PER_ACTION))
        index = self._next_supplied
        if index < len(self._supplied):
            if self._taker is None or self._taker(roller):
                value = self._supplied[index]
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
                    raise DieOutOfRange(
                        refusal(
                            "dice[{index}] = {given} cannot be a d{sides}: it must be 1 to {sides}",
                            index=index,
                            given=repr(value),
                            sides=sides,
                        ),
                        field=f"dice.{index}",
                    )
                self._next_supplied += 1
                roll: Roll = {
                    "sides": sides,
                    "value": value,
                    "purpose": purpose,
                    "roller": roller,
                    "source": self._source,
                }
                rolls.append(roll)
                return value
            self._foreign.append((index, roller, purpose))
        stream = self.stream
        if stream is None:  # the odds' dice paths (odds/tree.py), or a box of supplied or logged dice only
            roll = self._server_roll(sides, purpose, roller)
            rolls.append(roll)
            return roll["value"]
        # A server die, recorded with where it comes from (its stream and draw) for the audit.
        value, draw = stream.roll(sides)
        rolls.append(
            {
                "sides": sides,
                "value": value,
                "purpose": purpose,
                "roller": roller,
                "source": SERVER,
                "stream": stream.index,
                "draw": draw,
            }
        )
        return value

    def roll_many(self, count: int, sides: int, purpose: str, roller: str) -> tuple[int, ...]:
        if count > MAX_DICE_PER_EXPRESSION:
            raise TooManyDice(
                refusal("{count} dice in one roll; at most {limit}", count=count, limit=MAX_DICE_PER_EXPRESSION)
            )
        stream = self.stream
        if (
            stream is None
            or self._next_supplied < len(self._supplied)
            or sides not in ALLOWED_SIDES
            or len(self.rolls) + count > MAX_DICE_PER_ACTION
            or type(self).roll is not DiceBox.roll
        ):
            roll = self.roll  # die by die: supplied or logged dice, or a refusal at the die that causes it
            return tuple([roll(sides, purpose, roller) for _ in range(count)])
        # Only server dice (the usual case, pools of several): roll()'s server path for each, its checks made once.
        rolls, draw, index = self.rolls, stream.roll, stream.index
        values = []
        for _ in range(count):
            value, at = draw(sides)
            rolls.append(
                {
                    "sides": sides,
                    "value": value,
                    "purpose": purpose,
                    "roller": roller,
                    "source": SERVER,
                    "stream": index,
                    "draw": at,
                }
            )
            values.append(value)
        return tuple(values)

    def roll_expression(self, expression: DiceExpression | str, purpose: str, roller: str) -> RollResult:
        if isinstance(expression, str):
            expression = DiceExpression.parse(expression)
        values = self.roll_many(expression.count, expression.sides, purpose, roller)
        return RollResult(str(expression), values, expression.modifier)

    def finish(self) -> None:
        """Refuse the action if the client supplied dice the rules never took.

        A die left over is unused (422) whoever's roll it might have been meant for: under the dice policy
        ``own`` the server cannot tell an extra die from one meant for another combatant's roll, so it says
        both (the rolls it made itself because they were not the caller's to supply).
        """
        left = len(self._supplied) - self._next_supplied
        if not left:
            return
        raise UnusedDice(self._unused(left), field=f"dice.{self._next_supplied}")

    def _unused(self, left: int) -> Refusal:
        """Why ``left`` supplied dice are refused: unused, and, under the policy ``own``, whose rolls the
        server made itself because they were not the caller's to supply."""
        counts: dict[str, Any] = {"unused": left, "supplied": len(self._supplied), "taken": self._next_supplied}
        rollers = list(dict.fromkeys(roller for _, roller, _ in self._foreign))
        players = [roller for roller in rollers if roller != "gm"]
        names = {c["id"]: c["name"] for c in self._combatants if c["id"] in players}
        if players:
            return refusal(
                "{unused} of the {supplied} supplied dice {unused:was|were} not needed (the rules took {taken}); "
                "with the dice policy 'own' the server rolled the dice of {rollers} itself: only "
                "{rollers:their player|their players} or the game master {rollers:supplies|supply} them. "
                "Send only your own combatant's dice, or none",
                names=names,
                rollers=players,
                **counts,
            )
        if rollers:
            return refusal(
                "{unused} of the {supplied} supplied dice {unused:was|were} not needed (the rules took {taken}); "
                "with the dice policy 'own' the server rolled the game master's dice itself: only the game "
                "master supplies them. Send only your own combatant's dice, or none",
                **counts,
            )
        return refusal(
            "{unused} of the {supplied} supplied dice {unused:was|were} not needed (the rules took {taken}); "
            "send only the dice the rules ask for",
            **counts,
        )

    def position(self) -> RngPosition | None:
        """Where the generator stands after this action (None: the box has no stream)."""
        return self.stream.position() if self.stream is not None else None

    def _server_roll(self, sides: int, purpose: str, roller: str) -> Roll:
        """The server die of a box without a stream (``roll`` draws a stream's itself): none, but in a
        subclass that has its own (the odds' :class:`PathDice`)."""
        raise RuntimeError("this dice box has no stream: it hands out supplied or logged dice only")


class ReplayDice(DiceBox):
    """The logged rolls of an action, handed out again as they were (redo, history replay).

    A logged server die of the stream the state now draws from moves its counter
    past that die's draw, so a replayed state continues exactly as the first one did.
    """

    __slots__ = ("_logged",)

    def __init__(self, stream: DiceStream | None, logged: Sequence[Roll]):
        super().__init__(stream)
        self._logged = iter(logged)

    def roll(self, sides: int, purpose: str, roller: str) -> int:
        logged = next(self._logged, None)
        if logged is None:  # more dice than logged: the rules are not deterministic (a bug), or new rolls
            return super().roll(sides, purpose, roller)
        if logged["sides"] != sides:
            raise RuntimeError(f"a logged d{logged['sides']} ({logged['purpose']}) is replayed as a d{sides}")
        if logged["source"] == SERVER and self.stream is not None and logged.get("stream") == self.stream.index:
            self.stream.draw = max(self.stream.draw, logged["draw"] + 1)
        self.rolls.append(Roll(**logged))
        return logged["value"]
