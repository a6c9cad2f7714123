"""The durable room log on Redis: one Stream per room, appended with a fence.

Keys (all under a prefix, ``kibitz:`` by default)::

    room:{id}          Stream; entry ID "{version}-0", field "e" = msgpack(event record)
    lease:{id}         String: the node id hosting the room, with a TTL (renewed by the host)
    rooms:live         Set of room ids whose game is not over (rebuilt on start)
    lobby              Hash room id -> msgpack(public summary), for every node's lobby
    session:{sha256}   String msgpack({room: [seats]}) for a client session, with a TTL

The entry ID of an event *is* its room version, so the log fences itself: an append names
the version it builds on, and a Lua script refuses it atomically unless the stream ends
exactly there. Two hosts (or a stale one after a failover) can therefore never both append
version N, and a retried append cannot land twice.

An append may also name the node that makes it: then the script refuses it unless that
node holds the room's lease, so a host that lost its lease (paused, partitioned) and wakes
up can never write again — the second fence, besides the version.

The store knows rooms only as ids and opaque records (``dict``s); it never interprets them.
"""

from __future__ import annotations

import functools
import hashlib
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import hiredis
import msgpack
import ormsgpack
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .pipe import LostReply, Pipe, Unsent
from .scripts import ACQUIRE as _ACQUIRE
from .scripts import ACQUIRE_MANY as _ACQUIRE_MANY
from .scripts import APPEND as _APPEND
from .scripts import RELEASE as _RELEASE
from .scripts import RENEW as _RENEW

Record = dict[str, Any]
T = TypeVar("T")


class StoreError(Exception):
    """Base of store failures."""


class NotHost(StoreError):
    """The append was refused: the appending node does not hold the room's lease."""


class Fenced(StoreError):
    """The append was refused: the log is not at the version the writer built on."""

    def __init__(self, room_id: str, expected: int, actual: int) -> None:
        super().__init__(f"room {room_id}: log is at version {actual}, not {expected}")
        self.room_id = room_id
        self.expected = expected
        self.actual = actual


_PACKERS = threading.local()
_NON_STR_KEYS = ormsgpack.OPT_NON_STR_KEYS


