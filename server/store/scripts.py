"""The Lua scripts of the room store (:mod:`.log`): each runs atomically in Redis.

An error reply is a code, a space and a message (``NOTHOST the lease ...``, ``FENCED 7``):
Redis 7 puts ``ERR`` before a reply of one word, Redis 6 does not.

* ``APPEND`` — the fenced append: refused (``NOTHOST ...``) unless the named node holds the
  room's lease, and (``FENCED v``) unless the stream ends exactly at the version it builds
  on; it also adds the room to, or removes it from, the live set. A log's entries are
  versions 1, 2, 3, ... (their stream ids ``v-0``), written by this script only and never
  deleted one by one, so its length is its version (``XLEN``, O(1), rather than reading the
  last entry back); were an entry ever deleted, the ``XADD`` of an id not above the last
  would fail the append rather than leave a gap.
* ``ACQUIRE`` / ``ACQUIRE_MANY`` — take a lease if it is free or already ours.
* ``RENEW`` — extend the leases we still hold; ``RELEASE`` — drop ours.
"""

APPEND = """
if ARGV[4] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[4] then
  return redis.error_reply('NOTHOST the lease is not ours')
end
local v = redis.call('XLEN', KEYS[1])
if v ~= tonumber(ARGV[1]) then return redis.error_reply('FENCED ' .. v) end
for i = 5, #ARGV do
  v = v + 1
  redis.call('XADD', KEYS[1], v .. '-0', 'e', ARGV[i])
end
if ARGV[2] == 'live' then redis.call('SADD', KEYS[2], ARGV[3])
elseif ARGV[2] == 'over' then redis.call('SREM', KEYS[2], ARGV[3]) end
return v
"""


ACQUIRE = """
local cur = redis.call('GET', KEYS[1])
if cur == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
elseif cur == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

ACQUIRE_MANY = """
local out = {}
for i, key in ipairs(KEYS) do
  local cur = redis.call('GET', key)
  if cur == false or cur == ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
"""
