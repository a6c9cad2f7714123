"""Several nodes on one Redis: leases, cross-node operations and fan-out, takeover.

Every node subscribes to two Redis pub/sub channels:

* ``out`` — every host publishes each room change there as the per-recipient renderings it
  already built (``[(recipient, delta, update), ...]``) — only while another node listens
  (counted with ``PUBSUB NUMSUB`` every lease period; a starting node announces itself at
  once), and on the pipelined connection, with the next group-committed write; a node fans
  them out to *its* listeners (the host skips its own, having sent them directly);
* ``node:{id}`` — requests from other nodes to run a room operation here as the host, and
  the replies to the requests this node sent.

Leases: a host renews the leases of its rooms every third of the lease time from a thread of
its own (:mod:`server.net.node.leases`), so a busy event loop never starves them; a room whose
renewal fails is dropped at once (another node hosts it now), and a room whose lease could
not be renewed in time takes no more moves. Every lease period, each node sweeps the live
rooms for expired leases and takes those rooms over from their logs, so a dead node's games —
with their clocks and bots — go on without waiting for a client. The log append itself
checks the lease (``Store.append(node=...)``), so a host that wakes up after losing its lease
cannot write.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from ...store import Store
from ...store.log import pack, unpack
from ..transport.errors import ProtocolError
from .audience import Audience, Outs
from .clocks import Clocks
from .hosting import COMMANDS, Hosting
from .leases import LeaseKeeper
from .lobby import Lobby

log = logging.getLogger("kibitz.cluster")


async def next_message(pubsub: Any, what: str) -> Any:
    """The next pub/sub message (``None``: none yet). A reader must outlive any Redis
    trouble: an error is logged and waited out, and the caller simply reads again."""
    try:
        return await pubsub.get_message(timeout=1.0)
    except Exception as exc:
        log.warning("%s: %s; listening again", what, exc)
        await asyncio.sleep(0.5)
        return None


class Cluster:
    """A node's link to the others, a part of its hub: handed the hub's parts it serves
    (the rooms hosted here, the lobby, this node's listeners, the clocks) and the hub's
    ``serve`` (an operation forwarded here), ``adopt`` (rooms nobody hosts) and ``spawn``."""

    def __init__(
        self,
        store: Store,
        *,
        node: str,
        lease_ms: int,
        hosting: Hosting,
        lobby: Lobby,
        audience: Audience,
        clocks: Clocks,
        serve: Callable[[str, str, dict[str, Any]], Awaitable[Any]],
        adopt: Callable[..., Awaitable[int]],
        spawn: Callable[[Coroutine[Any, Any, Any], str], None],
        rpc_timeout: float | None = None,
    ) -> None:
        self.store = store
        self.node = node
        self.lease_ms = lease_ms
        self.hosting = hosting
        self.lobby = lobby
        self.audience = audience
        self.clocks = clocks
        self.serve = serve
        self.adopt = adopt
        self.spawn = spawn
        #: longer than a lease: a host that answers no more within it has lost its rooms
        self.rpc_timeout = lease_ms / 1000 + 1.0 if rpc_timeout is None else rpc_timeout
        self.prefix = self.node.encode() + b"\x00"
        self.pending: dict[str, asyncio.Future[Any]] = {}
        self.ids = itertools.count(1)
        self.pubsub: Any = None
        self.out_channel = store.channel("out")
        self.my_channel = store.channel(f"node:{self.node}")
        self.keeper: LeaseKeeper | None = None
        self.tasks: list[asyncio.Task[Any]] = []
        #: other nodes listening for renderings (none: a room change is not published)
        self.peers = 0

    async def start(self) -> None:
        self.pubsub = self.store.pubsub()
        await self.pubsub.subscribe(self.out_channel, self.my_channel)
        self.tasks = [asyncio.get_running_loop().create_task(self._reader(), name="cluster reader")]
        await self._count_peers()
        # tell running nodes at once that renderings must now reach one more node
        await self.store.publish("out", self.prefix + pack({"k": "hi"}))
        if self.store.url is not None:
            self.keeper = LeaseKeeper(
                self.store.url,
                lambda room_id: self.store.rk("lease", room_id),
                self.node,
                self.lease_ms,
                asyncio.get_running_loop(),
                self.hosting.lease_ids,
                self.hosting.lease_held,
                self.hosting.lease_lost,
                cluster=self.store.cluster,
            )
            self.keeper.start()
        else:  # a store without a URL (tests that build one by hand): renew from the loop
            self.own(self._renew_from_loop(), "cluster leases")
        self.own(self._sweeps(), "cluster sweeps")
        self.own(self._lobby(), "lobby refresh")

    def own(self, coro: Any, name: str) -> None:
        """A background task of the cluster, stopped by :meth:`close` before its
        connections close (a redis-py connection must not close under a running call)."""
        self.tasks.append(asyncio.get_running_loop().create_task(coro, name=name))

    async def close(self) -> None:
        tasks, self.tasks = self.tasks, []
        for task in tasks:
            task.cancel()
        if tasks:
            _done, stuck = await asyncio.wait(tasks, timeout=5)
            for task in stuck:
                log.warning("%s did not stop in 5 s", task.get_name())
        if self.keeper is not None:
            await asyncio.to_thread(self.keeper.stop)
            self.keeper = None
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
            self.pubsub = None
        for fut in self.pending.values():
            if not fut.done():
                fut.set_exception(ProtocolError("unavailable", "the node is shutting down"))

    # -- fan-out across nodes -----------------------------------------------------------------

    async def publish_outs(self, room_id: str, outs: Outs) -> None:
        """Send a room change's renderings to the other nodes' listeners — with the next
        group-committed write, waiting for nothing; not at all when no other node runs."""
        if not self.peers:
            return
        payload = self.prefix + pack({"room": room_id, "outs": [list(o) for o in outs]})
        try:
            if self.store.pipe is not None:
                self.store.publish_nowait("out", payload)
            else:
                await self.store.publish("out", payload)
        except Exception as exc:  # the move is stored; remote listeners can resync
            log.warning("could not publish room %s to other nodes: %s", room_id, exc)

    async def _count_peers(self) -> None:
        """How many other nodes listen (``PUBSUB NUMSUB``, ourselves not counted)."""
        if self.store.cluster:  # listeners on every node cannot always be counted: publish
            self.peers = max(self.peers, 1)
            return
        self.peers = max(0, await self.store.numsub(self.out_channel) - 1)

    # -- requests to a host ---------------------------------------------------------------------

    async def call(self, holder: str, room_id: str, op: str, args: dict[str, Any]) -> Any:
        rid = f"{self.node}/{next(self.ids)}"
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[rid] = fut
        request = {
            "k": "req",
            "rid": rid,
            "from": self.node,
            "room": room_id,
            "op": op,
            "args": args,
        }
        try:
            heard = await self.store.publish(f"node:{holder}", self.prefix + pack(request))
            if heard == 0:  # (-1: a cluster could not count its listeners; wait and see)
                raise ProtocolError(
                    "unavailable", f"the room's host ({holder}) is gone; it moves shortly"
                )
            reply = await asyncio.wait_for(fut, self.rpc_timeout)
        except TimeoutError:
            if op in COMMANDS:  # it may have run: never claim it did not
                raise ProtocolError(
                    "outcome_unknown",
                    "the room's host did not answer in time: the command may or may not "
                    "have happened; resync and look (a retry with the same cid is safe)",
                ) from None
            raise ProtocolError(
                "unavailable", "the room's host does not answer; try again"
            ) from None
        finally:
            self.pending.pop(rid, None)
        if "err" in reply:
            code, message = reply["err"]
            raise ProtocolError(code, message)
        return reply["ok"]

    async def _serve(self, request: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"k": "rep", "rid": request["rid"]}
        try:
            reply["ok"] = await self.serve(request["room"], request["op"], request["args"])
        except Exception as exc:
            code = getattr(exc, "code", None)
            if not isinstance(code, str):
                log.exception("remote %s on room %s failed", request["op"], request["room"])
                code, text = "internal", "internal server error"
            else:
                text = getattr(exc, "message", None) or str(exc)
            reply["err"] = [code, text]
        await self.store.publish(f"node:{request['from']}", self.prefix + pack(reply))

    async def _reader(self) -> None:
        out = self.out_channel.encode()
        while True:
            message = await next_message(self.pubsub, "cluster messages")
            if message is None or message.get("type") != "message":
                continue
            data: bytes = message["data"]
            if message["channel"] == out:
                if data.startswith(self.prefix):
                    continue  # our own renderings: already sent to our listeners
                body = unpack(data[data.index(b"\x00") + 1 :])
                if body.get("k") == "hi":  # a node started: publish to it from now on
                    self.peers = max(self.peers, 1)
                    continue
                self.audience.fan_out(body["room"], [(r, d, f) for r, d, f in body["outs"]])
                continue
            body = unpack(data[data.index(b"\x00") + 1 :])
            if body.get("k") == "req":
                self.spawn(self._serve(body), f"serve {body.get('op')}")
            elif body.get("k") == "rep":
                fut = self.pending.get(body["rid"])
                if fut is not None and not fut.done():
                    fut.set_result(body)

    # -- leases -----------------------------------------------------------------------------------

    async def _renew_from_loop(self) -> None:
        ttl = self.lease_ms
        hosting = self.hosting
        while True:
            await asyncio.sleep(ttl / 3000)
            started = time.monotonic()
            try:
                lost = await self.store.renew(hosting.lease_ids(), self.node, ttl)
            except Exception as exc:  # Redis away: our leases may lapse; others take over
                log.warning("lease renewal failed: %s", exc)
                continue
            for room_id in hosting.lease_ids():
                if room_id not in lost:
                    hosting.lease_held(room_id, started + ttl / 1000)
            for room_id in lost:
                hosting.lease_lost(room_id)

    async def _lobby(self, period: float = 2.0) -> None:
        """Every ``period`` seconds: refresh the lobby entries of rooms that moved on and
        finish the games whose end did not go through (a game-end hook failed); every
        ten seconds, mark the rooms this node's connections attend and expire waiting rooms
        nobody attends (``Lobby.abandoned_after``); every minute, expire waiting rooms nobody
        came to (``Lobby.waiting_ttl``) and end the games everybody left
        (``Lobby.idle_game_ttl``)."""
        beats = 0
        lobby = self.lobby
        while True:
            await asyncio.sleep(period)
            beats += 1
            try:
                await lobby.flush()
                await lobby.finish_pending()
                if beats % 5 == 0:
                    await lobby.touch_presence(ttl_s=30)
                    await lobby.expire_abandoned(lobby.abandoned_after)
                if beats % 30 == 0:
                    await lobby.expire_waiting(lobby.waiting_ttl)
                    idle = await lobby.idle_games(lobby.idle_game_ttl)
                    await self.clocks.end_idle(idle, lobby.idle_game_ttl)
            except Exception as exc:
                log.warning("lobby upkeep failed: %s", exc)

    async def _sweeps(self) -> None:
        """Every lease period: count the other nodes, adopt rooms whose host is gone."""
        while True:
            await asyncio.sleep(self.lease_ms / 1000)
            try:
                await self._count_peers()
                await self.sweep()
            except Exception as exc:
                log.warning("cluster sweep failed: %s", exc)

    async def sweep(self) -> int:
        """Take over live rooms whose host is gone (no lease). Returns how many."""
        return await self.adopt(include_own=False)
