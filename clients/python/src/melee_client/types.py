"""The shapes Melee sends and takes, as TypedDicts: a thin typed layer over openapi/openapi.json.

Each TypedDict here has the properties the OpenAPI document gives the matching schema, for
every ruleset (tests/clients/test_python_sdk.py fails when they drift apart). What differs
from one ruleset to another (a combatant's sheet, an action's fields, an event's params) is
a ``dict[str, Any]``: ``GET /rulesets/{id}`` gives its JSON Schema.
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

#: An action as posted to ``/combats/{id}/actions``: ``{"type", "actor", ...fields, "dice"?}``.
Action = Mapping[str, Any]
#: A creation body: ``{"ruleset", "combatants", "lang"?, "options"?, "seed"?, "dice"?}``.
CombatCreate = Mapping[str, Any]


class Awaiting(TypedDict):
    """Who the combat waits for, and which action types they may send."""

    actor: str
    actions: list[str]
    reason: str


class Roll(TypedDict):
    sides: int
    value: int
    purpose: str
    roller: str
    source: Literal["server", "gm", "player"]
    stream: NotRequired[int]
    draw: NotRequired[int]


class Event(TypedDict):
    """One event of the log: ``code`` says what happened, ``text`` says it in the combat's language."""

    code: str
    params: dict[str, Any]
    text: str


class Tokens(TypedDict):
    gm: str
    combatants: dict[str, str]


class Combat(TypedDict):
    id: str
    ruleset: str
    lang: str
    status: Literal["active", "over"]
    round: int
    version: int
    awaiting: list[Awaiting]
    combatants: list[dict[str, Any]]
    options: dict[str, Any]
    dice_commitments: list[dict[str, Any]]
    expires_at: str
    dice_secrets: NotRequired[list[dict[str, Any]]]
    seed: NotRequired[int]


class CombatRef(TypedDict):
    """What a restore answers a caller without a token of the restored combat: which combat it is."""

    id: str
    ruleset: str
    version: int


#: ``restore``'s answer: the combat as the token sees it, or only its reference (no token, or a
#: server that shows the restored combat only to the combat's own tokens).
RestoredCombat = Combat | CombatRef


class TokenInfo(TypedDict):
    """One of a combat's tokens as ``GET /combats/{id}/tokens`` lists it (never the token itself)."""

    id: str
    role: str
    combatant: str | None


class MintedToken(TokenInfo):
    """A minted token: ``token`` is shown once."""

    token: str


class CreatedCombat(Combat):
    """The creation's answer: the combat and its tokens, shown once."""

    tokens: Tokens


class ActionSummary(TypedDict):
    type: str
    actor: str
    seq: int


class ActionResult(TypedDict):
    action: ActionSummary
    rolls: list[Roll]
    events: list[Event]
    combat: Combat
    tokens: NotRequired[dict[str, Any]]


class LogEntry(TypedDict):
    seq: int
    action: dict[str, Any]
    rolls: list[Roll]
    events: list[Event]


class EventsPage(TypedDict):
    items: list[LogEntry]
    last_seq: int
    next_after: int | None
    reset: bool  # true: the reader's position is past the log's head (Redis lost entries)


class LegalParam(TypedDict):
    """One parameter of a legal action (``LegalParam`` in the OpenAPI document, whose per-ruleset
    components type ``choices`` as the action's own field): its legal values, or a free value's
    bounds, or ``keys`` (with ``total``), or ``items`` (an array's, one spec per element)."""

    required: bool
    choices: NotRequired[list[Any]]
    type: NotRequired[str]
    minimum: NotRequired[int | None]
    maximum: NotRequired[int | None]
    minLength: NotRequired[int | None]
    maxLength: NotRequired[int | None]
    keys: NotRequired[list[str]]
    total: NotRequired[int]
    items: NotRequired[list[dict[str, Any]]]
    schema: NotRequired[str]


class LegalAction(TypedDict):
    """One action type the caller may send now, with the parameters it takes (name -> spec)."""

    type: str
    params: dict[str, LegalParam]


class Options(TypedDict):
    actor: str
    version: int
    actions: list[LegalAction]


class OutcomeOdds(TypedDict):
    outcome: str
    probability: float
    fraction: NotRequired[str]
    standard_error: NotRequired[float]


class ExpectedDamage(TypedDict):
    combatant: str
    damage: float
    standard_error: NotRequired[float]


class Odds(TypedDict):
    method: Literal["exact", "monte_carlo"]
    outcomes: list[OutcomeOdds]
    expected_damage: list[ExpectedDamage]
    assumed_answers: list[dict[str, Any]]
    leaves: NotRequired[int]
    runs: NotRequired[int]
    seed: NotRequired[int]


class RulesetSummary(TypedDict):
    id: str
    name: str
    language: str
    seed: str
    summary: str


class Ruleset(TypedDict):
    """``GET /rulesets/{id}``: the sheet, options, actions (JSON Schemas), catalog, labels and example."""

    id: str
    name: str
    language: str
    seed: str
    summary: str
    actions: dict[str, Any]
    catalog: dict[str, Any]
    decided_by: dict[str, Any]
    example: dict[str, Any]
    labels: dict[str, Any]
    option_defaults: dict[str, Any]
    options: dict[str, Any]
    sheet: dict[str, Any]


def token_for(tokens: Tokens, actor: str) -> str:
    """The token an actor plays with: its own, or the game master's (for ``gm`` and anyone without one)."""
    return tokens["combatants"].get(actor, tokens["gm"])


class ProblemFieldError(TypedDict, total=False):
    pointer: str
    detail: str
