"""The store on a Redis Cluster (``kibitz serve --redis-cluster redis://HOST:PORT``).

Everything of one room carries the hash tag ``{ROOM_ID}`` (``room:{id}``, ``lease:{id}``,
``chat:{id}``, ``present:{id}``, ``seated:{id}``), so the append script, the lease scripts
and every other command on a room touch one slot; rooms spread over the primaries by their
ids. The rest is laid out so that no command or script crosses slots:

* the live-room set is one key, written *outside* the append script: a room joins it before
  its first event is appended (a crash between leaves an empty live entry, which a node
  taking the room over releases) and leaves it after its last (a crash between leaves a
  finished room live, whose game-end hooks run again, idempotently);
* the lobby is one hash and sessions one key each: single-key commands;
* accounts, seeks, pools and ratings share the hash tag ``{accounts}``
  (:attr:`Store.accounts_prefix`): their scripts (a seek taken once, a game rated once)
  stay atomic on one primary;
* leases are acquired and renewed per slot (one script call per slot);
* cross-node messages are classic pub/sub, which a cluster delivers to subscribers on every
  node; each node subscribes on one cluster node of its choice and moves to another when
  that one fails (:class:`NodePubSub`).

An append goes to the primary of its slot on one connection of that primary, followed there
by ``WAIT 1`` when durability is ``replica``. A connection that cannot be opened, ``MOVED``,
``ASK``, ``TRYAGAIN`` and ``CLUSTERDOWN`` mean the script did not run: the slot map is
refreshed and the append tried again for a few seconds (a failover). A connection lost after
the script was sent raises :class:`~server.store.log.Unknown`: the hub then looks in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Sequence
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterPipeline, RedisCluster
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, RedisClusterException, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .log import (
    _ACQUIRE_MANY,
    _APPEND,
    _RENEW,
    Record,
    Store,
    StoreError,
    Unknown,
    Unreplicated,
    append_refused,
    idempotent_read,
    pack,
)

log = logging.getLogger("kibitz.store")

#: replies that say the command did not run here: refresh the slot map and try again
_NOT_RUN = ("MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN", "LOADING", "READONLY", "MASTERDOWN")
#: how long an append keeps trying through a failover (s)
FAILOVER_PATIENCE = 10.0
#: how often a quiet subscription is asked whether its node still answers (s)
HEALTH_CHECK = 2.0


def by_slot(keys: Sequence[str]) -> dict[int, list[int]]:
    """Indexes of ``keys`` grouped by their cluster slot."""
    groups: dict[int, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key_slot(key.encode()), []).append(i)
    return groups


def _torn_down(exc: AttributeError) -> RedisConnectionError:
    return RedisConnectionError(f"a cluster connection closed: {exc}")


class TornDownSafeCluster(RedisCluster):
    """redis-py's cluster client whose commands and pipelines fail as a connection error
    when a connection is torn down under them: a slot-map refresh (a failover) disconnects
    every connection of a node, in use or not, and a command between its health check and
    its write then finds ``_writer`` gone and raises ``AttributeError`` — an ``internal``
    error for the client where the store was only away (``unavailable``: a connection error
    can always mean the reply, not the command, was lost, as with any other)."""

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().execute_command(*args, **kwargs)
        except AttributeError as exc:
            raise _torn_down(exc) from None

    def pipeline(self, transaction: Any = None, shard_hint: Any = None) -> ClusterPipeline:
        if shard_hint:  # as redis-py's own refuses it
            raise RedisClusterException("shard_hint is deprecated in cluster mode")
        # redis-py makes its own the same way (mypy sees an abstract attribute it sets itself)
        return _TornDownSafePipeline(self, transaction)  # type: ignore[abstract]


class _TornDownSafePipeline(ClusterPipeline):
    """A pipeline of :class:`TornDownSafeCluster` (``mget_nonatomic`` runs one too)."""

    async def execute(self, raise_on_error: bool = True, allow_redirections: bool = True) -> Any:
        try:
            return await super().execute(raise_on_error, allow_redirections)
        except AttributeError as exc:
            raise _torn_down(exc) from None


class ClusterStore(Store):
    """:class:`~server.store.log.Store` on a Redis Cluster (see the module docstring)."""

    cluster = True

    def __init__(self, client: RedisCluster, *, prefix: str = "kibitz:", **kw: Any) -> None:
        super().__init__(client, prefix=prefix, pipe=None, **kw)
        self.accounts_prefix = f"{prefix}{{accounts}}:"

    @classmethod
    def from_cluster_url(
        cls, url: str, *, prefix: str = "kibitz:", durability: str = "local", wait_ms: int = 1000
    ) -> ClusterStore:
        client = TornDownSafeCluster.from_url(url, decode_responses=False)
        store = cls(client, prefix=prefix, durability=durability, wait_ms=wait_ms)
        store.url = url
        return store

    def rk(self, kind: str, room_id: str) -> str:
        return f"{self.prefix}{kind}:{{{room_id}}}"

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
        live = self._k("rooms", "live")
        if status == "live":
            await self.redis.sadd(live, room_id)
        # KEYS[2] (the live set in one Redis) is never touched with status '': a key of the
        # room's slot stands in for it, as a cluster wants every key of a script in one slot
        keys = [self.rk("room", room_id), self.rk("live", room_id), self.rk("lease", room_id)]
        args = [base_version, "", room_id, node, *(pack(r) for r in records)]
        try:
            version = await self._append_on_primary(room_id, keys, args)
        except ResponseError as exc:
            raise append_refused(exc, room_id, base_version) from None
        if status == "over":
            await self.redis.srem(live, room_id)
        return version

    async def _append_on_primary(self, room_id: str, keys: list[str], args: list[Any]) -> int:
        deadline = time.monotonic() + FAILOVER_PATIENCE
        while True:
            node = self.redis.get_node_from_key(keys[0])
            conn = node.acquire_connection()
            try:
                try:
                    await conn.connect()
                except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                    # nothing was sent: the primary is down (a failover is under way)
                    await self._retry_later(deadline, exc)
                    continue
                commands: list[tuple[Any, ...]] = [
                    ("EVALSHA", self._append_sha, len(keys), *keys, *args)
                ]
                if self.durability == "replica":
                    commands.append(("WAIT", 1, self.wait_ms))
                try:
                    await conn.send_packed_command(conn.pack_commands(commands), False)
                except AttributeError as exc:
                    # redis-py: the connection was torn down under us (a slot-map refresh
                    # disconnects every connection of a node, in use or not) before a byte
                    # was written (``_writer`` was None at ``writelines``): nothing ran
                    await self._retry_later(deadline, exc)
                    continue
                except (RedisConnectionError, RedisTimeoutError, OSError) as exc:
                    await conn.disconnect()
                    raise Unknown(f"the append's reply was lost: {exc}") from None
                try:
                    replies = []
                    for _ in commands:
                        try:
                            replies.append(await conn.read_response())
                        except ResponseError as exc:
                            replies.append(exc)
                except (RedisConnectionError, RedisTimeoutError, OSError, AttributeError) as exc:
                    # sent, then lost (AttributeError: torn down under the read, as above)
                    await conn.disconnect()
                    raise Unknown(f"the append's reply was lost: {exc}") from None
            finally:
                node.release(conn)
            first = replies[0]
            if isinstance(first, ResponseError):
                text = str(first)
                if isinstance(first, NoScriptError) or text.startswith("NOSCRIPT"):
                    await self.redis.script_load(_APPEND)  # on every primary
                    continue
                if text.split(" ", 1)[0] in _NOT_RUN:
                    await self._retry_later(deadline, first)
                    continue
                raise first
            version = int(first)
            if self.durability == "replica":
                acked = replies[1]
                if isinstance(acked, ResponseError) or int(acked) < 1:
                    raise Unreplicated(room_id, version)
            return version

    async def _retry_later(self, deadline: float, why: Exception) -> None:
        if time.monotonic() > deadline:
            raise StoreError(f"the cluster did not take the append: {why}")
        await asyncio.sleep(0.25)
        with contextlib.suppress(RedisError, OSError):
            await self.redis.nodes_manager.initialize()

    # -- leases (one script call per slot) ---------------------------------------------------

    async def _per_slot(self, script: str, keys: list[str], args: list[Any]) -> list[int]:
        out = [0] * len(keys)
        groups = by_slot(keys)

        async def run(indexes: list[int]) -> None:
            got = await self.redis.eval(script, len(indexes), *[keys[i] for i in indexes], *args)
            for i, ok in zip(indexes, got, strict=True):
                out[i] = int(ok)

        await asyncio.gather(*(run(ix) for ix in groups.values()))
        return out

    async def acquire_many(self, room_ids: Sequence[str], node: str, ttl_ms: int) -> list[str]:
        if not room_ids:
            return []
        keys = [self.rk("lease", r) for r in room_ids]
        got = await self._per_slot(_ACQUIRE_MANY, keys, [node, ttl_ms])
        return [r for r, ok in zip(room_ids, got, strict=True) if ok]

    async def renew(self, room_ids: Sequence[str], node: str, ttl_ms: int) -> list[str]:
        if not room_ids:
            return []
        keys = [self.rk("lease", r) for r in room_ids]
        held = await self._per_slot(_RENEW, keys, [node, ttl_ms])
        return [r for r, ok in zip(room_ids, held, strict=True) if not ok]

    @idempotent_read
    async def holders(self, room_ids: Sequence[str]) -> list[str | None]:
        if not room_ids:
            return []
        raw = await self.redis.mget_nonatomic([self.rk("lease", r) for r in room_ids])
        return [None if v is None else v.decode() for v in raw]

    async def delete_room(self, room_id: str, node: str) -> None:
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(self.rk("room", room_id))
        pipe.delete(self.rk("present", room_id))
        pipe.delete(self.rk("seated", room_id))
        pipe.delete(self.rk("chat", room_id))
        await pipe.execute()
        await self.redis.srem(self._k("rooms", "live"), room_id)
        await self.redis.hdel(self._k("lobby"), room_id)
        await self.release(room_id, node)

    # -- pub/sub ------------------------------------------------------------------------------

    async def publish(self, channel: str, data: bytes) -> int:
        """PUBLISH reaches subscribers on every node of the cluster, but counts only those
        of the node it ran on: when that is none, count them on every node this client
        knows (``PUBSUB NUMSUB``). A subscriber on a node the client does not know yet (one
        that just rejoined) is missed by both: then the answer is ``-1``, "unknown", not 0."""
        name = self.channel(channel)
        heard = int(await self.redis.publish(name, data))
        if heard == 0:
            with contextlib.suppress(RedisError, OSError):
                heard = await self.numsub(name)
        return heard or -1

    async def numsub(self, channel: str) -> int:
        """Subscribers on every node (each node counts only its own)."""
        counts = await self.redis.execute_command(
            "PUBSUB NUMSUB", channel, target_nodes=RedisCluster.ALL_NODES
        )
        return sum(int(n) for _c, n in counts) if counts else 0

    def pubsub(self) -> NodePubSub:
        return NodePubSub(self.redis)


class NodePubSub:
    """Classic pub/sub on one node of a cluster, moving to another node when it fails.

    A cluster delivers PUBLISH to subscribers on every node, so any node will do. Messages
    published while the connection moves are lost (as with one Redis that restarts): the
    cross-node protocol already lives with that (renderings resync, calls time out).
    """

    def __init__(self, cluster: RedisCluster) -> None:
        self.cluster = cluster
        self.channels: list[str] = []
        self._client: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._checked = time.monotonic()

    async def subscribe(self, *channels: str) -> None:
        self.channels.extend(channels)
        await self._connect()

    async def _connect(self) -> None:
        await self._drop()
        nodes = list(self.cluster.get_nodes())
        random.shuffle(nodes)
        last: Exception | None = None
        for node in nodes:
            client = aioredis.Redis(host=node.host, port=int(node.port), decode_responses=False)
            try:
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(*self.channels)
            except (RedisError, OSError) as exc:
                last = exc
                with contextlib.suppress(Exception):
                    await client.aclose()
                continue
            self._client, self._pubsub = client, pubsub
            return
        raise StoreError(f"no cluster node takes a subscription: {last}")

    async def get_message(self, timeout: float = 1.0) -> Any:
        try:
            if self._pubsub is None:
                raise RedisConnectionError("not subscribed")
            if time.monotonic() - self._checked > HEALTH_CHECK:
                # a node that died without closing the connection says nothing: ask it
                self._checked = time.monotonic()
                await asyncio.wait_for(self._pubsub.ping(), HEALTH_CHECK)
            message = await self._pubsub.get_message(timeout=timeout)
        except Exception as exc:  # redis-py may also fail with a torn-down connection
            log.warning("pub/sub node lost (%s): moving to another node", exc)
            await asyncio.sleep(min(timeout, 0.5))
            with contextlib.suppress(RedisError, OSError):
                await self.cluster.nodes_manager.initialize()
            with contextlib.suppress(StoreError):
                await self._connect()
            return None
        if message is not None and message["type"] == "pong":
            return None  # the health check's answer, not a publication (its data is b"")
        return message

    async def _drop(self) -> None:
        pubsub, client, self._pubsub, self._client = self._pubsub, self._client, None, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await pubsub.aclose()
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def aclose(self) -> None:
        await self._drop()


__all__ = ["ClusterStore", "NodePubSub", "by_slot"]
