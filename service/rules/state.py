"""The shape of the data every ruleset shares: a combat, its combatants, a
die roll, an event and a log entry.

TypedDicts, not classes: at run time they are the plain dicts the engine has
always passed around (and stored as JSON), so typing them costs nothing on
the hot path; mypy checks the keys. A ruleset adds its own keys to a combat
and to its combatants (turn order, wounds, ammunition...): its package's
``state.py`` types them, as TypedDicts extending these
(``SistemaCombatant(Combatant)``, ``SistemaCombat(Combat[SistemaCombatant])``).
Code shared by every ruleset reads a ``Combat[Any]``: its combatants have at
least the keys of :class:`Combatant`, and the ruleset's own keys are Any there.

Left as plain dicts: a condition (its details vary with its code, see
conditions.py), an action (its fields vary with its type and ruleset; the
schemas load it) and an event's params.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, NotRequired, TypedDict, TypeVar

# A condition on a combatant (conditions.py): code, source, start, ends, modifiers, and details of its own.
Condition = dict[str, Any]
# A loaded action: type, actor, dice, and the fields of its type.
Action = dict[str, Any]


class RngPosition(TypedDict):
    """Where the server's dice stand: the stream and the next draw of its counter."""

    stream: int
    draw: int


class DiceCommitment(TypedDict):
    """What a combat publishes of a stream's key before revealing it (dice.py)."""

    stream: int
    sha256: str


class Roll(TypedDict):
    """One die of an action, as logged. A server die says where it came from
    (``stream``, ``draw``) for the audit (docs/dice-audit.md)."""

    sides: int
    value: int
    purpose: str
    roller: str  # a combatant id, or "gm"
    source: str  # "server", or the supplier's role: "gm" or "player"
    stream: NotRequired[int]
    draw: NotRequired[int]


class Event(TypedDict):
    """A machine-readable fact; its sentence is rendered when read (events.py)."""

    code: str
    params: dict[str, Any]


class Combatant(TypedDict):
    """The keys every ruleset's combatant has; each ruleset adds its own."""

    id: str
    name: str
    side: str
    conditions: list[Condition]
    sheet: dict[str, Any]


CombatantT = TypeVar("CombatantT", bound=Combatant)


class Awaiting(TypedDict):
    """Whom the engine waits for, with the action types open to them."""

    actor: str
    actions: list[str]
    reason: NotRequired[str | None]  # why: "turn", "declare_reaction", "nobody_can_act"...


class CombatantTally(TypedDict):
    """One combatant's running totals (gm/summary.py)."""

    damage_dealt: int
    damage_taken: int
    wounds: int
    dead: bool


class Tally(TypedDict):
    """The fight's running totals, counted as each log entry is made (gm/summary.py)."""

    rolls: int
    actions: int
    rounds: NotRequired[int]  # the last round in which a combatant acted
    combatants: dict[str, CombatantTally]


class Combat(TypedDict, Generic[CombatantT]):
    """The keys every combat has, whatever its ruleset (engine.py); each
    ruleset adds its own."""

    id: str
    ruleset: str
    version: int
    status: Literal["active", "over"]
    round: int
    lang: str
    hidden_sheets: list[str]  # ids of the combatants whose sheets only the GM sees
    seed: int | None
    options: dict[str, Any]
    combatants: list[CombatantT]
    dice_keys: NotRequired[list[str]]  # hex; secret until the combat ends
    dice_commitments: NotRequired[list[DiceCommitment]]
    rng: NotRequired[RngPosition]  # the position of the server's dice
    parent: NotRequired[int]  # the version the last action was applied to
    redo: NotRequired[list[int]]  # the seqs an undo took back, the last one first to redo
    awaiting: NotRequired[list[Awaiting]]
    tally: NotRequired[Tally]
    expires_at: NotRequired[str]  # ISO 8601, set by the API when it answers


class LogEntry(TypedDict):
    """One entry of a combat's log: the action, its dice and its events."""

    seq: int
    action: Action
    rolls: list[Roll]
    events: list[Event]
    restored_state: NotRequired[Combat[Any]]  # an undo's or a restore's: the state it restored
