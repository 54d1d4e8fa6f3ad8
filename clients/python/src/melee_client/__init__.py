"""melee-client: the Python SDK of Melee, the rules-aware combat resolution API.

``Melee`` (sync) and ``AsyncMelee`` (asyncio) offer the same operations; refusals raise
``MeleeProblem`` (RFC 9457); ``types`` has the shapes of the answers.
"""

from ._common import RetryPolicy
from ._version import __version__
from .aio import AsyncMelee, AsyncSubscription
from .client import Melee, Subscription
from .errors import MeleeProblem, MeleeStreamClosed
from .types import (
    Action,
    ActionResult,
    Awaiting,
    Combat,
    CombatCreate,
    CombatRef,
    CreatedCombat,
    Event,
    EventsPage,
    LegalAction,
    LegalParam,
    LogEntry,
    MintedToken,
    Odds,
    Options,
    RestoredCombat,
    Roll,
    Ruleset,
    RulesetSummary,
    TokenInfo,
    Tokens,
    token_for,
)

__all__ = [
    "Action",
    "ActionResult",
    "AsyncMelee",
    "AsyncSubscription",
    "Awaiting",
    "Combat",
    "CombatCreate",
    "CombatRef",
    "CreatedCombat",
    "Event",
    "EventsPage",
    "LegalAction",
    "LegalParam",
    "LogEntry",
    "Melee",
    "MeleeProblem",
    "MeleeStreamClosed",
    "MintedToken",
    "Odds",
    "Options",
    "RestoredCombat",
    "RetryPolicy",
    "Roll",
    "Ruleset",
    "RulesetSummary",
    "Subscription",
    "TokenInfo",
    "Tokens",
    "__version__",
    "token_for",
]
