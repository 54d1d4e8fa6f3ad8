"""Creating a combat, once: ``POST /combats``, with or without an Idempotency-Key.

The combat gets a random id (never derived from the request), its first
state from the rules engine, and a token per role, shown once: the store
keeps only their digests. Under an Idempotency-Key the creation is fenced
(``KeyFence``): a retry of a creation already made gets the same combat, as
created, and the same tokens, from a sealed record (``Sealer``); a retry
while the first is in flight, or with another body, is refused.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..rules.dice import KEY_BYTES
from ..rules.engine import create_combat
from ..rules.errors import RulesError, refusal
from ..rules.registry import RULESETS
from ..rules.schemas import LANGUAGES
from ..rules.viewer import GM_VIEWER
from .access import mint_creation_tokens
from .actions import stamp_expiry
from .idempotency import OLDER_FORMAT, CombatCreated, KeyFence, ReplayUnavailable, RequestInFlight
from .port_errors import ReservationLost
from .ports import Combats, CreationStore, Sealer
from .views import combat_view

SECRET_CHANGED = refusal("created a combat under a server secret that has changed since")


@dataclass(frozen=True)
class Created:
    """The combat as created (version 1) and its tokens: ``{"gm": ..., "combatants": {id: token}}``.
    ``replayed``: shown again for a retry under the same Idempotency-Key."""

    state: Mapping[str, Any]
    tokens: dict[str, Any]
    replayed: bool = False

    @property
    def combat(self) -> dict[str, Any]:
        """The combat as its creator, the GM, sees it, with its tokens."""
        return {**combat_view(self.state, GM_VIEWER), "tokens": self.tokens}


def create(
    combats: CreationStore,
    body: dict[str, Any],
    *,
    fence: KeyFence | None = None,
    sealer: Sealer | None = None,
    combat_id: str | None = None,
    entropy: bytes | None = None,
) -> Created:
    """Create the combat ``body`` describes (rules errors: 422, nothing stored).

    With ``fence`` (and its ``sealer``): at most once per Idempotency-Key.
    ``combat_id`` and ``entropy`` are random unless given (tests)."""
    combat_id = combat_id or uuid.uuid4().hex
    entropy = entropy if entropy is not None else secrets.token_bytes(KEY_BYTES)
    if fence is None:
        return _new(combats, body, combat_id, entropy)
    if sealer is None:
        raise ValueError("a fenced creation needs a sealer")
    found = fence.reserve(combats, int(time.time()))
    if found is not None:
        if not isinstance(found, CombatCreated):
            raise ReplayUnavailable(OLDER_FORMAT)
        return _replayed(combats, sealer, fence.key, found)
    try:
        created = _new(combats, body, combat_id, entropy)
        if not fence.creation_done(combats, combat_id, sealer.seal(fence.key, combat_id, created.tokens)):
            combats.delete(combat_id)  # its reservation was taken over: the other request creates the combat
            raise ReservationLost()
        return created
    except ReservationLost:
        raise RequestInFlight() from None
    except Exception:
        fence.abandon(combats)
        raise


def _new(combats: Combats, body: dict[str, Any], combat_id: str, entropy: bytes) -> Created:
    try:
        state, entry = create_combat(body, combat_id=combat_id, entropy=entropy)
    except RulesError as error:
        # Said in the language the body asks the combat to be in (when it names one the service speaks).
        ruleset, lang = body.get("ruleset"), body.get("lang")
        if isinstance(ruleset, str) and ruleset in RULESETS:
            error.in_combat(ruleset, lang if lang in LANGUAGES else None)
        raise
    stamp_expiry(state, combats.ttl_seconds)
    tokens, grants = mint_creation_tokens([c["id"] for c in state["combatants"]])
    combats.create(state, dict(entry), grants)
    return Created(state, tokens)


def _replayed(combats: Combats, sealer: Sealer, key: str, record: CombatCreated) -> Created:
    """The first answer: the combat as created (its first snapshot) and its tokens."""
    tokens = sealer.unseal(key, record.combat_id, record.sealed_tokens)
    if tokens is None:
        raise ReplayUnavailable(SECRET_CHANGED)
    created, _ = combats.snapshot_before(record.combat_id, 1)
    return Created(created, tokens, replayed=True)
