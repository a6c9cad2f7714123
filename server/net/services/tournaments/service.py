"""A node's tournament service: requests routed to the director, the list and watchers.

Every request that changes a tournament runs on the node that directs it
(:class:`~server.net.services.tournaments.director.Director`): here, or forwarded over Redis pub/sub
to ``tournaments:node:{node}`` and answered on the asker's channel. A tournament nobody directs
(its director died, its lease expired) is taken over by the node that is asked.

The director stores the one view after each change and publishes ``{"id", "what"}`` on
``tournaments:changed``; every node then pushes ``tournament`` to its watchers of that
tournament (the view and each watcher's own part, ``me``), and ``tournaments`` to those who
asked for the list. A result stored by a game's host is announced there too (``what``:
``result``), so the director folds it at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from typing import Any

from ....store import tournaments as tstore
from ....store.accounts import AccountStore
from ....store.tournaments import Full
from ...node.cluster import next_message
from ...node.hub import Hub
from ...transport.connection import Client
from ...transport.errors import ProtocolError
from ..names import player_key
from .director import Director
from .ops import OPS
from .rooms import seat_token

log = logging.getLogger("kibitz.tournaments")

#: tournaments one connection may watch at once
WATCH_MAX = 8
#: finished tournaments in the list
LIST_FINISHED = 20


class Tournaments:
    """The node's tournaments: its director, request routing, the list and watchers."""

    def __init__(self, hub: Hub, accounts: AccountStore) -> None:
        self.hub = hub
        self.director = Director(hub, accounts, publish=self.announce)
        self.store = self.director.store
        self.watchers: dict[str, set[Client]] = {}
        self.list_watchers: set[Client] = set()
        self.pubsub: Any = None
        self.pending: dict[int, asyncio.Future[Any]] = {}
        self.ids = itertools.count(1)
        self.changed_channel = hub.store.channel("tournaments:changed")
        self.my_channel = hub.store.channel(f"tournaments:node:{hub.node}")
        self.rpc_timeout = hub.lease_ms / 1000 + 2.0
        self.heard = 0

    async def start(self) -> None:
        self.pubsub = self.hub.store.pubsub()
        await self.pubsub.subscribe(self.changed_channel, self.my_channel)
        self.hub.spawn(self._listen(), "tournaments-listen")
        await self.director.start()

    async def close(self) -> None:
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await self.pubsub.aclose()
            self.pubsub = None

    async def announce(self, tid: str, what: str) -> None:
        await self.hub.store.publish(
            "tournaments:changed", json.dumps({"id": tid, "what": what}).encode()
        )

    # -- requests -----------------------------------------------------------------------------

    async def call(self, tid: str, op: str, args: dict[str, Any]) -> Any:
        """Run ``op`` on the tournament's director (here if nobody directs it)."""
        if op not in OPS:
            raise ProtocolError("bad_request", f"no tournament operation {op!r}")
        for _ in range(3):
            d = self.director.directed.get(tid)
            if d is not None:
                return await OPS[op](self.director, tid, d, args)
            holder = await self.store.holder(tid)
            if holder is None or holder == self.hub.node:
                if await self.director.adopt(tid) is None and not await self.store.is_live(tid):
                    view = await self.store.view(tid)
                    if view is None:
                        raise ProtocolError("no_such_tournament", f"there is no tournament {tid!r}")
                    raise ProtocolError("not_open", f"the tournament is {view['status']}")
                continue
            try:
                return await self._remote(holder, tid, op, args)
            except ProtocolError as exc:
                if exc.code != "moved":
                    raise
        raise ProtocolError("unavailable", "the tournament is changing nodes; try again")

    async def _remote(self, node: str, tid: str, op: str, args: dict[str, Any]) -> Any:
        rid = next(self.ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending[rid] = fut
        request = {"q": rid, "from": self.hub.node, "id": tid, "op": op, "args": args}
        try:
            await self.hub.store.publish(f"tournaments:node:{node}", json.dumps(request).encode())
            return await asyncio.wait_for(fut, self.rpc_timeout)
        except TimeoutError:
            raise ProtocolError("unavailable", "the tournament's node did not answer") from None
        finally:
            self.pending.pop(rid, None)

    async def _serve(self, request: dict[str, Any]) -> None:
        tid, op = str(request["id"]), str(request["op"])
        reply: dict[str, Any] = {"r": request["q"]}
        d = self.director.directed.get(tid)
        try:
            if d is None:
                raise ProtocolError("moved", f"node {self.hub.node} does not direct {tid}")
            reply["ok"] = await OPS[op](self.director, tid, d, dict(request["args"]))
        except ProtocolError as exc:
            reply["err"] = [exc.code, exc.message]
        channel = f"tournaments:node:{request['from']}"
        await self.hub.store.publish(channel, json.dumps(reply).encode())

    # -- pub/sub ------------------------------------------------------------------------------

    async def _listen(self) -> None:
        try:
            await self._listen_loop()
        finally:
            await self.close()

    async def _listen_loop(self) -> None:
        changed, mine = self.changed_channel.encode(), self.my_channel.encode()
        while self.pubsub is not None:
            message = await next_message(self.pubsub, "tournament messages")
            self.heard += 1
            if message is None or self.heard % 500 == 0:  # forget connections gone away
                self.prune()
            if message is None:
                continue
            try:
                data = json.loads(message["data"])
                if message["channel"] == changed:
                    await self._changed(str(data["id"]), str(data["what"]))
                elif message["channel"] == mine and "q" in data:
                    self.hub.spawn(self._serve(data), "tournament request")
                elif message["channel"] == mine:
                    fut = self.pending.get(int(data["r"]))
                    if fut is not None and not fut.done():
                        if "err" in data:
                            fut.set_exception(ProtocolError(*data["err"]))
                        else:
                            fut.set_result(data.get("ok"))
            except Exception:
                log.exception("tournament message failed")

    async def _changed(self, tid: str, what: str) -> None:
        if what == "result":
            self.director.fold_soon(tid)
        elif what == "view":
            await self.push_view(tid)
        elif what == "list":
            await self.push_list()

    # -- what clients see ---------------------------------------------------------------------

    async def view(self, tid: str) -> dict[str, Any]:
        view = await self.store.view(tid)
        if view is None:
            raise ProtocolError("no_such_tournament", f"there is no tournament {tid!r}")
        return view

    async def me(self, tid: str, client: Client) -> dict[str, Any]:
        """The client's own part: joined, paused, and its game with its seat token."""
        part = await self.store.me(tid, entrant_key(client))
        if part is None:
            return {"joined": False, "paused": False, "game": None}
        game = part.get("game")
        if game:
            secret = await self.store.secret(tid)
            if secret is not None:
                game = dict(game) | {"token": seat_token(secret, game["room"], game["seat"])}
        return {**part, "game": game}

    async def message(self, tid: str, client: Client) -> dict[str, Any]:
        view = await self.view(tid)
        return {
            "type": "tournament",
            "tournament": tid,
            "view": view,
            "me": await self.me(tid, client),
        }

    async def push_view(self, tid: str) -> None:
        watchers = self.watchers.get(tid)
        if not watchers:
            return
        watchers &= self.hub.clients
        for client in list(watchers):
            with contextlib.suppress(ProtocolError):
                client.send(await self.message(tid, client))

    def prune(self) -> None:
        """Closed connections watch nothing (pushes prune too, but a quiet tournament's
        watchers would stay)."""
        clients = self.hub.clients
        self.list_watchers &= clients
        for tid in list(self.watchers):
            self.watchers[tid] &= clients
            if not self.watchers[tid]:
                del self.watchers[tid]

    def watch(self, client: Client, tid: str) -> None:
        mine = [t for t, cs in self.watchers.items() if client in cs and t != tid]
        if len(mine) >= WATCH_MAX:
            raise ProtocolError("too_many", f"watch at most {WATCH_MAX} tournaments at once")
        self.watchers.setdefault(tid, set()).add(client)

    def unwatch(self, client: Client, tid: str) -> None:
        watchers = self.watchers.get(tid)
        if watchers is not None:
            watchers.discard(client)
            if not watchers:
                self.watchers.pop(tid, None)

    async def listing(self) -> dict[str, Any]:
        groups: dict[str, list[dict[str, Any]]] = {"upcoming": [], "running": [], "finished": []}
        for s in await self.store.summaries():
            status = s.get("status")
            groups["finished" if status in ("finished", "cancelled") else str(status)].append(s)
        groups["upcoming"].sort(key=lambda s: (s.get("starts_at") or 0, s["id"]))
        groups["running"].sort(key=lambda s: (s.get("ends_at") or 0, s["id"]))
        groups["finished"].sort(key=lambda s: -(s.get("finished_at") or 0))
        groups["finished"] = groups["finished"][:LIST_FINISHED]
        return {"type": "tournaments", **groups}

    async def push_list(self) -> None:
        self.list_watchers &= self.hub.clients
        if self.list_watchers:
            message = await self.listing()
            for client in list(self.list_watchers):
                client.send(message)

    # -- creating -----------------------------------------------------------------------------

    async def create(
        self, raw: Any, creator: str, *, address: str = ""
    ) -> tuple[str, dict[str, Any]]:
        """Create a tournament this node directs (``address``: a guest's, whose guests
        share a bound); (its id, its view)."""
        try:
            return await self.director.create(raw, creator, address=address)
        except Full as exc:
            what = {
                "creator": f"you have as many upcoming and running tournaments as one may"
                f" ({tstore.PER_CREATOR}): cancel one, or wait until one ends",
                "address": f"guests from your address have as many upcoming and running"
                f" tournaments as they may ({tstore.GUESTS_PER_ADDRESS} together): log in to"
                " create one, or wait until one ends",
                "everybody": "the server has as many tournaments as it takes; try later",
            }.get(exc.who, "try again")
            raise ProtocolError("rate_limited", what) from None


def entrant_key(client: Client) -> str:
    """The client's key in tournaments: ``u:{account}`` (shown in standings), or the seek
    service's guest key (never shown)."""
    return f"u:{client.user}" if client.user else player_key(client)


__all__ = ["Tournaments", "entrant_key"]
