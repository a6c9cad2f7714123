"""Accounts, login tokens and limits, ratings, game history, seeks and pairing pools in Redis.

Keys (after the deployment's prefix; ``{n}`` is a lower-cased user name):

    user:{n}            hash: name (as registered), hash, salt, bot ("0"/"1"), created
    token:{t}           the user a login token belongs to (expires)
    fail:name:{n}       failed logins of a name in the current window (expires)
    fail:ip:{ip}        failed logins from an address in the current window (expires)
    ratings:{n}         hash: category ("chess:blitz") -> rating JSON
    games:{n}           sorted set: room ids by finish time (the user's history)
    result:{room}       JSON: a rated or unrated finished game (players, result, changes)
    pairing:{room}      JSON: who was paired in the room, rated or not, the category
    seeks               hash: seek id -> seek JSON (the live seek list)
    seek:{id}:joined    hash: seat -> player JSON of a many-seat seek filling up
    pool:{game}:{tc}    hash: player key -> entry JSON (quick pairing)
    pools               set: the pools ever joined
    seeknode:{node}     a node's heartbeat (expires): seeks and pool entries of a node
                        without one are dropped by the others

Atomic steps are Lua scripts: taking a seek (only one acceptor gets it), seating a table of
pool entries (every one removed or none: two nodes never seat a player twice, and a player who
left sinks the table), and applying a
room's rating change (once per room: the script refuses when ``result:{room}`` exists, and
when a rating it was computed from has changed meanwhile).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

#: take a seek: KEYS seeks; ARGV id -> the seek JSON, or nil if gone
TAKE_SEEK = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
return raw
"""

#: join a many-seat seek: KEYS seeks, joined; ARGV id, player key, player JSON, seats.
#: -> {seek JSON, joined JSON...} once full (the seek is removed), {n joined} before,
#: nil when the seek is gone or the player is in already
JOIN_SEEK = """
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return false end
if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return false end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
local n = redis.call('HLEN', KEYS[2])
if n < tonumber(ARGV[4]) then return {tostring(n)} end
redis.call('HDEL', KEYS[1], ARGV[1])
local joined = redis.call('HVALS', KEYS[2])
redis.call('DEL', KEYS[2])
table.insert(joined, 1, raw)
return joined
"""

#: take a table of pool entries: KEYS pool; ARGV the players' keys (two or more, distinct)
#: -> their entry JSONs in that order, every one removed; nil (nothing removed) when one is
#: gone or a key repeats
TABLE = """
if #ARGV < 2 then return false end
local seen, out = {}, {}
for i, key in ipairs(ARGV) do
  if seen[key] then return false end
  seen[key] = true
  local raw = redis.call('HGET', KEYS[1], key)
  if not raw then return false end
  out[i] = raw
end
redis.call('HDEL', KEYS[1], unpack(ARGV))
return out
"""

#: apply a finished room: KEYS result:{room}, then per player ratings:{n}, games:{n};
#: ARGV result JSON, finished-at, category, n players, room id, then per player the rating
#: JSON it was computed from ("" for none) and the new one ("" when unrated).
#: -> 1 applied, 0 applied before (nothing done), -1 a rating changed meanwhile (nothing done)
APPLY = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local n = tonumber(ARGV[4])
for i = 1, n do
  local cur = redis.call('HGET', KEYS[2 * i], ARGV[3]) or ''
  if ARGV[5 + 2 * i] ~= '' and cur ~= ARGV[4 + 2 * i] then return -1 end
end
redis.call('SET', KEYS[1], ARGV[1])
for i = 1, n do
  local new = ARGV[5 + 2 * i]
  if new ~= '' then redis.call('HSET', KEYS[2 * i], ARGV[3], new) end
  redis.call('ZADD', KEYS[2 * i + 1], ARGV[2], ARGV[5])
