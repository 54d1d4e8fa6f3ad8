"""Reading the combats' streams: new log entries, waiting for them.

The stream holds the entries the commit script added (stream id
``<seq>-0``), trimmed to about the last ``STREAM_MAXLEN``. A reader behind
the trimmed part gets its entries from the log list, which keeps them all.

``read_streams`` serves the one reader each process runs for all the
combats its listeners follow (service/api/fanout.py): on a single Redis one
blocking XREAD over all their streams; on Redis Cluster, where one command
cannot span slots, one pipelined XREAD per stream without blocking (the
caller then waits a little before the next poll).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from redis.cluster import RedisCluster

from .cluster import RedisClient
from .errors import CombatNotFound, retrying_read, unavailable_on_failure
from .keys import access_key, state_key, stream_key

MAX_ENTRIES_PER_READ = 100


class EventStreams:
    # Set by CombatStore, which this mixin is part of.
    client: RedisClient

    if TYPE_CHECKING:  # CombatStore's, which this mixin is part of

        def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict[str, Any]], int]: ...

    def entries_after(self, combat_id: str, after: int, block_ms: int | None = None) -> list[dict[str, Any]]:
        """Entries with seq > ``after``, in order; waits up to ``block_ms`` for the first one ([] then; None: no wait)."""
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
        ids = {stream_key(combat_id): combat_id for combat_id in positions}
        with unavailable_on_failure():
            if self.polls_streams:
                pipe = self.client.pipeline()
                for key, combat_id in ids.items():
                    pipe.xread({key: f"{positions[combat_id]}-0"}, count=MAX_ENTRIES_PER_READ)
                found = [answer[0] for answer in pipe.execute() if answer]
            else:
                streams = {key: f"{positions[combat_id]}-0" for key, combat_id in ids.items()}
                found = self.client.xread(streams, count=MAX_ENTRIES_PER_READ, block=block_ms) or []
        entries = {}
        for key, items in found:
            combat_id = ids[key.decode() if isinstance(key, bytes) else key]
            entries[combat_id] = self._contiguous(combat_id, positions[combat_id], items)
        return entries

    def missing(self, combat_ids: list[str]) -> set[str]:
        """Those of the combats whose stream is gone (deleted or expired)."""
        with unavailable_on_failure():
            pipe = self.client.pipeline(transaction=False)
            for combat_id in combat_ids:
                pipe.exists(stream_key(combat_id))
            return {combat_id for combat_id, exists in zip(combat_ids, pipe.execute()) if not exists}

    def load_with_grants(self, combat_ids: list[str]) -> dict[str, tuple[dict[str, Any], dict[str, dict[str, Any]]]]:
        """Each combat and every grant of it (token digest -> grant), in one round trip; gone combats left out."""

        def read() -> Any:  # the pipeline's replies
            pipe = self.client.pipeline(transaction=False)
            for combat_id in combat_ids:
                pipe.hget(state_key(combat_id), "json")
                pipe.hgetall(access_key(combat_id))
            return pipe.execute()

        with unavailable_on_failure():
            answers = retrying_read(read)
        loaded = {}
        for combat_id, raw, grants in zip(combat_ids, answers[::2], answers[1::2]):
            if raw is not None:
                loaded[combat_id] = (
                    json.loads(raw),
                    {
                        (digest.decode() if isinstance(digest, bytes) else digest): json.loads(grant)
                        for digest, grant in grants.items()
                    },
                )
        return loaded

    def _contiguous(self, combat_id: str, after: int, items: list[Any]) -> list[dict[str, Any]]:
        entries = [json.loads(fields[b"entry"]) for _, fields in items]
        if entries and entries[0]["seq"] != after + 1:
            # Trimmed past ``after``: the log list has every entry.
            entries, _ = self.log(combat_id, after, MAX_ENTRIES_PER_READ)
        return entries
