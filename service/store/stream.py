"""Reading the combat's stream: new log entries, waiting for them.

The stream holds the entries the commit script added (stream id
``<seq>-0``), trimmed to about the last ``STREAM_MAXLEN``. A reader behind
the trimmed part gets its entries from the log list, which keeps them all.
"""

from __future__ import annotations

import json

from .errors import CombatNotFound, unavailable_on_failure
from .keys import stream_key

MAX_ENTRIES_PER_READ = 100


class EventStreams:
    def entries_after(self, combat_id: str, after: int, block_ms: int) -> list[dict]:
        """Entries with seq > ``after``, in order; waits up to ``block_ms`` for the first one ([] then)."""
        with unavailable_on_failure():
            found = self.client.xread({stream_key(combat_id): f"{after}-0"}, count=MAX_ENTRIES_PER_READ, block=block_ms)
            # Nothing new: the combat may be gone (deleted or expired; its stream
            # goes with it). One EXISTS per idle wait tells listeners at once.
            if not found and not self.client.exists(stream_key(combat_id)):
                raise CombatNotFound(combat_id)
        if not found:
            return []
        _, items = found[0]
        entries = [json.loads(fields[b"entry"]) for _, fields in items]
        if entries and entries[0]["seq"] != after + 1:
            # Trimmed past ``after``: the log list has every entry.
            entries, _ = self.log(combat_id, after, MAX_ENTRIES_PER_READ)
        return entries
