"""Following a combat live: what a follower of its event stream lacks, and whether its token still opens it.

service/api/stream.py holds the connection and frames entries as
Server-Sent Events; service/adapters/fanout.py, the process's one reader, brings
the entries committed from now on. Here, with no HTTP in sight: reading from
the store what a follower has not had yet (on joining, after a gap), page by
page, each page with the state to show it by, and refusing to go on once
the follower's token no longer opens the combat (``Revoked``). Opening a
stream is an ordinary read's authorization (``access.authorize``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import Any, Protocol, runtime_checkable

from .. import codec


@runtime_checkable
class EventStreams(Protocol):
    """What the stream's readers need of the store (service/store/stream.py; the Redis store has it,
    fakeredis included)."""

    @property
    def polls_streams(self) -> bool:
        """True when ``read_streams`` cannot wait (Redis Cluster): its caller pauses between reads."""
        ...

    def entries_after(self, combat_id: str, after: int, block_ms: int | None = None) -> list[dict[str, Any]]:
        """A page of the entries with seq > ``after``, in order (CombatNotFound when the combat is gone)."""
        ...

    def load_with_grant(self, combat_id: str, digest: str | None) -> tuple[dict[str, Any], dict[str, Any] | None]: ...

    def read_streams(self, positions: dict[str, int], block_ms: int) -> dict[str, list[dict[str, Any]]]:
        """For each combat ``{id: after}``, its entries with seq > after; combats with none left out."""
        ...

    def load_with_readers(self, combat_ids: list[str]) -> dict[str, tuple[dict[str, Any], frozenset[str]]]:
        """Each combat and the digests of the tokens that open it; gone combats left out."""
        ...

    def missing(self, combat_ids: list[str]) -> set[str]: ...


def entry_tag(entry: Mapping[str, Any]) -> str:
    """A short fingerprint of a stored log entry, the same for every viewer and every read.

    A stream's event id is ``<seq>:<tag>``. After Redis lost acknowledged
    writes (a restart from an older snapshot, the second AOF ``everysec`` may
    lose, a failover to a lagging replica), new actions take seqs clients
    already saw: the entry at a client's seq then has another tag, and
    :func:`rewritten` tells it so."""
    return hashlib.blake2b(codec.dumps(entry), digest_size=4).hexdigest()


def rewritten(log: Any, combat_id: str, head: int, after: int, tag: str | None) -> bool:
    """Whether the history a reader followed up to ``after`` is no longer the combat's:
    its position is past the head, or the entry there is not the one it saw (``tag``).

    ``log`` is the store's ``log(combat_id, after, limit)`` (the Combats port)."""
    if after > head:
        return True
    if tag is None or after == 0:
        return False
    entries, _ = log.log(combat_id, after - 1, 1)
    return not entries or entries[0]["seq"] != after or entry_tag(entries[0]) != tag


class Revoked(Exception):
    """The follower's token no longer opens the combat: the stream ends."""


def still_opens(store: EventStreams, combat_id: str, token_digest: str) -> None:
    """The idle stream's periodic check; Revoked when the token no longer opens the combat."""
    if store.load_with_grant(combat_id, token_digest)[1] is None:
        raise Revoked(combat_id)


def catch_up(
    store: EventStreams, combat_id: str, token_digest: str, after: int, page: int
) -> Iterator[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Every entry after ``after``, from the store: (state to show them by, entries) per page of at most ``page``.

    Revoked before a page its token may no longer read. The caller notes
    what it sent: the next page starts after the last entry of this one.
    """
    while entries := store.entries_after(combat_id, after):
        state, grant = store.load_with_grant(combat_id, token_digest)
        if grant is None:
            raise Revoked(combat_id)
        yield state, entries
        if len(entries) < page:
            return
        after = entries[-1]["seq"]
