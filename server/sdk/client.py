"""An asyncio client for the Kibitz protocol (docs/PROTOCOL.md).

    async with await KibitzClient.connect("ws://127.0.0.1:8765/ws") as c:
        room = (await c.request("create_room", game="chess"))["room"]
        seat = await c.request("take_seat", room=room, name="Ada")
        update = await c.next_update(room)
        await c.request("move", room=room, move="e2e4")

Replies are matched to requests by ``id``; an ``error`` reply raises :class:`KibitzError`
with its code. Everything the server pushes lands in a queue read by :meth:`next_update` /
:meth:`wait_update`.

The client speaks protocol 2: the server sends a full ``update`` when a room is joined,
watched or resynced, and then ``delta`` messages with what changed. The client keeps each
room's state per recipient (:attr:`KibitzClient.rooms`), applies every delta to it and
queues the result as a full ``update`` (its ``events`` are the delta's), so a program using
this client always sees whole updates. A delta that does not follow the state held (a gap)
is dropped and a ``resync`` is requested.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Subprotocol

Message = dict[str, Any]


class KibitzError(Exception):
    """The server answered a request with an error."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message)  # both in args: the error pickles across processes
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def apply_delta(state: Message, sets: list[Any], dels: list[Any]) -> Message:
    """``state`` with a delta applied (docs/PROTOCOL.md, ``delta``): every ``del`` path
    deleted, then every ``set`` pair set (an empty path replaces the whole state).

    The containers on the changed paths are copied, so ``state`` and the updates handed out
    earlier never change under their readers. This is the one Python apply of the delta
    format (the server makes deltas, :mod:`server.rooms.delta`, and never applies one); the
    browser's is ``applyDelta`` in ``web/js/net.js``, and ``tests/web/test_delta_apply.py``
    holds the two to the same results.
    """
    out = dict(state)

    def parent_of(path: list[Any]) -> Any:
        node: Any = out
        for step in path[:-1]:
            child = node[step]
            child = dict(child) if isinstance(child, dict) else list(child)
            node[step] = child
            node = child
        return node

    for path in dels:
        del parent_of(path)[path[-1]]
    for path, value in sets:
        if not path:
            out = dict(value)
            continue
        parent_of(path)[path[-1]] = value
    return out


def retry_after(value: str | None) -> float:
    """Seconds a ``Retry-After`` header asks a client to wait (whole seconds; 1 if missing
    or unreadable), kept within 0.1 to 10 s."""
    seconds = float(value) if value is not None and value.isdecimal() else 1.0
    return min(max(seconds, 0.1), 10.0)


