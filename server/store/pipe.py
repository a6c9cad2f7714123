"""One Redis connection for the hot path: every command issued in one event-loop iteration
goes out in a single write (group commit), and the replies come back in order.

redis-py's asyncio client costs ~176 µs of client CPU for one script call at a time (a pooled
connection, a lock and a parse per command); the same calls written 100 to a pipeline cost
~30 µs each. The moves of many rooms that are ready in the same loop iteration are exactly
such a pipeline, so :class:`Pipe` makes it the normal case: :meth:`Pipe.call` encodes the
command into a buffer and returns a future; a callback scheduled with ``call_soon`` writes the
buffer once the iteration's other callbacks have added theirs; hiredis parses the replies in
``data_received`` and resolves the futures first in, first out. No task per command, no pool
to exhaust: a burst of work is one write and one parse loop.

Failure semantics matter more than speed here. A command whose reply never came (the
connection broke after the write) has an *unknown* outcome: it may have run. Such futures
fail with :class:`Unsent` only when the bytes provably never left (no connection), and with
:class:`LostReply` otherwise, so that callers that append to the log can go and look instead
of claiming nothing happened.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any
from urllib.parse import unquote, urlparse

import hiredis

log = logging.getLogger("kibitz.store")


class PipeError(ConnectionError):
    """Base of connection failures of a :class:`Pipe`."""


class Unsent(PipeError):
    """The command was not sent (no connection): it certainly did not run."""


class LostReply(PipeError):
    """The connection broke after the command was written: it may or may not have run."""


def encode(args: tuple[Any, ...]) -> bytes:
    """A command as a RESP array of bulk strings (bytes, str as UTF-8, int, float), by
    hiredis's ``pack_command`` (3x faster than building it here; ``tests/store/test_pipe.py``
    checks it against the protocol); anything else (a bool, None, a list) is a TypeError."""
    return hiredis.pack_command(args)


class _Protocol(asyncio.Protocol):
    def __init__(self, pipe: Pipe) -> None:
        self.pipe = pipe
        self.reader = hiredis.Reader()

    def data_received(self, data: bytes) -> None:
        reader = self.reader
        reader.feed(data)
        waiting = self.pipe._waiting
        while True:
            reply = reader.gets()
            if reply is False:
                return
            if not waiting:  # a reply nobody asked for: the stream is out of step
                log.error("redis pipe: unexpected reply %r; reconnecting", reply)
                self.pipe._broken(LostReply("unexpected reply"))
                return
            fut = waiting.popleft()
            if fut.done():
                continue
            if isinstance(reply, hiredis.ReplyError):
                fut.set_exception(reply)
            else:
                fut.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.pipe._broken(LostReply(f"connection to Redis lost: {exc or 'closed'}"))


class Pipe:
    """A lazily (re)connected, pipelined Redis connection (``redis://`` or ``unix://``)."""

    def __init__(self, url: str, *, connect_timeout: float = 5.0) -> None:
        self.url = url
        self.connect_timeout = connect_timeout
        self._transport: asyncio.Transport | None = None
        self._connecting: asyncio.Future[None] | None = None
        self._buffer: list[bytes] = []
        self._waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self._flush_scheduled = False
        self.closed = False
        #: writes made (one per loop iteration with work) and commands sent: batch sizes
        self.writes = 0
        self.commands = 0

    # -- connection -------------------------------------------------------------------------

    async def _open(self) -> None:
        loop = asyncio.get_running_loop()
        parts = urlparse(self.url)
        db = 0
        if parts.scheme == "unix":
            coro = loop.create_unix_connection(lambda: _Protocol(self), unquote(parts.path))
            query = dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
            db = int(query.get("db", 0))
        else:
            host, port = parts.hostname or "127.0.0.1", parts.port or 6379
            coro = loop.create_connection(lambda: _Protocol(self), host, port)
            if parts.path.strip("/"):
                db = int(parts.path.strip("/"))
        transport, _ = await asyncio.wait_for(coro, self.connect_timeout)
        self._transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None and parts.scheme != "unix":
            import socket

            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        hello: list[tuple[Any, ...]] = []
        if parts.password:
            auth = (parts.username, parts.password) if parts.username else (parts.password,)
            hello.append(("AUTH", *(unquote(a) for a in auth)))
        if db:
            hello.append(("SELECT", db))
        for cmd in hello:
            await self._send(cmd)

    async def connect(self) -> None:
        """Connect now (calls connect on demand anyway)."""
        if self._transport is not None:
            return
        if self.closed:
            raise Unsent("the pipe is closed")
        if self._connecting is None:
            self._connecting = asyncio.get_running_loop().create_future()
            try:
                await self._open()
            except Exception as exc:
                fut, self._connecting = self._connecting, None
                fut.set_exception(Unsent(f"cannot connect to Redis: {exc}"))
                fut.exception()  # retrieved: waiters get it through their own await
                raise Unsent(f"cannot connect to Redis: {exc}") from exc
            fut, self._connecting = self._connecting, None
            fut.set_result(None)
            return
        await asyncio.shield(self._connecting)

    def _broken(self, exc: PipeError) -> None:
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.abort()
        waiting, self._waiting = self._waiting, collections.deque()
        unsent = len(self._buffer)  # the last ones queued never left this process
        self._buffer.clear()
        for i, fut in enumerate(waiting):
            if not fut.done():
                lost = i < len(waiting) - unsent
                fut.set_exception(exc if lost else Unsent("not sent: the connection broke"))

    async def close(self) -> None:
        self.closed = True
        self._broken(LostReply("the pipe was closed"))

    # -- commands ---------------------------------------------------------------------------

    def call(self, *args: Any) -> Awaitable[Any]:
        """Send one command (batched with this iteration's others); await it for its reply.

        Connected, this is the reply's future itself (no coroutine to create and resume on
        the hot path); otherwise a coroutine that connects first."""
        if self._transport is None:
            return self._connect_and_send(args)
        return self._send(args)

    async def _connect_and_send(self, args: tuple[Any, ...]) -> Any:
        await self.connect()
        return await self._send(args)

    def _send(self, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        if self._transport is None:
            raise Unsent("not connected to Redis")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        self._buffer.append(encode(args))
        self._waiting.append(fut)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(self._flush)
        return fut

    def send_nowait(self, *args: Any) -> None:
        """Queue a command whose reply nobody waits for (e.g. PUBLISH); errors are logged."""
        if self._transport is None:
            return
        fut = self._send(args)
        fut.add_done_callback(_log_failure)

    def _flush(self) -> None:
        self._flush_scheduled = False
        if not self._buffer:
            return
        data = b"".join(self._buffer)
        self.commands += len(self._buffer)
        self.writes += 1
        self._buffer.clear()
        if self._transport is None:  # broke meanwhile: _broken failed the futures
            return
        self._transport.write(data)


def _log_failure(fut: asyncio.Future[Any]) -> None:
    if not fut.cancelled() and fut.exception() is not None:
        log.warning("redis command failed: %s", fut.exception())


__all__ = ["LostReply", "Pipe", "PipeError", "Unsent", "encode"]
