"""Acting on a combat: an action (under an Idempotency-Key or not), the GM's
undo and redo, the replay of an action already applied under an
Idempotency-Key, and the GM's deletion.

Each one authorizes the caller, computes the new state with the rules
engine and commits it under the one conflict policy of ``conflicts.py``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any, cast

from ..rules.dice import KEY_BYTES
from ..rules.engine import apply_loaded, redo, redo_target, replay, undo, undo_target
from ..rules.errors import RulesError, refusal
from ..rules.events import narration_names
from ..rules.registry import get_ruleset
from ..rules.state import Combat, LogEntry
from .access import PLAYER_ROLE, Grant, authorize, digest, new_token, require_actor, require_gm
from .conflicts import write_with_retries
from .idempotency import OLDER_FORMAT, ActionApplied, KeyFence, ReplayUnavailable, RequestInFlight
from .port_errors import CombatNotFound, ReservationLost
from .ports import CombatStore, Grants, KeyedActionStore, KeyedWrite
from .views import Languages, action_result

# The record an Idempotency-Key leaves once its action is applied as log entry
# seq, whose answer shows the combat's expires_at (seq, expires_at).
KeyedRecord = Callable[[int, str], KeyedWrite]
# A combat as the store holds it (plain JSON): what a use case loads, commits and answers with.
Stored = dict[str, Any]
# Computes the new state and its log entry from the stored state and the caller's grant.
Step = Callable[[Stored, Grant], tuple[Combat[Any], LogEntry]]


@dataclass(frozen=True)
class Applied:
    """A committed write: the state after it, its log entry, the caller's grant,
    and the tokens minted for combatants who joined (id -> token, shown once).
    ``replayed``: an action applied before, shown again for a retry under the
    same Idempotency-Key (``act_once``)."""

    state: Stored
    entry: dict[str, Any]  # the log entry, as stored
    grant: Grant
    new_tokens: dict[str, str] = field(default_factory=dict)
    replayed: bool = False

    def shown(self, languages: Languages | None = None) -> dict[str, Any]:
        """The answer as the caller may see it (views.action_result), narrated in its ``languages``
        when the service speaks one, with a join's new tokens."""
        result = action_result(self.state, self.entry, self.grant.viewer, languages)
        if self.new_tokens:
            result["tokens"] = {"combatants": self.new_tokens}
        return result


class NothingToTakeBack(Exception):
    """Undo with no action since the start, or redo with nothing undone (409)."""

    def __init__(self, title: str, detail: str):
        super().__init__(detail)
        self.title = title
        self.detail = detail


def stamp_expiry(state: Combat[Any] | Stored, ttl_seconds: int) -> None:
    state["expires_at"] = _expiry(int(time.time()), ttl_seconds)


@lru_cache(maxsize=4)
def _expiry(now: int, ttl_seconds: int) -> str:
    """When a combat written in second ``now`` expires (the same text for every write of that second)."""
    expires = datetime.fromtimestamp(now, UTC) + timedelta(seconds=ttl_seconds)
    return expires.isoformat(timespec="seconds").replace("+00:00", "Z")


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
    return _act(combats, combat_id, action, token, expected_version, keyed, None)


def act_once(
    combats: KeyedActionStore,
    combat_id: str,
    action: dict[str, Any],
    token: str | None,
    fence: KeyFence,
    *,
    expected_version: int | None = None,
) -> Applied:
    """``act`` under an Idempotency-Key (``fence``), in this order:

    1. authorize: the combat and the caller's grant in one read, then the
       actor check (CombatNotFound 404, AccessDenied 401/403), before the key
       is reserved, so a refused caller leaves no record;
    2. reserve the key (``KeyFence.reserve``: RequestInFlight 409, KeyReused
       422, ReplayUnavailable 409); when the key already answered, the action
       applied then is shown again (``replayed``) as first answered: its log
       entry, the state right after it and the expiry its record kept (the
       state read in step 1 may be older than that action or newer);
    3. act on the state read in step 1 (no second read; a stale one loses the
       compare-and-set and is read again), the commit writing the key's
       answer. A reservation taken over meanwhile (ReservationLost) is
       RequestInFlight; any other failure deletes this request's reservation,
       so that a retry runs again.
    """
    state, grant = _authorized_actor(combats, combat_id, action, token)
    found = fence.reserve(combats, int(time.time()))
    if found is not None:
        if not isinstance(found, ActionApplied):
            raise ReplayUnavailable(OLDER_FORMAT)  # a record no action leaves
        return _replayed(combats, combat_id, found, state, grant)
    try:
        return _act(combats, combat_id, action, token, expected_version, fence.action_applied, (state, grant))
    except ReservationLost:
        raise RequestInFlight() from None  # another request with the key took over a stalled reservation
    except Exception:
        fence.abandon(combats)
        raise


def _authorized_actor(
    combats: CombatStore, combat_id: str, action: dict[str, Any], token: str | None
) -> tuple[Stored, Grant]:
    state, grant = authorize(combats, combat_id, token)
    require_actor(grant, action, get_ruleset(state["ruleset"]).gm_only_actions)
    return state, grant


