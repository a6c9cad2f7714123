"""The analysis queue in Redis: a bounded queue of games to analyse that every node's
workers serve, a lease on each job taken (a job whose taker died is taken again), the
results stored with the games, and the request counters that limit who may ask.

Keys (under the store's prefix; the queue's keys share the hash tag ``{analysis}``, so
each script touches one slot on a Redis Cluster too)::

    {analysis}:jobs     Hash room -> JSON of the request: every job queued or taken (its
                        length is the queue's size, held under the bound)
    {analysis}:queue    List of room ids waiting, oldest first
    {analysis}:taken    Sorted set room -> the time (ms, Redis's clock) its lease runs out
    {analysis}:holder   Hash room -> the taker's token (the fence of renew and finish)
    {analysis}:tries    Hash room -> how many times it was taken
    analysis:{room}     String: the result (JSON), set once (``SET NX``), beside the room
    analysis:rate:{who} String: requests in the current window, expiring with it

A job is taken by :meth:`AnalysisQueue.take`: first a job whose lease ran out (its taker
died, or its node), else the oldest waiting. The taker renews its lease while it works and
ends the job with :meth:`finish`, which only the holder may do. A job taken
:data:`MAX_TRIES` times is dropped (a game that kills every worker does not go round for
ever). The store knows games only as ids and opaque JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

#: times a job is taken before it is dropped
MAX_TRIES = 3

#: KEYS jobs, queue; ARGV room, request, bound -> position (1: first), 0 already queued or
#: taken, -1 the queue is full
ENQUEUE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
local n = redis.call('HLEN', KEYS[1])
if n >= tonumber(ARGV[3]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('RPUSH', KEYS[2], ARGV[1])
"""

#: Redis's own clock in ms (every node reads the same one: no skew between their leases)
NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

#: KEYS jobs, queue, taken, holder, tries; ARGV lease (ms), token, max tries ->
#: {room, request, tries} or nil (nothing to do); a job past its tries is dropped
TAKE = (
    NOW
    + """
while true do
  local room
  local late = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 1)
  if #late > 0 then room = late[1] else room = redis.call('LPOP', KEYS[2]) end
  if not room then return nil end
  local request = redis.call('HGET', KEYS[1], room)
  local tries = redis.call('HINCRBY', KEYS[5], room, 1)
  if request and tries <= tonumber(ARGV[3]) then
    redis.call('ZADD', KEYS[3], now + tonumber(ARGV[1]), room)
    redis.call('HSET', KEYS[4], room, ARGV[2])
    return {room, request, tries}
  end
  redis.call('ZREM', KEYS[3], room)
  redis.call('HDEL', KEYS[1], room)
  redis.call('HDEL', KEYS[4], room)
  redis.call('HDEL', KEYS[5], room)
end
"""
)

#: KEYS taken, holder; ARGV room, token, lease (ms) -> 1 renewed, 0 not the holder
RENEW = (
    NOW
    + """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[3]), ARGV[1])
return 1
"""
)

#: KEYS jobs, taken, holder, tries; ARGV room, token, retake -> 1 done, 0 not the holder.
#: retake "1": the job goes back to be taken at once (its worker failed), else it ends
FINISH = """
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[3], ARGV[1])
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[2], 0, ARGV[1])
  return 1
end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return 1
"""

#: KEYS counter; ARGV limit, window (ms) -> 0 allowed, else ms until the window ends
COUNT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n <= tonumber(ARGV[1]) then return 0 end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); left = tonumber(ARGV[2]) end
return left
"""


@dataclass(frozen=True, slots=True)
class Job:
    """A job taken: the game, its request (as queued) and how many times it was taken."""

    room: str
    request: dict[str, Any]
    tries: int


class AnalysisQueue:
    """The queue, the results and the counters on one Redis (see the module docstring).

    ``room_key(kind, room)`` is the store's key of a room's thing (``Store.rk``), so a result
    lives in the room's slot."""

    def __init__(self, redis: Any, prefix: str, room_key: Any) -> None:
        self.redis = redis
        self.prefix = prefix
        self.room_key = room_key
        tag = f"{prefix}{{analysis}}:"
        self.jobs, self.queue = tag + "jobs", tag + "queue"
        self.taken, self.holder, self.tries = tag + "taken", tag + "holder", tag + "tries"
        self._enqueue = redis.register_script(ENQUEUE)
        self._take = redis.register_script(TAKE)
        self._renew = redis.register_script(RENEW)
        self._finish = redis.register_script(FINISH)
        self._count = redis.register_script(COUNT)

    def result_key(self, room: str) -> str:
        return str(self.room_key("analysis", room))

    async def enqueue(self, room: str, request: dict[str, Any], bound: int) -> int:
        """Queue a game (:data:`ENQUEUE`'s answer: position, 0 queued already, -1 full)."""
        keys = [self.jobs, self.queue]
        return int(await self._enqueue(keys=keys, args=[room, json.dumps(request), bound]))

    async def take(self, token: str, lease_ms: int) -> Job | None:
        """The next job, leased to ``token`` for ``lease_ms`` (Redis's clock); None: none."""
        keys = [self.jobs, self.queue, self.taken, self.holder, self.tries]
        found = await self._take(keys=keys, args=[lease_ms, token, MAX_TRIES])
        if not found:
            return None
        room, request, tries = found
        return Job(_text(room), json.loads(request), int(tries))

    async def renew(self, room: str, token: str, lease_ms: int) -> bool:
        """Extend the lease of ``token``'s job by ``lease_ms`` from now (False: not its)."""
        keys = [self.taken, self.holder]
        return bool(await self._renew(keys=keys, args=[room, token, lease_ms]))

    async def finish(self, room: str, token: str, *, retake: bool = False) -> bool:
        keys = [self.jobs, self.taken, self.holder, self.tries]
        return bool(await self._finish(keys=keys, args=[room, token, "1" if retake else "0"]))

    async def size(self) -> int:
        """Jobs queued or taken."""
        return int(await self.redis.hlen(self.jobs))

    async def state(self, room: str) -> tuple[str, int | None]:
        """``("queued", position)``, ``("running", None)`` or ``("none", None)``."""
        if not await self.redis.hexists(self.jobs, room):
            return "none", None
        if await self.redis.hexists(self.holder, room):
            return "running", None
        where = await self.redis.lpos(self.queue, room)
        if where is None:  # back from a dead taker: it is taken again first
            return "queued", 1
        return "queued", int(where) + 1

    async def store(self, room: str, result: dict[str, Any]) -> bool:
        """Keep a game's result; False if one is kept already (the first stays)."""
        return bool(await self.redis.set(self.result_key(room), json.dumps(result), nx=True))

    async def result(self, room: str) -> dict[str, Any] | None:
        raw = await self.redis.get(self.result_key(room))
        return None if raw is None else dict(json.loads(raw))

    async def count(self, who: str, limit: int, window_ms: int) -> int:
        """Count one request of ``who`` in its window: 0 allowed, else ms to wait."""
        key = f"{self.prefix}analysis:rate:{who}"
        return int(await self._count(keys=[key], args=[limit, window_ms]))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