end
return 1
"""

#: count a failed login: KEYS counter; ARGV window seconds -> the count
FAIL = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""


def _s(raw: Any) -> str:
    return raw.decode() if isinstance(raw, bytes) else str(raw)


class Stale(Exception):
    """A rating changed between reading and applying: read again."""


class AccountStore:
    """The account keys of one deployment (``redis``: a redis.asyncio client, bytes replies)."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._take_seek = redis.register_script(TAKE_SEEK)
        self._join_seek = redis.register_script(JOIN_SEEK)
        self._table = redis.register_script(TABLE)
        self._apply = redis.register_script(APPLY)
        self._fail = redis.register_script(FAIL)

    def k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # -- accounts -----------------------------------------------------------------------------

    async def create_user(self, name: str, fields: Mapping[str, str]) -> bool:
        """False if the name (case-insensitively) is taken."""
        key = self.k("user", name.lower())
        created = await self.redis.hsetnx(key, "name", name)
        if not created:
            return False
        await self.redis.hset(key, mapping=dict(fields))
        return True

    async def user(self, name: str) -> dict[str, str] | None:
        raw = await self.redis.hgetall(self.k("user", name.lower()))
        if not raw or b"hash" not in raw:
            return None
        return {_s(k): _s(v) for k, v in raw.items()}

    async def save_token(self, token: str, name: str, ttl: int) -> None:
        await self.redis.set(self.k("token", token), name.lower(), ex=ttl)

    async def token_user(self, token: str) -> str | None:
        raw = await self.redis.get(self.k("token", token))
        return None if raw is None else _s(raw)

    async def drop_token(self, token: str) -> None:
        await self.redis.delete(self.k("token", token))

    async def failures(self, keys: Sequence[str]) -> list[int]:
        raw = await self.redis.mget([self.k("fail", key) for key in keys])
        return [int(r) if r is not None else 0 for r in raw]

    async def fail(self, key: str, window: int) -> int:
        return int(await self._fail(keys=[self.k("fail", key)], args=[window]))

    async def clear_failures(self, key: str) -> None:
        await self.redis.delete(self.k("fail", key))

    # -- ratings and history ------------------------------------------------------------------

    async def ratings(self, name: str) -> dict[str, dict[str, Any]]:
        raw = await self.redis.hgetall(self.k("ratings", name.lower()))
        return {_s(k): json.loads(v) for k, v in raw.items()}

    async def rating_raw(self, names: Sequence[str], cat: str) -> list[str]:
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.hget(self.k("ratings", name.lower()), cat)
        return [_s(r) if r is not None else "" for r in await pipe.execute()]

    async def applied(self, room_id: str) -> bool:
        return bool(await self.redis.exists(self.k("result", room_id)))

    async def result(self, room_id: str) -> dict[str, Any] | None:
        """The stored result of a finished paired game (None before it was rated)."""
        raw = await self.redis.get(self.k("result", room_id))
        return None if raw is None else dict(json.loads(raw))

    async def apply_result(
        self,
        room_id: str,
        result: Mapping[str, Any],
        finished: float,
        cat: str,
        players: Sequence[tuple[str, str, str]],
    ) -> bool:
        """Store a finished game once: ``players`` are (name, old rating JSON, new JSON or
        "" when unrated). True if applied now, False if it was before; :class:`Stale` if a
        rating changed since it was read."""
        keys = [self.k("result", room_id)]
        args: list[Any] = [json.dumps(result), finished, cat, len(players), room_id]
        for name, old, new in players:
            keys += [self.k("ratings", name.lower()), self.k("games", name.lower())]
            args += [old, new]
        done = int(await self._apply(keys=keys, args=args))
        if done < 0:
            raise Stale(room_id)
        return done == 1

    async def history(self, name: str, start: int, count: int) -> tuple[int, list[Any]]:
        key = self.k("games", name.lower())
        total = int(await self.redis.zcard(key))
        ids = await self.redis.zrevrange(key, start, start + count - 1)
        if not ids:
            return total, []
        raw = await self.redis.mget([self.k("result", _s(i)) for i in ids])
        return total, [json.loads(r) for r in raw if r is not None]

    # -- pairings -----------------------------------------------------------------------------

    async def save_pairing(self, room_id: str, data: Mapping[str, Any], ttl: int) -> None:
        await self.redis.set(self.k("pairing", room_id), json.dumps(data), ex=ttl)

    async def pairing(self, room_id: str) -> dict[str, Any] | None:
        raw = await self.redis.get(self.k("pairing", room_id))
        return None if raw is None else dict(json.loads(raw))

    # -- nodes --------------------------------------------------------------------------------

    async def beat(self, node: str, ttl_ms: int) -> None:
        await self.redis.set(self.k("seeknode", node), b"1", px=ttl_ms)

    async def alive(self, nodes: Sequence[str]) -> set[str]:
        if not nodes:
            return set()
        raw = await self.redis.mget([self.k("seeknode", n) for n in nodes])
        return {n for n, r in zip(nodes, raw, strict=True) if r is not None}

    # -- seeks --------------------------------------------------------------------------------

    async def add_seek(self, seek_id: str, seek: Mapping[str, Any]) -> None:
        await self.redis.hset(self.k("seeks"), seek_id, json.dumps(seek))

    async def seeks(self) -> dict[str, dict[str, Any]]:
        raw = await self.redis.hgetall(self.k("seeks"))
        return {_s(k): json.loads(v) for k, v in raw.items()}

    async def drop_seek(self, seek_id: str) -> bool:
        await self.redis.delete(self.k("seek", seek_id, "joined"))
        return bool(await self.redis.hdel(self.k("seeks"), seek_id))

    async def take_seek(self, seek_id: str) -> dict[str, Any] | None:
        raw = await self._take_seek(keys=[self.k("seeks")], args=[seek_id])
        return None if raw is None else dict(json.loads(raw))

    async def join_seek(
        self, seek_id: str, key: str, player: Mapping[str, Any], seats: int
    ) -> int | list[dict[str, Any]] | None:
        """A many-seat seek: the joined count, or (once full) [seek, players...]."""
        raw = await self._join_seek(
            keys=[self.k("seeks"), self.k("seek", seek_id, "joined")],
            args=[seek_id, key, json.dumps(player), seats],
        )
        if raw is None:
            return None
        if len(raw) == 1:
            return int(raw[0])
        return [json.loads(r) for r in raw]

    async def pool_join(self, pool: str, key: str, entry: Mapping[str, Any]) -> None:
        await self.redis.hset(self.k("pool", pool), key, json.dumps(entry))

    async def pool_leave(self, pool: str, key: str) -> bool:
        return bool(await self.redis.hdel(self.k("pool", pool), key))

    async def pool(self, pool: str) -> dict[str, dict[str, Any]]:
        raw = await self.redis.hgetall(self.k("pool", pool))
        return {_s(k): json.loads(v) for k, v in raw.items()}

    async def table(self, pool: str, keys: Sequence[str]) -> list[dict[str, Any]] | None:
        """Take ``keys`` out of the pool together (their entries, in order), or none of them."""
        raw = await self._table(keys=[self.k("pool", pool)], args=list(keys))
        return None if raw is None else [json.loads(r) for r in raw]

    async def pair(self, pool: str, a: str, b: str) -> list[dict[str, Any]] | None:
        return await self.table(pool, [a, b])