def _act(
    combats: CombatStore,
    combat_id: str,
    action: dict[str, Any],
    token: str | None,
    expected_version: int | None,
    keyed: KeyedRecord | None,
    first: tuple[Stored, Grant] | None,
) -> Applied:
    """``act``; ``first``: the combat and grant already read and authorized, for the first attempt."""
    unused = [first] if first is not None else []

    def authorized() -> tuple[Stored, Grant]:
        return unused.pop() if unused else _authorized_actor(combats, combat_id, action, token)

    def step(state: Stored, grant: Grant) -> tuple[Combat[Any], LogEntry]:
        # The state was loaded for this attempt alone (a lost compare-and-set
        # loads it again), so the rules may change it in place rather than
        # copy it; a refused action leaves it half-changed, and unstored.
        ruleset = get_ruleset(state["ruleset"])
        return apply_loaded(
            ruleset, cast("Combat[Any]", state), ruleset.load_action(action), caller=grant.viewer, in_place=True
        )

    known, applied = _write(combats, authorized, step, expected_version, keyed)
    return Applied(
        applied.state, applied.entry, applied.grant, _mint_for_newcomers(combats, combat_id, known, applied.state)
    )


def take_back(
    combats: CombatStore, combat_id: str, token: str | None, *, expected_version: int | None = None
) -> Applied:
    """The GM's undo: the combat returns to the state before the last action."""

    def step(state: Stored, grant: Grant) -> tuple[Combat[Any], LogEntry]:
        target = undo_target(state)
        if target is None:
            raise NothingToTakeBack(
                refusal("Nothing to undo"), refusal("no action has been played since the combat began")
            )
        return undo(state, replay(*combats.snapshot_before(combat_id, target)), secrets.token_bytes(KEY_BYTES))

    return _write(combats, _as_gm(combats, combat_id, token), step, expected_version)[1]


def play_again(
    combats: CombatStore, combat_id: str, token: str | None, *, expected_version: int | None = None
) -> Applied:
    """The GM's redo: the last undone action again, with its dice."""

    def step(state: Stored, grant: Grant) -> tuple[Combat[Any], LogEntry]:
        seq = redo_target(state)
        if seq is None:
            raise NothingToTakeBack(refusal("Nothing to redo"), refusal("nothing was undone since the last action"))
        entries, _ = combats.log(combat_id, seq - 1, 1)
        return redo(state, entries[0], seq)

    return _write(combats, _as_gm(combats, combat_id, token), step, expected_version)[1]


def replayed_action(combats: CombatStore, combat_id: str, applied: ActionApplied, token: str | None) -> Applied:
    """An action applied before as log entry ``applied.seq``, as first
    answered: the entry, the state right after it (rebuilt from history when
    another version was read) and the ``expires_at`` that answer showed
    (kept in the key's record; the current one for a record of an earlier
    version, which did not keep it). A join's new tokens are not shown again."""
    current, grant = authorize(combats, combat_id, token)
    return _replayed(combats, combat_id, applied, current, grant)


def _replayed(combats: CombatStore, combat_id: str, applied: ActionApplied, current: Stored, grant: Grant) -> Applied:
    """``replayed_action``, from the ``current`` state already read and authorized."""
    seq, after = applied.seq, current
    if seq != current["version"]:
        after = {**replay(*combats.snapshot_before(combat_id, seq)), "expires_at": current.get("expires_at")}
    if applied.expires_at is not None:
        after = {**after, "expires_at": applied.expires_at}
    (entry,), _ = combats.log(combat_id, seq - 1, 1)
    return Applied(after, entry, grant, replayed=True)


def _as_gm(combats: CombatStore, combat_id: str, token: str | None) -> Callable[[], tuple[Stored, Grant]]:
    def authorized() -> tuple[Stored, Grant]:
        state, grant = authorize(combats, combat_id, token)
        require_gm(grant, refusal("undo and redo need the game master's token"))
        return state, grant

    return authorized


def _write(
    combats: CombatStore,
    authorized: Callable[[], tuple[Stored, Grant]],
    step: Step,
    expected_version: int | None,
    keyed: KeyedRecord | None = None,
) -> tuple[set[str], Applied]:
    """Load and authorize, compute with ``step`` (which may change the loaded
    state in place), compare-and-set: the ids of the combatants before and
    what was committed."""

    def load() -> tuple[int, tuple[Stored, Grant]]:
        state, grant = authorized()
        return state["version"], (state, grant)

    def write(loaded: tuple[Stored, Grant]) -> tuple[set[str], Applied]:
        state, grant = loaded
        version, known = state["version"], {c["id"] for c in state["combatants"]}
        try:
            new_state, entry = step(state, grant)
        except RulesError as error:
            error.in_combat(state["ruleset"], state.get("lang"), narration_names(state))
            raise
        stamp_expiry(new_state, combats.ttl_seconds)
        record = keyed(new_state["version"], new_state["expires_at"]) if keyed else None
        combats.commit(new_state, entry, expected_version=version, keyed=record)
        # The new state and entry, now stored: the answer serializes them as JSON.
        return known, Applied(cast(Stored, new_state), cast("dict[str, Any]", entry), grant)

    return write_with_retries(load, write, expected_version)


def _mint_for_newcomers(grants: Grants, combat_id: str, known: set[str], after: Stored) -> dict[str, str]:
    """A combatant who joined (the GM's ``join``) gets a player token, shown
    once in the answer; a replayed join does not show it again (the GM mints
    another with POST /combats/{id}/tokens)."""
    tokens: dict[str, str] = {}
    for combatant_id in (c["id"] for c in after["combatants"] if c["id"] not in known):
        token = new_token()
        grants.add_grant(combat_id, digest(token), Grant(PLAYER_ROLE, combatant_id).as_record())
        tokens[combatant_id] = token
    return tokens


def delete(combats: CombatStore, combat_id: str, token: str | None) -> None:
    """The GM deletes the combat: its state, log, records and grants, at once."""
    _, grant = authorize(combats, combat_id, token)
    require_gm(grant, refusal("deleting a combat needs the game master's token"))
    if not combats.delete(combat_id):
        raise CombatNotFound(combat_id)  # deleted (or expired) since it was read