def pack(obj: Any) -> bytes:
    """``msgpack.packb(obj, use_bin_type=True)``: the same bytes (``tests/store/test_pack.py``
    checks them against msgpack's own), written by ormsgpack, 3-4x faster on a room's delta
    (a node packs every delta, reply and log record it sends). What ormsgpack refuses (a
    string with a lone surrogate, an int over 64 bits) goes to msgpack's packer, which
    refuses it with its own error, as before."""
    try:
        return ormsgpack.packb(obj, option=_NON_STR_KEYS)
    except TypeError:
        pass
    try:  # one packer per thread: a new one allocates a 256 KiB buffer
        packer = _PACKERS.packer
    except AttributeError:
        packer = _PACKERS.packer = msgpack.Packer(use_bin_type=True)
    return packer.pack(obj)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def idempotent_read(fn: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
    """Retry a read once on a fresh connection when its connection broke: after a Redis
    restart the pool's old connections fail once each. Reads only — a retried write could
    land twice, so writes are never retried here."""

    @functools.wraps(fn)
    async def read(*args: Any, **kwargs: Any) -> T:
        try:
            return await fn(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError):
            return await fn(*args, **kwargs)

    return read


class Unreplicated(StoreError):
    """The append is in the primary's log, but no replica confirmed it in time (durability
    ``replica``): it stands unless the primary dies before a replica copies it."""

    def __init__(self, room_id: str, version: int) -> None:
        super().__init__(f"room {room_id}: version {version} is not on a replica yet")
        self.room_id = room_id
        self.version = version


class Unknown(StoreError):
    """The write may or may not have happened (the reply was lost): look before answering."""


def append_refused(exc: Exception, room_id: str, base_version: int) -> Exception:
    """The error the append script's refusal stands for. Any other error reply (Redis out
    of memory; a log whose entries were deleted by hand, where the first ``XADD`` fails)
    came before anything was written: a :class:`StoreError`, nothing appended."""
    text = str(exc)
    if text.startswith("FENCED"):
        return Fenced(room_id, base_version, int(text.split()[1]))
    if text.startswith("NOTHOST"):
        return NotHost(f"room {room_id}: this node does not hold the lease")
    return StoreError(f"room {room_id}: not appended: {text}")


class Store:
    """The room log, lobby index and sessions on one Redis.

    The hot path — log appends and cross-node notifications — goes through one
    :class:`~server.store.pipe.Pipe` (group commit: one write per loop iteration for every
    room's moves); everything else through ``redis.asyncio`` (``self.redis``).
    """

    #: a Redis Cluster (:class:`~server.store.cluster.ClusterStore`) or one Redis
    cluster = False

    def __init__(
        self,
        client: Any,
        *,
        prefix: str = "kibitz:",
        pipe: Pipe | None = None,
        durability: str = "local",
        wait_ms: int = 1000,
    ) -> None:
        if durability not in ("local", "replica"):
            raise ValueError(f"durability must be 'local' or 'replica', not {durability!r}")
        self.redis: Any = client  # responses are bytes (decode_responses=False)
        self.prefix = prefix
        #: accounts, seeks and ratings (one hash tag on a cluster: their scripts stay atomic)
        self.accounts_prefix = prefix
        self.pipe = pipe
        #: ``local``: acknowledged once in the primary; ``replica``: once a replica has it
        self.durability = durability
        self.wait_ms = wait_ms
        self.url: str | None = None
        self._append = client.register_script(_APPEND)
        self._acquire = client.register_script(_ACQUIRE)
        self._acquire_many = client.register_script(_ACQUIRE_MANY)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)
        self._append_sha = hashlib.sha1(_APPEND.encode()).hexdigest()
        self._acquire_sha = hashlib.sha1(_ACQUIRE.encode()).hexdigest()

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        prefix: str = "kibitz:",
        max_connections: int = 64,
        durability: str = "local",
        wait_ms: int = 1000,
    ) -> Store:
        """A store on ``url``: appends on a pipelined connection of their own; other requests
        share ``max_connections`` pooled connections, waiting (up to 10 s) for a free one
        rather than failing under load."""
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=max_connections, timeout=10, health_check_interval=30
        )
        client = aioredis.Redis(connection_pool=pool, decode_responses=False)
        store = cls(client, prefix=prefix, pipe=Pipe(url), durability=durability, wait_ms=wait_ms)
        store.url = url
        return store

    async def close(self) -> None:
        if self.pipe is not None:
            await self.pipe.close()
        await self.redis.aclose()

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def rk(self, kind: str, room_id: str) -> str:
        """The key of one of a room's things (``room``, ``lease``, ``chat``, ``present``,
        ``seated``); on a Redis Cluster it carries the hash tag ``{room_id}``, so every key
        of a room lives in one slot (:class:`~server.store.cluster.ClusterStore`)."""
        return f"{self.prefix}{kind}:{room_id}"

    # -- the log ----------------------------------------------------------------------------

    async def append(
        self,
        room_id: str,
        base_version: int,
        records: Sequence[Record],
        *,
        status: str = "",
        node: str = "",
    ) -> int:
        """Append ``records`` after version ``base_version``; return the new version.

        ``status`` ``"live"`` adds the room to the live set, ``"over"`` removes it, in the
        same atomic step. Raises :class:`Fenced` if the log is not at ``base_version``, and
        :class:`NotHost` if ``node`` is given and does not hold the room's lease.
        """
        args: list[Any] = [base_version, status, room_id, node, *(pack(r) for r in records)]
        keys = [self.rk("room", room_id), self._k("rooms", "live"), self.rk("lease", room_id)]
        try:
            if self.pipe is None:
                if self.durability == "replica":
                    raise StoreError("durability 'replica' needs the pipelined connection")
                return int(await self._append(keys=keys, args=args))
            version = int(await self._pipe_script(_APPEND, self._append_sha, keys, args))
            # on the same connection, after the append: its write is in what WAIT counts
            replicated = self.durability != "replica" or int(
                await self.pipe.call("WAIT", 1, self.wait_ms)
            )
            if not replicated:
                raise Unreplicated(room_id, version)
            return version
        except (ResponseError, hiredis.ReplyError) as exc:
            raise append_refused(exc, room_id, base_version) from None
        except Unsent as exc:
            raise StoreError(f"room {room_id}: not appended: {exc}") from None
        except LostReply as exc:
            raise Unknown(f"room {room_id}: the append's reply was lost: {exc}") from None

    async def _pipe_script(
        self, script: str, sha: str, keys: Sequence[str], args: Sequence[Any]
    ) -> Any:
        assert self.pipe is not None
        try:
            return await self.pipe.call("EVALSHA", sha, len(keys), *keys, *args)
        except hiredis.ReplyError as exc:
            if not str(exc).startswith("NOSCRIPT"):
                raise
        # the script cache is empty (a restarted or flushed Redis): it did not run; load it
        return await self.pipe.call("EVAL", script, len(keys), *keys, *args)

    async def _piped(self, *args: Any, read: bool) -> Any:
        """One command on the pipelined connection: no pool to wait for (a burst of new
        connections, seats and rooms is one write a loop iteration, like the appends), and
        its failures as :class:`StoreError`. A ``read`` is tried once more when the
        connection broke (it changes nothing); a write whose reply was lost is not — the
        caller answers ``unavailable`` and the client tries again (every write here is
        idempotent: a session, a lobby entry, a lease that is ours)."""
        assert self.pipe is not None
        for attempt in (1, 2):
            try:
                return await self.pipe.call(*args)
            except hiredis.ReplyError as exc:
                raise StoreError(f"{args[0]}: {exc}") from None
            except (Unsent, LostReply) as exc:
                if not read or attempt == 2:
                    raise StoreError(f"{args[0]}: {exc}") from None
        raise AssertionError("unreachable")

    def publish_nowait(self, channel: str, data: bytes) -> None:
        """PUBLISH on the pipelined connection, with the next batch; nobody waits for it."""
        if self.pipe is None:
            raise RuntimeError("publish_nowait needs the pipelined connection")
        self.pipe.send_nowait("PUBLISH", self.channel(channel), data)

    @idempotent_read
    async def load(self, room_id: str, *, after: int = 0) -> list[Record]:
        """Every record of the room's log after version ``after``, in order."""
        out: list[Record] = []
        start = f"{after + 1}-0"
        key = self.rk("room", room_id)
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

    @idempotent_read
    async def version(self, room_id: str) -> int:
        last = await self.redis.xrevrange(self.rk("room", room_id), count=1)
        return int(last[0][0].decode().split("-")[0]) if last else 0

    @idempotent_read
    async def exists(self, room_id: str) -> bool:
        if self.pipe is not None:
            return bool(await self._piped("EXISTS", self.rk("room", room_id), read=True))
        return bool(await self.redis.exists(self.rk("room", room_id)))

    @idempotent_read
    async def live_rooms(self) -> list[str]:
        ids = await self.redis.smembers(self._k("rooms", "live"))
        return sorted(i.decode() for i in ids)

    # -- leases -----------------------------------------------------------------------------

    async def acquire(self, room_id: str, node: str, ttl_ms: int) -> bool:
        """Take the room's lease if it is free (or already ours, then extend it)."""
        if self.pipe is not None:
            keys = [self.rk("lease", room_id)]
            try:
                got = await self._pipe_script(_ACQUIRE, self._acquire_sha, keys, [node, ttl_ms])
            except (hiredis.ReplyError, Unsent, LostReply) as exc:  # a lease taken lapses
                raise StoreError(f"acquire {room_id}: {exc}") from None
            return bool(got)
        return bool(await self._acquire(keys=[self.rk("lease", room_id)], args=[node, ttl_ms]))

    async def acquire_many(self, room_ids: Sequence[str], node: str, ttl_ms: int) -> list[str]:
        """Take every lease of ``room_ids`` that is free or ours (one script call); return
        the ids now leased to ``node``."""
        if not room_ids:
            return []
        keys = [self.rk("lease", r) for r in room_ids]
        got = await self._acquire_many(keys=keys, args=[node, ttl_ms])
        return [r for r, ok in zip(room_ids, got, strict=True) if ok]

    async def load_many(self, room_ids: Sequence[str]) -> dict[str, list[Record]]:
        """Whole logs of several rooms in one pipelined round trip (rooms of up to 1,000
        events; longer logs are completed one by one)."""
        pipe = self.redis.pipeline(transaction=False)
        for room_id in room_ids:
            pipe.xrange(self.rk("room", room_id), min="-", max="+", count=1000)
        out: dict[str, list[Record]] = {}
        for room_id, batch in zip(room_ids, await pipe.execute(), strict=True):
            records = [unpack(fields[b"e"]) for _entry, fields in batch]
            if len(batch) == 1000:
                records.extend(await self.load(room_id, after=len(records)))
            out[room_id] = records
        return out

    async def renew(self, room_ids: Sequence[str], node: str, ttl_ms: int) -> list[str]:
        """Extend our leases; return the ids of rooms whose lease we no longer hold."""
        if not room_ids:
            return []
        keys = [self.rk("lease", r) for r in room_ids]
        held = await self._renew(keys=keys, args=[node, ttl_ms])
        return [r for r, ok in zip(room_ids, held, strict=True) if not ok]

    async def release(self, room_id: str, node: str) -> None:
        await self._release(keys=[self.rk("lease", room_id)], args=[node])

    @idempotent_read
    async def holders(self, room_ids: Sequence[str]) -> list[str | None]:
        if not room_ids:
            return []
        keys = [self.rk("lease", r) for r in room_ids]
        if self.pipe is not None:
            raw = await self._piped("MGET", *keys, read=True)
        else:
            raw = await self.redis.mget(keys)
        return [None if v is None else v.decode() for v in raw]

    # -- pub/sub ------------------------------------------------------------------------------

    def channel(self, name: str) -> str:
        return self._k("chan", name)

    async def publish(self, channel: str, data: bytes) -> int:
        return int(await self.redis.publish(self.channel(channel), data))

    def pubsub(self) -> Any:
        return self.redis.pubsub(ignore_subscribe_messages=True)

    async def numsub(self, channel: str) -> int:
        """How many connections subscribe to ``channel`` (its full name)."""
        counts = await self.redis.pubsub_numsub(channel)
        return int(counts[0][1]) if counts else 0

    # -- lobby ------------------------------------------------------------------------------

    async def set_summary(self, room_id: str, summary: Mapping[str, Any]) -> None:
        if self.pipe is not None:
            await self._piped("HSET", self._k("lobby"), room_id, pack(dict(summary)), read=False)
            return
        await self.redis.hset(self._k("lobby"), room_id, pack(dict(summary)))

    async def delete_room(self, room_id: str, node: str) -> None:
        """Remove a room for good (an expired waiting room): its log, lobby entry and live
        mark, and its lease if ``node`` holds it."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.delete(self.rk("room", room_id))
        pipe.srem(self._k("rooms", "live"), room_id)
        pipe.hdel(self._k("lobby"), room_id)
        pipe.delete(self.rk("present", room_id))
        pipe.delete(self.rk("seated", room_id))
        await pipe.execute()
        await self.release(room_id, node)

    async def set_summaries(self, summaries: Mapping[str, Mapping[str, Any]]) -> None:
        """Several lobby entries in one command."""
        if self.pipe is not None and summaries:
            flat = [x for r, v in summaries.items() for x in (r, pack(dict(v)))]
            await self._piped("HSET", self._k("lobby"), *flat, read=False)
            return
        await self.redis.hset(
            self._k("lobby"), mapping={r: pack(dict(s)) for r, s in summaries.items()}
        )

    async def touch_presence(
        self, room_ids: Sequence[str], ttl_s: int, seated: Sequence[str] = ()
    ) -> None:
        """Mark ``room_ids`` as having somebody connected (a seat or a spectator on some
        node) for ``ttl_s`` seconds, and ``seated`` as having a player connected to a seat
        (``seated:{room}``); nodes touch the rooms their connections listen to."""
        if not room_ids and not seated:
            return
        pipe = self.redis.pipeline(transaction=False)
        for room_id in room_ids:
            pipe.set(self.rk("present", room_id), 1, ex=ttl_s)
        for room_id in seated:
            pipe.set(self.rk("seated", room_id), 1, ex=ttl_s)
        await pipe.execute()

    @idempotent_read
    async def seated(self, room_ids: Sequence[str]) -> list[bool]:
        """For each room, whether some node had a player connected to one of its seats
        lately (a game somebody attends, not only watches)."""
        if not room_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for room_id in room_ids:
            pipe.exists(self.rk("seated", room_id))
        return [bool(n) for n in await pipe.execute()]

    @idempotent_read
    async def present(self, room_ids: Sequence[str]) -> list[bool]:
        """For each room, whether some node touched its presence lately."""
        if not room_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for room_id in room_ids:
            pipe.exists(self.rk("present", room_id))
        return [bool(n) for n in await pipe.execute()]

    async def drop_summary(self, room_id: str) -> None:
        if self.pipe is not None:
            await self._piped("HDEL", self._k("lobby"), room_id, read=False)
            return
        await self.redis.hdel(self._k("lobby"), room_id)

    @idempotent_read
    async def summaries(self) -> list[Record]:
        raw = await self.redis.hgetall(self._k("lobby"))
        return [unpack(v) for v in raw.values()]

    # -- sessions ---------------------------------------------------------------------------

    @staticmethod
    def _session_key(secret: str) -> str:
        return hashlib.sha256(secret.encode()).hexdigest()

    async def save_session(self, secret: str, data: Mapping[str, Any], ttl: int) -> None:
        if self.pipe is not None:
            key = self._k("session", self._session_key(secret))
            await self._piped("SET", key, pack(dict(data)), "EX", ttl, read=False)
            return
        await self.redis.set(
            self._k("session", self._session_key(secret)), pack(dict(data)), ex=ttl
        )

    @idempotent_read
    async def load_session(self, secret: str) -> Record | None:
        key = self._k("session", self._session_key(secret))
        if self.pipe is not None:
            raw = await self._piped("GET", key, read=True)
        else:
            raw = await self.redis.get(key)
        return None if raw is None else unpack(raw)

    # -- health -----------------------------------------------------------------------------

    async def ping(self) -> float:
        """Round-trip time to Redis in seconds."""
        t0 = time.perf_counter()
        await self.redis.ping()
        return time.perf_counter() - t0
