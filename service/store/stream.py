"""Reading the combats' streams: new log entries, waiting for them.

The stream holds the entries the commit script added (stream id
``<seq>-0``), trimmed to about the last ``STREAM_MAXLEN``. A reader behind
the trimmed part gets its entries from the log list, which keeps them all.

``read_streams`` serves the one reader each process runs for all the
combats its listeners follow (service/adapters/fanout.py): on a single Redis one
blocking XREAD over all their streams; on Redis Cluster, where one command
cannot span slots, one pipelined XREAD per stream without blocking (the
caller then waits a little before the next poll).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from redis.cluster import RedisCluster

from .. import codec
from ..usecases.port_errors import CombatNotFound
from . import packed as resp
from .cluster import RedisClient
from .errors import retrying_read, unavailable_on_failure
from .keys import access_key, state_key, stream_key

MAX_ENTRIES_PER_READ = 100


class EventStreams:
    # Set by CombatStore, which this mixin is part of.
    client: RedisClient

    if TYPE_CHECKING:  # CombatStore's, which this mixin is part of

        def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int]: ...

    def entries_after(self, combat_id: str, after: int, block_ms: int | None = None) -> list[dict[str, Any]]:
        """Entries with seq > ``after``, in order; waits up to ``block_ms`` for the first one
        ([] then; None: no wait)."""
        with unavailable_on_failure():
            found = self.client.xread({stream_key(combat_id): f"{after}-0"}, count=MAX_ENTRIES_PER_READ, block=block_ms)
            # Nothing new: the combat may be gone (deleted or expired; its stream
            # goes with it). One EXISTS per idle wait tells listeners at once.
            if not found and not self.client.exists(stream_key(combat_id)):
                raise CombatNotFound(combat_id)
        if not found:
            return []
        return self._contiguous(combat_id, after, found[0][1])

    @property
    def polls_streams(self) -> bool:
        """True on Redis Cluster: ``read_streams`` does not block, its caller must pause between reads."""
        return isinstance(self.client, RedisCluster)

    def read_streams(self, positions: dict[str, int], block_ms: int) -> dict[str, list[dict[str, Any]]]:
        """For each combat ``{id: after}``, its entries with seq > after (combats with none left out).

        On a single Redis, waits up to ``block_ms`` for the first entry of any of them.
        """
        if not positions:
            return {}
        with unavailable_on_failure():
            if self.polls_streams:
                ids = {stream_key(combat_id): combat_id for combat_id in positions}
                pipe = self.client.pipeline()
                for key, combat_id in ids.items():
                    pipe.xread({key: f"{positions[combat_id]}-0"}, count=MAX_ENTRIES_PER_READ)
                found = [(ids[_text(answer[0][0])], answer[0][1]) for answer in pipe.execute() if answer]
            else:
                found = self._xread_all(positions, block_ms)
        return {combat_id: self._contiguous(combat_id, positions[combat_id], items) for combat_id, items in found}

    def _xread_all(self, positions: dict[str, int], block_ms: int) -> list[tuple[str, list[Any]]]:
        """One ``XREAD COUNT .. BLOCK .. STREAMS <every key> <every id>``, packed by packed.py: [(combat id, items)].

        Each stream's key and position is encoded once, while its combat is
        followed and until it moves (packed.py says what this saves).
        """
        packed = self.__dict__.get("_packed_positions", {})
        # combat id -> (its stream's key, after, both as command arguments); only the combats followed now.
        packed = self._packed_positions = {
            combat_id: known
            if (known := packed.get(combat_id)) is not None and known[1] == after
            else (stream_key(combat_id), after, resp.bulk(stream_key(combat_id).encode()), resp.bulk(b"%d-0" % after))
            for combat_id, after in positions.items()
        }
        combats = {key: combat_id for combat_id, (key, _, _, _) in packed.items()}
        known = packed.values()
        command = resp.xread(MAX_ENTRIES_PER_READ, block_ms, [k[2] for k in known], [k[3] for k in known])
        reply = resp.send(self.client, command, 1)[0]
        if not reply:
            return []
        # RESP2: [[key, [[id, [field, value, ...]], ...]], ...]; RESP3: {key: [...]}.
        return [(combats[_text(key)], items) for key, items in (reply.items() if isinstance(reply, dict) else reply)]

    def missing(self, combat_ids: list[str]) -> set[str]:
        """Those of the combats whose stream is gone (deleted or expired)."""
        with unavailable_on_failure():
            pipe = self.client.pipeline(transaction=False)
            for combat_id in combat_ids:
                pipe.exists(stream_key(combat_id))
            return {combat_id for combat_id, exists in zip(combat_ids, pipe.execute(), strict=True) if not exists}

    def load_with_readers(self, combat_ids: list[str]) -> dict[str, tuple[dict[str, Any], frozenset[str]]]:
        """Each combat and the digests of the tokens that open it, in one round trip; gone combats left out.

        The stream reader's one load per batch: its listeners only ask whether
        their token still opens the combat, so the grants are not parsed.
        """

        def read() -> Any:  # the pipeline's replies
            if self.polls_streams:  # Redis Cluster: its pipeline sends each command to its slot's node
                pipe = self.client.pipeline(transaction=False)
                for combat_id in combat_ids:
                    pipe.hget(state_key(combat_id), "json")
                    pipe.hkeys(access_key(combat_id))
                return pipe.execute()
            # The same pipeline, packed by packed.py.
            command = b"".join(
                resp.hget_hkeys(state_key(combat_id).encode(), b"json", access_key(combat_id).encode())
                for combat_id in combat_ids
            )
            return resp.send(self.client, command, 2 * len(combat_ids))

        with unavailable_on_failure():
            answers = retrying_read(read)
        return {
            combat_id: (codec.loads(raw), frozenset(map(_text, digests)))
            for combat_id, raw, digests in zip(combat_ids, answers[::2], answers[1::2], strict=True)
            if raw is not None
        }

    def _contiguous(self, combat_id: str, after: int, items: list[Any]) -> list[dict[str, Any]]:
        entries = [codec.loads(_entry_field(fields)) for _, fields in items]
        if entries and entries[0]["seq"] != after + 1:
            # Trimmed past ``after``: the log list has every entry.
            entries, _ = self.log(combat_id, after, MAX_ENTRIES_PER_READ)
        return entries


def _text(key: bytes | str) -> str:
    return key.decode() if isinstance(key, bytes) else key


def _entry_field(fields: dict[Any, Any] | list[Any]) -> bytes | str:
    """The ``entry`` field of a stream item: a dict as redis-py gives it, or the raw [field, value, ...] list."""
    if isinstance(fields, dict):
        found = fields[b"entry"] if b"entry" in fields else fields["entry"]
    else:
        found = fields[fields.index(b"entry") + 1] if b"entry" in fields else fields[fields.index("entry") + 1]
    value: bytes | str = found
    return value