class KibitzClient:
    def __init__(self, ws: ClientConnection, *, binary: bool) -> None:
        self.ws = ws
        self.binary = binary
        self.welcome: Message = {}
        self.pushed: asyncio.Queue[Message] = asyncio.Queue()
        self.errors: list[Message] = []  # errors without an id (e.g. rate_limited)
        self._ids = itertools.count(1)
        self._waiting: dict[Any, asyncio.Future[Message]] = {}
        self._reader: asyncio.Task[None] | None = None
        self.closed = asyncio.Event()
        #: (room, recipient) -> the room as that recipient last saw it (an update's snapshot)
        self.rooms: dict[tuple[str, int | None], Message] = {}
        #: deltas dropped for a gap (each followed by a resync request)
        self.gaps = 0

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        msgpack_frames: bool = False,
        session: str | None = None,
        since: dict[str, int] | None = None,
        hello: bool = True,
        protocol: int = 2,
        deltas: bool = True,
        busy_retries: int = 3,
        **connect_kwargs: Any,
    ) -> KibitzClient:
        """Open a connection and (unless ``hello=False``) greet the server.

        ``protocol=1`` (or ``deltas=False``) asks the server for full updates only. A server
        that sheds load answers HTTP 503 with ``Retry-After``: the connection is tried again
        after that long (at most 10 s), ``busy_retries`` times, then the 503 is raised.
        """
        protocols = [Subprotocol("kibitz.msgpack")] if msgpack_frames else None
        for attempt in itertools.count():
            try:
                ws = await connect(url, subprotocols=protocols, max_size=2**22, **connect_kwargs)
                break
            except InvalidStatus as exc:
                if exc.response.status_code != 503 or attempt >= busy_retries:
                    raise
                await asyncio.sleep(retry_after(exc.response.headers.get("Retry-After")))
        client = cls(ws, binary=msgpack_frames)
        client._reader = asyncio.get_running_loop().create_task(client._read())
        if hello:
            fields: Message = {"protocol": protocol}
            if protocol >= 2 and not deltas:
                fields["deltas"] = False
            if session:
                fields["session"] = session
            if since:
                fields["since"] = since
            client.welcome = await client.request("hello", **fields)
        return client

    @property
    def session(self) -> str | None:
        return self.welcome.get("session")

    def encode(self, msg: Message) -> str | bytes:
        return msgpack.packb(msg, use_bin_type=True) if self.binary else json.dumps(msg)

    def decode(self, frame: str | bytes) -> Message:
        if isinstance(frame, bytes):
            return dict(msgpack.unpackb(frame, raw=False))
        return dict(json.loads(frame))

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                msg = self.decode(frame)
                fut = self._waiting.pop(msg.get("id"), None) if "id" in msg else None
                if fut is not None and not fut.done():
                    fut.set_result(msg)
                elif msg.get("type") == "error":
                    self.errors.append(msg)
                    self.pushed.put_nowait(msg)
                elif msg.get("type") == "update":
                    self._hold(msg)
                    self.pushed.put_nowait(msg)
                elif msg.get("type") == "delta":
                    update = self._patch(msg)
                    if update is not None:
                        self.pushed.put_nowait(update)
                else:
                    self.pushed.put_nowait(msg)
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            for fut in self._waiting.values():
                if not fut.done():
                    fut.set_exception(ConnectionError("connection closed"))

    def _hold(self, update: Message) -> None:
        key = (update.get("room"), update.get("you"))
        held = self.rooms.get(key)  # type: ignore[arg-type]
        if held is None or held.get("version", -1) <= update.get("version", 0):
            state = {k: v for k, v in update.items() if k not in ("type", "events", "id")}
            self.rooms[key] = state  # type: ignore[index]

    def _patch(self, msg: Message) -> Message | None:
        """The full update a delta makes of the state held, or None (stale, or a gap)."""
        key = (msg["room"], msg["you"])
        held = self.rooms.get(key)
        if held is not None and held.get("version") == msg["base"]:
            state = apply_delta(held, msg.get("set", []), msg.get("del", []))
            self.rooms[key] = state
            return {"type": "update", "events": msg.get("events"), **state}
        if held is not None and held.get("version", 0) >= msg["version"]:
            return None  # already seen (a resync overtook it)
        self.gaps += 1
        asyncio.get_running_loop().create_task(self._resync(msg["room"], held))
        return None

    async def _resync(self, room: str, held: Message | None) -> None:
        since = held.get("version") if held else None
        with contextlib.suppress(Exception):
            await self.request("resync", room=room, since=since)

    async def send_raw(self, frame: str | bytes) -> None:
        await self.ws.send(frame)

    async def request(self, kind: str, *, timeout: float = 10.0, **fields: Any) -> Message:
        """Send a request and wait for its reply; an error reply raises :class:`KibitzError`."""
        rid = next(self._ids)
        fut: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        await self.ws.send(self.encode({"type": kind, "id": rid, **fields}))
        try:
            reply = await asyncio.wait_for(fut, timeout)
        finally:
            self._waiting.pop(rid, None)
        if reply.get("type") == "error":
            raise KibitzError(reply["code"], reply.get("message", ""))
        return reply

    async def request_while_unavailable(
        self, kind: str, *, within: float = 15.0, **fields: Any
    ) -> Message:
        """:meth:`request`, sent again while the answer is ``unavailable`` (nothing was done:
        the room or tournament is changing nodes, or the store is away) for ``within``
        seconds; then that error is raised like any other."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            try:
                return await self.request(kind, **fields)
            except KibitzError as exc:
                if exc.code != "unavailable" or loop.time() > deadline:
                    raise
            await asyncio.sleep(0.2)

    async def next_message(self, timeout: float = 10.0) -> Message:
        return await asyncio.wait_for(self.pushed.get(), timeout)

    async def wait_update(
        self,
        predicate: Callable[[Message], bool] = lambda m: True,
        *,
        room: str | None = None,
        timeout: float = 10.0,
    ) -> Message:
        """The next pushed ``update`` (of ``room``) for which ``predicate`` holds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError("no matching update")
            msg = await self.next_message(left)
            if msg.get("type") != "update" or (room is not None and msg.get("room") != room):
                continue
            if predicate(msg):
                return msg

    async def next_update(self, room: str | None = None, timeout: float = 10.0) -> Message:
        return await self.wait_update(room=room, timeout=timeout)

    def drain(self) -> list[Message]:
        """Everything pushed so far, without waiting."""
        out = []
        while not self.pushed.empty():
            out.append(self.pushed.get_nowait())
        return out

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader

    async def __aenter__(self) -> KibitzClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
