"""A combat's history stays cheap to read however long the fight.

- **Snapshots**: the state at creation and every ``SNAPSHOT_EVERY`` versions
  is kept, zlib-compressed, as field ``snap:<version>`` of the state hash
  (written by the commit script itself, atomically with the version). The
  state at any version is the newest snapshot at or before it plus the
  entries after it replayed (``engine.replay``): fewer than
  ``SNAPSHOT_EVERY`` near the present, fewer than ``CHUNK`` in archived history.
- **Archived log**: the log is a list where entry *n* sits at index *n - 1*.
  Once a chunk of ``CHUNK`` entries is older than the newest full chunk, it
  is compressed into field ``log:<chunk>`` of the state hash and its list
  items become empty strings (a few bytes each), so the list keeps its
  indexes and ``GET /events?after=`` pages over the whole log exactly as
  before: an archived entry is read back whole from its chunk. The chunk's
  snapshots go too, but for the one at its start.

docs/performance.md has the measured bytes and times.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Mapping
from typing import Any

from redis.commands.core import Script

from .. import codec
from ..usecases.port_errors import CombatNotFound
from .cluster import RedisClient
from .errors import retrying_read, unavailable_on_failure
from .keys import dumps, log_key, state_key

SNAPSHOT_EVERY = 20
CHUNK = 100  # a multiple of SNAPSHOT_EVERY
log = logging.getLogger(__name__)


def pack(value: object) -> bytes:
    return zlib.compress(dumps(value), 6)


def unpack(raw: bytes) -> Any:
    return codec.loads(zlib.decompress(raw))


def snapshot_arg(state: Mapping[str, Any]) -> bytes | str:
    """The commit script's snapshot argument: the packed state, or '' (none due)."""
    version = state["version"]
    return pack(state) if version == 1 or version % SNAPSHOT_EVERY == 0 else ""


def chunk_of(seq: int) -> int:
    return (seq - 1) // CHUNK


class History:
    # Set by CombatStore, which this mixin is part of.
    client: RedisClient
    _archive: Script

    def archive_due(self, combat_id: str, version: int) -> None:
        """After a commit: archive the chunk that just left the tail, if any.

        Best effort: a chunk left unarchived (Redis trouble) only costs memory;
        the log reads the same either way.
        """
        if version % CHUNK or version < 2 * CHUNK:
            return
        chunk = version // CHUNK - 2
        first, last = chunk * CHUNK, (chunk + 1) * CHUNK - 1
        # Versions first+1..last+1 are the chunk's; keep the snapshot at its start.
        dropped = [f"snap:{v}" for v in range(first + SNAPSHOT_EVERY, last + 2, SNAPSHOT_EVERY) if v % CHUNK]
        try:
            with unavailable_on_failure():
                raw = self.client.lrange(log_key(combat_id), first, last)
                if len(raw) != CHUNK or not all(raw):
                    return
                entries = [codec.loads(item) for item in raw]
                self._archive(
                    keys=[state_key(combat_id), log_key(combat_id)],
                    args=[first, last, f"log:{chunk}", pack(entries), *dropped],
                )
        except Exception:
            log.warning("could not archive chunk %s of combat %s", chunk, combat_id, exc_info=True)

    def read_log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int]:
        """Entries with seq > ``after`` (at most ``limit``), archived or not, and the newest seq."""
        chunks = list(range(chunk_of(after + 1), chunk_of(after + limit) + 1))
        fields = [f"log:{chunk}" for chunk in chunks]

        def read() -> Any:  # the pipeline's replies
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(state_key(combat_id))
            pipe.lrange(log_key(combat_id), after, after + limit - 1)
            pipe.llen(log_key(combat_id))
            pipe.hmget(state_key(combat_id), fields)
            return pipe.execute()

        with unavailable_on_failure():
            exists, raw_entries, length, packed = retrying_read(read)
        if not exists:
            raise CombatNotFound(combat_id)
        archived = {chunk: unpack(blob) for chunk, blob in zip(chunks, packed, strict=True) if blob}
        entries = []
        for seq, raw in enumerate(raw_entries, start=after + 1):
            if raw:
                entries.append(codec.loads(raw))
            else:
                chunk = chunk_of(seq)
                entries.append(archived[chunk][seq - 1 - chunk * CHUNK])
        return entries, int(length)

    def snapshot_before(self, combat_id: str, seq: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The newest snapshot at or before version ``seq`` and the entries after it, up to ``seq``.

        ``engine.replay(snapshot, entries)`` is then the state at ``seq``.
        """
        candidates = [max(1, seq // SNAPSHOT_EVERY * SNAPSHOT_EVERY), max(1, seq // CHUNK * CHUNK)]
        with unavailable_on_failure():
            blobs = retrying_read(lambda: self.client.hmget(state_key(combat_id), [f"snap:{at}" for at in candidates]))
        found = [(at, blob) for at, blob in zip(candidates, blobs, strict=True) if blob is not None]
        if not found:
            raise CombatNotFound(combat_id)
        at, blob = found[0]
        entries, _ = self.read_log(combat_id, at, seq - at) if seq > at else ([], 0)
        return unpack(blob), entries
