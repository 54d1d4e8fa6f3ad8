"""Idempotency-Key records: small strings in a hash, with their own TTL.

A combat's records are fields of its ``combat:{id}:idempotency`` hash; a
creation's record is the one field of ``creation:{digest}`` (a combat id is
random, so a retried creation cannot find its combat's keys by itself). The
record formats belong to ``service/usecases/idempotency.py``; the store only
reserves, swaps and reads them atomically (scripts.py).
"""

from __future__ import annotations

import secrets

from redis.commands.core import Script

from ..usecases.ports import KeyedWrite
from .cluster import RedisClient
from .errors import unavailable_on_failure, write_outcome_unknown
from .keys import SERVER_SECRET_KEY


def keyed_args(keyed: KeyedWrite | None) -> list[str | int]:
    return ["", "", "", 0] if keyed is None else list(keyed)


class IdempotencyRecords:
    # Set by CombatStore, which this mixin is part of.
    client: RedisClient
    _reserve: Script
    _swap: Script

    def reserve(self, key: str, field: str, record: str, now: int, stale_after: int, ttl: int) -> str | None:
        """Write ``record`` (in flight) unless another record is there (and
        not a stale reservation): None when reserved, else the record found."""
        with unavailable_on_failure():
            reserved, found = self._reserve(keys=[key], args=[field, record, now, stale_after, ttl])
        if reserved == 0:
            return None
        return found.decode() if isinstance(found, bytes) else found

    def swap(self, key: str, field: str, expected: str, record: str, ttl: int | None = None) -> bool:
        """Replace the record by ``record`` ('' deletes it) only if it is
        still ``expected``; False when another request's record is there."""
        with write_outcome_unknown():
            return bool(self._swap(keys=[key], args=[field, expected, record, "" if ttl is None else ttl]))

    def server_secret(self, held: bytes | None = None) -> bytes:
        """The deployment's generated secret, the same for every worker: the
        first one to ask stores it (SET NX), the others read it. ``held``: the
        one the caller already uses, written back (SET NX) when Redis lost it,
        rather than a new one that the other workers would not hold."""
        with unavailable_on_failure():
            self.client.set(SERVER_SECRET_KEY, (held.hex() if held else secrets.token_hex(32)), nx=True)
            stored = self.client.get(SERVER_SECRET_KEY)
        return bytes.fromhex(stored.decode() if isinstance(stored, bytes) else stored)
