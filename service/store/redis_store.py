"""Combats in Redis.

Keys of one combat share the hash tag ``{<id>}`` so they live in one Redis
Cluster slot: ``combat:{<id>}:state`` (hash: version, json),
``combat:{<id>}:log`` (list of log entries, entry *n* has seq *n*) and
``combat:{<id>}:idempotency`` (hash: Idempotency-Key digest -> stored
response). Every write refreshes the TTL of all three. Appending an entry and replacing the
state is one Lua script that first compares the stored version: two writers
can never both commit on the same version, and a write is never half done.
"""

from __future__ import annotations

import json
import time

import redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError, TimeoutError as RedisTimeoutError

_CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'json', ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('RPUSH', KEYS[2], ARGV[3])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], ARGV[5], ARGV[6]) end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
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
if ARGV[6] ~= '' then redis.call('HSET', KEYS[3], ARGV[6], ARGV[7]) end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
return {0, tonumber(ARGV[2])}
"""

# Idempotency records live in one hash per combat, refreshed with it:
# "F <unix time> <fingerprint>" while a request is in flight, "D <json>" once
# answered. An in-flight record older than ARGV[4] seconds belonged to a
# worker that died before committing anything, and may be taken over.
# Returns {0, ''} when reserved, {1, record} when a record already exists.
_RESERVE = """
local found = redis.call('HGET', KEYS[1], ARGV[1])
if found then
  if string.sub(found, 1, 1) == 'D' then return {1, found} end
  local at = tonumber(string.match(found, '^F (%d+)'))
  if tonumber(ARGV[3]) - at < tonumber(ARGV[4]) then return {1, found} end
end
redis.call('HSET', KEYS[1], ARGV[1], 'F ' .. ARGV[3] .. ' ' .. ARGV[2])
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[5]) end
return {0, ''}
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


def idempotency_key(combat_id: str) -> str:
    return f"combat:{{{combat_id}}}:idempotency"


def _keys(combat_id: str) -> list[str]:
    return [state_key(combat_id), log_key(combat_id), idempotency_key(combat_id)]


def _dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _answer_args(answer: tuple[str, dict] | None) -> tuple[str, str]:
    if answer is None:
        return "", ""
    digest, response = answer
    return digest, "D " + _dumps(response)


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


READ_ATTEMPTS = 3
READ_BACKOFF_SECONDS = 0.05


def _retrying_read(read):
    """Retry a read on connection trouble, with exponential backoff.

    Only reads: a write whose answer was lost may have been applied, and the
    compare-and-set turns a blind retry into a confusing conflict.
    """
    for attempt in range(READ_ATTEMPTS):
        try:
            return read()
        except (RedisConnectionError, RedisTimeoutError):
            if attempt == READ_ATTEMPTS - 1:
                raise
            time.sleep(READ_BACKOFF_SECONDS * 2**attempt)


class CombatStore:
    def __init__(self, client: redis.Redis, ttl_seconds: int):
        self.client = client
        self.ttl_seconds = ttl_seconds
        self._create = client.register_script(_CREATE)
        self._commit = client.register_script(_COMMIT)
        self._reserve = client.register_script(_RESERVE)

    def ping(self) -> bool:
        with unavailable_on_failure():
            return bool(self.client.ping())

    def create(self, state: dict, entry: dict, answer: tuple[str, dict] | None = None) -> None:
        """Store a new combat; ``answer`` is (digest, response) for its Idempotency-Key."""
        combat_id = state["id"]
        digest, record = _answer_args(answer)
        with unavailable_on_failure():
            created = self._create(
                keys=_keys(combat_id),
                args=[state["version"], _dumps(state), _dumps(entry), self.ttl_seconds, digest, record],
            )
        if not created:
            raise VersionConflict(0)

    def load(self, combat_id: str) -> dict:
        with unavailable_on_failure():
            raw = _retrying_read(lambda: self.client.hget(state_key(combat_id), "json"))
        if raw is None:
            raise CombatNotFound(combat_id)
        return json.loads(raw)

    def commit(self, state: dict, entry: dict, expected_version: int, answer: tuple[str, dict] | None = None) -> None:
        """Replace the state and append the entry if the version is still ``expected_version``."""
        combat_id = state["id"]
        digest, record = _answer_args(answer)
        with unavailable_on_failure():
            outcome, current = self._commit(
                keys=_keys(combat_id),
                args=[expected_version, state["version"], _dumps(state), _dumps(entry), self.ttl_seconds, digest, record],
            )
        if outcome == 2:
            raise CombatNotFound(combat_id)
        if outcome == 1:
            raise VersionConflict(int(current))

    def log(self, combat_id: str, after: int, limit: int) -> tuple[list[dict], int]:
        """Entries with seq > ``after`` (at most ``limit``) and the newest seq."""
        def read():
            pipe = self.client.pipeline(transaction=False)
            pipe.exists(state_key(combat_id))
            pipe.lrange(log_key(combat_id), after, after + limit - 1)
            pipe.llen(log_key(combat_id))
            return pipe.execute()

        with unavailable_on_failure():
            exists, raw_entries, length = _retrying_read(read)
        if not exists:
            raise CombatNotFound(combat_id)
        return [json.loads(raw) for raw in raw_entries], int(length)

    def delete(self, combat_id: str) -> bool:
        with unavailable_on_failure():
            return bool(self.client.delete(*_keys(combat_id)))

    # -- Idempotency-Key records ----------------------------------------------------
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

    def remember(self, combat_id: str, digest: str, response: dict) -> None:
        """Keep the answer to a request that changed nothing (a refusal)."""
        with unavailable_on_failure():
            self.client.hset(idempotency_key(combat_id), digest, "D " + _dumps(response))

    def forget(self, combat_id: str, digest: str) -> None:
        """Drop a reservation, so that a retry is processed again."""
        with unavailable_on_failure():
            self.client.hdel(idempotency_key(combat_id), digest)
