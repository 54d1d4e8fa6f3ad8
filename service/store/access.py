"""Access grants: token digest -> who holds it, one hash per combat.

Only digests are stored: a token is shown once, when it is minted. A
revoked token's digest is also kept in the combat's revocation record
(``keys.revoked_key``), which outlives the combat, so that a snapshot taken
before the revocation does not bring the grant back (docs/security.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from redis.cluster import RedisCluster
from redis.commands.core import Script

from .. import codec
from ..usecases.port_errors import CombatNotFound, RevocationLimitReached
from . import packed
from .cluster import RedisClient
from .errors import retrying_read, unavailable_on_failure
from .keys import access_key, dumps, revoked_key, state_key

# The most tokens a combat's revocation record keeps: past it, revoking is refused.
MAX_REVOKED = 1000


def grant_args(grants: Mapping[str, Mapping[str, Any]]) -> list[str | bytes]:
    return [item for digest, grant in grants.items() for item in (digest, dumps(grant))]


class AccessGrants:
    # Set by CombatStore, which this mixin is part of.
    client: RedisClient
    ttl_seconds: int
    revocation_ttl_seconds: int
    _revoke: Script

    def load_with_grant(self, combat_id: str, digest: str | None) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The combat and what the token with this digest may do (None: nothing)."""

        def read() -> Any:  # the two replies
            on_cluster = isinstance(self.client, RedisCluster)  # (a flag: the client stays Any to mypy, cluster.py)
            if on_cluster:  # its pipeline sends each command to its slot's node
                pipe = self.client.pipeline(transaction=False)
                pipe.hget(state_key(combat_id), "json")
                pipe.hget(access_key(combat_id), digest or "-")
                return pipe.execute()
            # The same two commands, packed by packed.py (what it saves is said there).
            state, grant = state_key(combat_id).encode(), access_key(combat_id).encode()
            return packed.send(
                self.client, packed.hget(state, b"json") + packed.hget(grant, (digest or "-").encode()), 2
            )

        with unavailable_on_failure():
            raw, grant = retrying_read(read)
        if raw is None:
            raise CombatNotFound(combat_id)
        return codec.loads(raw), codec.loads(grant) if grant else None

    def holds_grant(self, combat_id: str, digest: str) -> bool:
        """Whether a token with this digest opens this combat (one HEXISTS)."""
        with unavailable_on_failure():
            return bool(retrying_read(lambda: self.client.hexists(access_key(combat_id), digest)))

    def add_grant(self, combat_id: str, digest: str, grant: Mapping[str, Any]) -> None:
        with unavailable_on_failure():
            pipe = self.client.pipeline(transaction=True)
            pipe.hset(access_key(combat_id), digest, dumps(grant))
            pipe.expire(access_key(combat_id), self.ttl_seconds)
            pipe.execute()

    def grants(self, combat_id: str) -> dict[str, dict[str, Any]]:
        with unavailable_on_failure():
            raw = retrying_read(lambda: self.client.hgetall(access_key(combat_id)))
        return {key.decode() if isinstance(key, bytes) else key: codec.loads(value) for key, value in raw.items()}

    def remove_grant(self, combat_id: str, digest: str) -> bool:
        """Revoke a token for good: its grant removed, its digest recorded (RevocationLimitReached when full)."""
        with unavailable_on_failure():  # the same revocation twice is one: a retry is harmless
            outcome = self._revoke(
                keys=[access_key(combat_id), revoked_key(combat_id)],
                args=[digest, self.revocation_ttl_seconds, MAX_REVOKED],
            )
        if outcome == 2:
            raise RevocationLimitReached(MAX_REVOKED)
        return bool(outcome)
