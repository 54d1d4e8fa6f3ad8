"""Idempotency-Key records: one hash per combat, refreshed with it."""

from __future__ import annotations

import json

from .errors import unavailable_on_failure
from .keys import dumps, idempotency_key


def answer_args(answer: tuple[str, dict] | None) -> list[str]:
    """Script arguments that store ``(digest, response)`` with a write."""
    if answer is None:
        return ["", ""]
    digest, response = answer
    return [digest, "D " + dumps(response)]


class IdempotencyRecords:
    def reserve(self, combat_id: str, digest: str, fingerprint: str, now: int, stale_after: int = 60) -> dict | str | None:
        """Mark a request in flight. None when reserved; else the existing
        record: a dict (the stored answer) or the in-flight fingerprint."""
        with unavailable_on_failure():
            reserved, found = self._reserve(
                keys=[idempotency_key(combat_id)], args=[digest, fingerprint, now, stale_after, self.ttl_seconds]
            )
        if reserved == 0:
            return None
        found = found.decode() if isinstance(found, bytes) else found
        if found.startswith("D "):
            return json.loads(found[2:])
        return found.split(" ", 2)[2]

    def forget(self, combat_id: str, digest: str) -> None:
        """Drop a reservation, so that a retry is processed again."""
        with unavailable_on_failure():
            self.client.hdel(idempotency_key(combat_id), digest)
