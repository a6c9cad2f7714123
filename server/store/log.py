"""The durable room log on Redis: one Stream per room, appended with a fence.

Keys (all under a prefix, ``kibitz:`` by default)::

    room:{id}          Stream; entry ID "{version}-0", field "e" = msgpack(event record)
    rooms:live         Set of room ids whose game is not over (rebuilt on start)
    lobby              Hash room id -> msgpack(public summary), for every node's lobby
    session:{sha256}   String msgpack({room: [seats]}) for a client session, with a TTL

The entry ID of an event *is* its room version, so the log fences itself: an append names
the version it builds on, and a Lua script refuses it atomically unless the stream ends
exactly there. Two hosts (or a stale one after a failover) can therefore never both append
version N, and a retried append cannot land twice.

The store knows rooms only as ids and opaque records (``dict``s); it never interprets them.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from typing import Any

import msgpack
import redis.asyncio as aioredis
from redis.exceptions import ResponseError

Record = dict[str, Any]

_APPEND = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local v = 0
if #last > 0 then v = tonumber(string.match(last[1][1], '^(%d+)')) end
if v ~= tonumber(ARGV[1]) then return redis.error_reply('FENCED ' .. v) end
for i = 4, #ARGV do
  v = v + 1
  redis.call('XADD', KEYS[1], v .. '-0', 'e', ARGV[i])
end
if ARGV[2] == 'live' then redis.call('SADD', KEYS[2], ARGV[3])
elseif ARGV[2] == 'over' then redis.call('SREM', KEYS[2], ARGV[3]) end
return v
"""


class StoreError(Exception):
    """Base of store failures."""


class Fenced(StoreError):
    """The append was refused: the log is not at the version the writer built on."""

    def __init__(self, room_id: str, expected: int, actual: int) -> None:
        super().__init__(f"room {room_id}: log is at version {actual}, not {expected}")
        self.room_id = room_id
        self.expected = expected
        self.actual = actual


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class Store:
    """The room log, lobby index and sessions on one Redis (``redis.asyncio``)."""

    def __init__(self, client: aioredis.Redis, *, prefix: str = "kibitz:") -> None:
        self.redis: Any = client  # responses are bytes (decode_responses=False)
        self.prefix = prefix
        self._append = client.register_script(_APPEND)

    @classmethod
    def from_url(cls, url: str, *, prefix: str = "kibitz:") -> Store:
        client = aioredis.from_url(url, decode_responses=False, health_check_interval=30)
        return cls(client, prefix=prefix)

    async def close(self) -> None:
        await self.redis.aclose()

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # -- the log ----------------------------------------------------------------------------

    async def append(
        self, room_id: str, base_version: int, records: Sequence[Record], *, status: str = ""
    ) -> int:
        """Append ``records`` after version ``base_version``; return the new version.

        ``status`` ``"live"`` adds the room to the live set, ``"over"`` removes it, in the
        same atomic step. Raises :class:`Fenced` if the log is not at ``base_version``.
        """
        args: list[Any] = [base_version, status, room_id, *(pack(r) for r in records)]
        keys = [self._k("room", room_id), self._k("rooms", "live")]
        try:
            return int(await self._append(keys=keys, args=args))
        except ResponseError as exc:
            text = str(exc)
            if text.startswith("FENCED"):
                raise Fenced(room_id, base_version, int(text.split()[1])) from None
            raise

    async def load(self, room_id: str, *, after: int = 0) -> list[Record]:
        """Every record of the room's log after version ``after``, in order."""
        out: list[Record] = []
        start = f"{after + 1}-0"
        key = self._k("room", room_id)
        while True:
            batch = await self.redis.xrange(key, min=start, max="+", count=1000)
            if not batch:
                return out
            for _entry_id, fields in batch:
                out.append(unpack(fields[b"e"]))
            last = batch[-1][0].decode()
            start = "(" + last
            if len(batch) < 1000:
                return out

    async def version(self, room_id: str) -> int:
        last = await self.redis.xrevrange(self._k("room", room_id), count=1)
        return int(last[0][0].decode().split("-")[0]) if last else 0

    async def exists(self, room_id: str) -> bool:
        return bool(await self.redis.exists(self._k("room", room_id)))

    async def live_rooms(self) -> list[str]:
        ids = await self.redis.smembers(self._k("rooms", "live"))
        return sorted(i.decode() for i in ids)

    # -- lobby ------------------------------------------------------------------------------

    async def set_summary(self, room_id: str, summary: Mapping[str, Any]) -> None:
        await self.redis.hset(self._k("lobby"), room_id, pack(dict(summary)))

    async def drop_summary(self, room_id: str) -> None:
        await self.redis.hdel(self._k("lobby"), room_id)

    async def summaries(self) -> list[Record]:
        raw = await self.redis.hgetall(self._k("lobby"))
        return [unpack(v) for v in raw.values()]

    # -- sessions ---------------------------------------------------------------------------

    @staticmethod
    def _session_key(secret: str) -> str:
        return hashlib.sha256(secret.encode()).hexdigest()

    async def save_session(self, secret: str, data: Mapping[str, Any], ttl: int) -> None:
        await self.redis.set(
            self._k("session", self._session_key(secret)), pack(dict(data)), ex=ttl
        )

    async def load_session(self, secret: str) -> Record | None:
        raw = await self.redis.get(self._k("session", self._session_key(secret)))
        return None if raw is None else unpack(raw)

    # -- health -----------------------------------------------------------------------------

    async def ping(self) -> float:
        """Round-trip time to Redis in seconds."""
        t0 = time.perf_counter()
        await self.redis.ping()
        return time.perf_counter() - t0
