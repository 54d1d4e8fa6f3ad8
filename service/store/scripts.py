"""The Lua scripts that make each write one atomic step.

The state hash holds ``version``, ``json`` and, for history.py, the
snapshots ``snap:<version>`` and the archived log chunks ``log:<n>``.

Every log entry is also added to the combat's stream (KEYS[5]) with its seq
as the stream id, in the same script, so a listener sees each committed
entry exactly once and in order. The stream keeps about the last
STREAM_MAXLEN entries (approximate trimming, cheap); the log list keeps
them all, and a listener further behind reads it instead.
"""

STREAM_MAXLEN = 100

CREATE = f"""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'json', ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[5], 'MAXLEN', '~', {STREAM_MAXLEN}, ARGV[1] .. '-0', 'entry', ARGV[3])
redis.call('HSET', KEYS[1], 'snap:' .. ARGV[1], ARGV[5])
for i = 6, #ARGV, 2 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
for i = 1, #KEYS do
  if i ~= 3 then redis.call('EXPIRE', KEYS[i], ARGV[4]) end
end
return 1
"""

# Returns {0, version} on success, {1, current} on a version conflict,
# {2, 0} when the combat is gone (expired or deleted), {3, current} when the
# new version would pass the cap on actions (ARGV[11]) and {4, current} when
# the request's Idempotency-Key reservation is no longer the one this
# request made (ARGV[7], in KEYS[3] field ARGV[6]): a worker whose write
# reached Redis late, after its reservation was released or taken over,
# must not apply the action a second time.
# ARGV: expected version, new version, state, entry, combat TTL, key digest
# (or ''), own reservation, answer record, idempotency TTL, snapshot (or ''),
# highest version allowed.
COMMIT = f"""
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return {{2, 0}} end
if current ~= ARGV[1] then return {{1, tonumber(current)}} end
if tonumber(ARGV[2]) > tonumber(ARGV[11]) then return {{3, tonumber(current)}} end
if ARGV[6] ~= '' and redis.call('HGET', KEYS[3], ARGV[6]) ~= ARGV[7] then return {{4, tonumber(current)}} end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'json', ARGV[3])
redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('XADD', KEYS[5], 'MAXLEN', '~', {STREAM_MAXLEN}, ARGV[2] .. '-0', 'entry', ARGV[4])
if ARGV[10] ~= '' then redis.call('HSET', KEYS[1], 'snap:' .. ARGV[2], ARGV[10]) end
for i = 1, #KEYS do
  if i ~= 3 then redis.call('EXPIRE', KEYS[i], ARGV[5]) end
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[6], ARGV[8])
  redis.call('EXPIRE', KEYS[3], ARGV[9])
end
return {{0, tonumber(ARGV[2])}}
"""

# Archives one chunk of the log (history.py): the chunk, compressed, becomes
# a field of the state hash and its entries in the list become empty
# strings, so that list index n - 1 still holds entry n. ARGV: first index,
# last index, chunk field, compressed chunk, then the snapshot fields to
# drop. Returns 0 if already archived or gone.
ARCHIVE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[3]) == 1 then return 0 end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do redis.call('LSET', KEYS[2], i, '') end
for i = 5, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
return 1
"""

# Idempotency-Key records: field ARGV[1] of hash KEYS[1] (a combat's
# records, or one creation's). "F <fingerprint> <unix time> <nonce>" while
# a request is in flight; anything else is an answer (idempotency.py has
# the formats). An in-flight record older than ARGV[4] seconds (or of an
# older format, without its time there) belonged to a
# worker that died or stalled; it may be taken over, and the fenced commit
# above then refuses that worker's late write. The hash expires ARGV[5]
# seconds after its last reservation or answer.
# Returns {0, ''} when reserved (record ARGV[2]), {1, record} when one exists.
RESERVE = """
local found = redis.call('HGET', KEYS[1], ARGV[1])
if found then
  if string.sub(found, 1, 2) ~= 'F ' then return {1, found} end
  local at = tonumber(string.match(found, '^F %S+ (%d+) ')) or 0
  if tonumber(ARGV[3]) - at < tonumber(ARGV[4]) then return {1, found} end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return {0, ''}
"""

# Compare-and-swap of one record: field ARGV[1] of KEYS[1] becomes ARGV[3]
# (or is deleted when ARGV[3] is '') only if it still is ARGV[2], this
# request's own reservation. A clean-up or an answer that reaches Redis late
# can then never overwrite what another request wrote since. ARGV[4]: the
# hash's new TTL ('' to keep it). Returns 1 if swapped, else 0.
SWAP = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
end
if ARGV[4] ~= '' then redis.call('EXPIRE', KEYS[1], ARGV[4]) end
return 1
"""

# A whole combat, read in one step (a snapshot: snapshots.py): the state
# hash, the log list and the grants, flattened as HGETALL and LRANGE give
# them; 0 when the combat is gone.
EXPORT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return {redis.call('HGETALL', KEYS[1]), redis.call('LRANGE', KEYS[2], 0, -1), redis.call('HGETALL', KEYS[4])}
"""

# A combat written back whole from a snapshot, unless one with its id is
# live (returns 0, nothing written). KEYS: the combat's, then its
# revocation record (REVOKE): a grant of a token revoked since is not
# written back. ARGV: version, state, combat TTL, the
# number of state-hash fields (snapshots, archived chunks), the number of
# log items, the seq of the first entry to put in the stream; then the
# fields (name, value), the log items ('' for an archived entry), and the
# grants (digest, grant). Returns 1.
IMPORT = f"""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'json', ARGV[2])
local fields, items, first = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local at = 7
for _ = 1, fields do
  redis.call('HSET', KEYS[1], ARGV[at], ARGV[at + 1])
  at = at + 2
end
local log_at = at
for _ = 1, items do
  redis.call('RPUSH', KEYS[2], ARGV[at])
  at = at + 1
end
for seq = first, items do
  redis.call('XADD', KEYS[5], 'MAXLEN', '~', {STREAM_MAXLEN}, seq .. '-0', 'entry', ARGV[log_at + seq - 1])
end
while at < #ARGV do
  if redis.call('SISMEMBER', KEYS[6], ARGV[at]) == 0 then redis.call('HSET', KEYS[4], ARGV[at], ARGV[at + 1]) end
  at = at + 2
end
for i = 1, 5 do
  if i ~= 3 then redis.call('EXPIRE', KEYS[i], ARGV[3]) end
end
return 1
"""

# A token revoked: its grant (field ARGV[1] of KEYS[1]) removed, and its
# digest added to the combat's revocation record (KEYS[2], a set outliving
# the combat: ARGV[2] seconds after the last revocation), which IMPORT
# reads. Returns 1 (removed), 0 (no such grant: recorded all the same) or
# 2 when the record already holds ARGV[3] digests (nothing done).
REVOKE = """
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) and redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then
  return 2
end
local removed = redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return removed
"""
