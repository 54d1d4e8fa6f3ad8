"""The Lua scripts that make each write one atomic step.

The state hash holds ``version``, ``json`` and, for history.py, the
snapshots ``snap:<version>`` and the archived log chunks ``log:<n>``.

Every log entry is also added to the combat's stream (KEYS[5]) with its seq
as the stream id, in the same script, so a listener sees each committed
entry exactly once and in order. The stream keeps about the last
STREAM_MAXLEN entries (approximate trimming, cheap); the log list keeps
them all, and a listener further behind reads it instead.
"""

STREAM_MAXLEN = 1000

CREATE = f"""
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'json', ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('XADD', KEYS[5], 'MAXLEN', '~', {STREAM_MAXLEN}, ARGV[1] .. '-0', 'entry', ARGV[3])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], ARGV[5], ARGV[6]) end
redis.call('HSET', KEYS[1], 'snap:' .. ARGV[1], ARGV[7])
for i = 8, #ARGV, 2 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
return 1
"""

# Returns {0, version} on success, {1, current} on a version conflict and
# {2, 0} when the combat is gone (expired or deleted).
COMMIT = f"""
local current = redis.call('HGET', KEYS[1], 'version')
if not current then return {{2, 0}} end
if current ~= ARGV[1] then return {{1, tonumber(current)}} end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'json', ARGV[3])
redis.call('RPUSH', KEYS[2], ARGV[4])
redis.call('XADD', KEYS[5], 'MAXLEN', '~', {STREAM_MAXLEN}, ARGV[2] .. '-0', 'entry', ARGV[4])
if ARGV[6] ~= '' then redis.call('HSET', KEYS[3], ARGV[6], ARGV[7]) end
if ARGV[8] ~= '' then redis.call('HSET', KEYS[1], 'snap:' .. ARGV[2], ARGV[8]) end
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
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

# Idempotency records live in one hash per combat, refreshed with it:
# "F <unix time> <fingerprint>" while a request is in flight, "D <json>" once
# answered. An in-flight record older than ARGV[4] seconds belonged to a
# worker that died before committing anything, and may be taken over.
# Returns {0, ''} when reserved, {1, record} when a record already exists.
RESERVE = """
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
