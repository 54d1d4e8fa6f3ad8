"""Combats in Redis.

Keys of one combat share the hash tag ``{<id>}`` so they live in one Redis
Cluster slot: ``combat:{<id>}:state`` (hash: version, json) and
``combat:{<id>}:log`` (list of log entries, entry *n* has seq *n*). Every
write refreshes the TTL of both keys. Appending an entry and replacing the
state is one Lua script that first compares the stored version: two writers
can never both commit on the same version, and a write is never half done.
"""

from __future__ import annotations

import json
import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, TimeoutError as RedisTimeoutError

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'json', ARGV[2])
redis.call('DEL', KEYS[2])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return 1
"""

# Returns {0, version} on success, {1, current} on a version conflict and
# {2, 0} when the combat is gone (expired or deleted).
_COMMIT = """
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return {2, 0} end
if current ~= ARGV[1] then return {1, tonumber(current)} end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'json', ARGV[3])
redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return {0, tonumber(ARGV[2])}
"""


class StoreUnavailable(Exception):
    """Redis did not answer; the request may be retried later."""


class CombatNotFound(Exception):
    pass


class VersionConflict(Exception):
    def __init__(self, current: int):
        super().__init__(f"the combat is at version {current}")
        self.current = current


def state_key(combat_id: str) -> str:
    return f"combat:{{{combat_id}}}:state"


def log_key(combat_id: str) -> str:
    return f"combat:{{{combat_id}}}:log"


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class unavailable_on_failure:
    """Turn Redis connection failures into :class:`StoreUnavailable`."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if isinstance(error, (RedisConnectionError, RedisTimeoutError)):
            raise StoreUnavailable(str(error)) from error
        if isinstance(error, RedisError) and "LOADING" in str(error):
            raise StoreUnavailable(str(error)) from error
        return False


class CombatStore:
    def __init__(self, client: redis.Redis, ttl_seconds: int):
        self.client = client
        self.ttl_seconds = ttl_seconds
        self._create = client.register_script(_CREATE)
        self._commit = client.register_script(_COMMIT)

    def ping(self) -> bool:
        with unavailable_on_failure():
            return bool(self.client.ping())

    def create(self, state: dict, entry: dict) -> None:
        combat_id = state["id"]
        with unavailable_on_failure():
            created = self._create(
                keys=[state_key(combat_id), log_key(combat_id)],
                args=[state["version"], _dumps(state), _dumps(entry), self.ttl_seconds],
            )
        if not created:
            raise VersionConflict(0)

    def load(self, combat_id: str) -> dict:
        with unavailable_on_failure():
            raw = self.client.hget(state_key(combat_id), "json")
        if raw is None:
            raise CombatNotFound(combat_id)
        return json.loads(raw)

    def commit(self, state: dict, entry: dict, expected_version: int) -> None:
        combat_id = state["id"]
        with unavailable_on_failure():
            outcome, current = self._commit(
                keys=[state_key(combat_id), log_key(combat_id)],
                args=[expected_version, state["version"], _dumps(state), _dumps(entry), self.ttl_seconds],
            )
        if outcome == 2:
            raise CombatNotFound(combat_id)
        if outcome == 1:
            raise VersionConflict(int(current))

    def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict], int]:
        """Entries with seq > ``after`` (at most ``limit``) and the newest seq."""
        with unavailable_on_failure():
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(state_key(combat_id))
            pipe.lrange(log_key(combat_id), after, after + limit - 1)
            pipe.llen(log_key(combat_id))
            exists, raw_entries, length = pipe.execute()
        if not exists:
            raise CombatNotFound(combat_id)
        return [json.loads(raw) for raw in raw_entries], int(length)

    def delete(self, combat_id: str) -> bool:
        with unavailable_on_failure():
            return bool(self.client.delete(state_key(combat_id), log_key(combat_id)))
