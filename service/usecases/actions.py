"""Acting on a combat: an action, the GM's undo and redo, the replay of an
action already applied under an Idempotency-Key, and the GM's deletion.

Each one authorizes the caller, computes the new state with the rules
engine and commits it under the one conflict policy of ``conflicts.py``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, cast

from ..rules.dice import KEY_BYTES
from ..rules.engine import apply_action, redo, redo_target, replay, undo, undo_target
from ..rules.registry import get_ruleset
from ..rules.state import Combat, LogEntry
from ..store import CombatNotFound
from ..store.idempotency import KeyedWrite
from .access import PLAYER_ROLE, Grant, authorize, digest, new_token, require_actor, require_gm
from .conflicts import write_with_retries
from .ports import CombatStore, Grants

# The record an Idempotency-Key leaves once its action is applied as log entry seq.
KeyedRecord = Callable[[int], KeyedWrite]
# A combat as the store holds it (plain JSON): what a use case loads, commits and answers with.
Stored = dict[str, Any]
# Computes the new state and its log entry from the stored state and the caller's grant.
Step = Callable[[Stored, Grant], tuple[Combat[Any], LogEntry]]


@dataclass(frozen=True)
class Applied:
    """A committed write: the state after it, its log entry, the caller's grant,
    and the tokens minted for combatants who joined (id -> token, shown once)."""

    state: Stored
    entry: dict[str, Any]  # the log entry, as stored
    grant: Grant
    new_tokens: dict[str, str] = field(default_factory=dict)


class NothingToTakeBack(Exception):
    """Undo with no action since the start, or redo with nothing undone (409)."""

    def __init__(self, title: str, detail: str):
        super().__init__(detail)
        self.title = title
        self.detail = detail


def stamp_expiry(state: Combat[Any] | Stored, ttl_seconds: int) -> None:
    expires = datetime.now(UTC) + timedelta(seconds=ttl_seconds)
    state["expires_at"] = expires.isoformat(timespec="seconds").replace("+00:00", "Z")


def act(
    combats: CombatStore,
    combat_id: str,
    action: dict[str, Any],
    token: str | None,
    *,
    expected_version: int | None = None,
    keyed: KeyedRecord | None = None,
) -> Applied:
    """Apply ``action`` for the holder of ``token``; a join mints its newcomers' tokens."""

    def authorized() -> tuple[Stored, Grant]:
        state, grant = authorize(combats, combat_id, token)
        require_actor(grant, action, get_ruleset(state["ruleset"]).gm_only_actions)
        return state, grant

    def step(state: Stored, grant: Grant) -> tuple[Combat[Any], LogEntry]:
        return apply_action(state, action, caller=grant.viewer)

    before, applied = _write(combats, authorized, step, expected_version, keyed)
    return Applied(
        applied.state, applied.entry, applied.grant, _mint_for_newcomers(combats, combat_id, before, applied.state)
    )


def take_back(
    combats: CombatStore, combat_id: str, token: str | None, *, expected_version: int | None = None
) -> Applied:
    """The GM's undo: the combat returns to the state before the last action."""

    def step(state: Stored, grant: Grant) -> tuple[Combat[Any], LogEntry]:
        target = undo_target(state)
        if target is None:
            raise NothingToTakeBack("Nothing to undo", "no action has been played since the combat began")
        return undo(state, replay(*combats.snapshot_before(combat_id, target)), secrets.token_bytes(KEY_BYTES))

    return _write(combats, _as_gm(combats, combat_id, token), step, expected_version)[1]


def play_again(
    combats: CombatStore, combat_id: str, token: str | None, *, expected_version: int | None = None
) -> Applied:
    """The GM's redo: the last undone action again, with its dice."""

    def step(state: Stored, grant: Grant) -> tuple[Combat[Any], LogEntry]:
        seq = redo_target(state)
        if seq is None:
            raise NothingToTakeBack("Nothing to redo", "nothing was undone since the last action")
        entries, _ = combats.log(combat_id, seq - 1, 1)
        return redo(state, entries[0], seq)

    return _write(combats, _as_gm(combats, combat_id, token), step, expected_version)[1]


def replayed_action(combats: CombatStore, combat_id: str, seq: int, token: str | None) -> Applied:
    """An action applied before as log entry ``seq``, as first answered: the
    entry and the state right after it (rebuilt from history when later
    actions followed; its ``expires_at`` is then the current one). A join's
    new tokens are not shown again."""
    current, grant = authorize(combats, combat_id, token)
    after = current
    if seq != current["version"]:
        after = {**replay(*combats.snapshot_before(combat_id, seq)), "expires_at": current.get("expires_at")}
    (entry,), _ = combats.log(combat_id, seq - 1, 1)
    return Applied(after, entry, grant)


def _as_gm(combats: CombatStore, combat_id: str, token: str | None) -> Callable[[], tuple[Stored, Grant]]:
    def authorized() -> tuple[Stored, Grant]:
        state, grant = authorize(combats, combat_id, token)
        require_gm(grant, "undo and redo")
        return state, grant

    return authorized


def _write(
    combats: CombatStore,
    authorized: Callable[[], tuple[Stored, Grant]],
    step: Step,
    expected_version: int | None,
    keyed: KeyedRecord | None = None,
) -> tuple[Stored, Applied]:
    """Load and authorize, compute with ``step``, compare-and-set: the state
    before and what was committed."""

    def load() -> tuple[int, tuple[Stored, Grant]]:
        state, grant = authorized()
        return state["version"], (state, grant)

    def write(loaded: tuple[Stored, Grant]) -> tuple[Stored, Applied]:
        state, grant = loaded
        new_state, entry = step(state, grant)
        stamp_expiry(new_state, combats.ttl_seconds)
        record = keyed(new_state["version"]) if keyed else None
        combats.commit(new_state, entry, expected_version=state["version"], keyed=record)
        # The new state and entry, now stored: the answer serializes them as JSON.
        return state, Applied(cast(Stored, new_state), cast("dict[str, Any]", entry), grant)

    return write_with_retries(load, write, expected_version)


def _mint_for_newcomers(grants: Grants, combat_id: str, before: Stored, after: Stored) -> dict[str, str]:
    """A combatant who joined (the GM's ``join``) gets a player token, shown
    once in the answer; a replayed join does not show it again (the GM mints
    another with POST /combats/{id}/tokens)."""
    known = {c["id"] for c in before["combatants"]}
    tokens: dict[str, str] = {}
    for combatant_id in (c["id"] for c in after["combatants"] if c["id"] not in known):
        token = new_token()
        grants.add_grant(combat_id, digest(token), Grant(PLAYER_ROLE, combatant_id).as_record())
        tokens[combatant_id] = token
    return tokens


def delete(combats: CombatStore, combat_id: str, token: str | None) -> None:
    """The GM deletes the combat: its state, log, records and grants, at once."""
    _, grant = authorize(combats, combat_id, token)
    require_gm(grant, "deleting a combat")
    if not combats.delete(combat_id):
        raise CombatNotFound(combat_id)  # deleted (or expired) since it was read
