"""``/ws``: one WebSocket connection on websockets' Sans-I/O API, over our own transport.

A :class:`WebSocket` is made by the HTTP connection (``server/net/transport/http11.py``) when
a ``GET /ws`` asks for an upgrade and the routes let it in: the handshake's headers
(:func:`handshake_head`) are fed to a ``websockets.server.ServerProtocol`` (no extension
offered: no compression; the subprotocol chosen by the server's callback), whose answer —
the 101, or a refusal — is written as it made it. From then on every byte read goes through
``receive_data``/``events_received``: text and binary messages (continuation frames
assembled; ``max_size`` enforced by the protocol, 1009 beyond) wait in a bounded inbox for
the connection's task (reading pauses while more than ``max_queue`` wait), pings are
answered, a PONG completes :meth:`ping`'s future, and a close is answered — always by
writing ``data_to_send()`` at once, and closing the transport when the protocol says so (an
empty chunk: the end) or when the peer does not finish a closing handshake within
``close_timeout`` seconds.

What the server sends goes the other way round: frames built once (``wire`` in
``server/net/transport/connection.py``) are written straight to :attr:`WebSocket.transport`, our own
transport, while :attr:`WebSocket.open` holds (after a close frame, never another frame);
only pings and the close frame are made by the protocol (:meth:`ping`, :meth:`close`).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import struct
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.typing import Subprotocol

log = logging.getLogger("kibitz.net")

#: ``select_subprotocol`` of websockets' ServerProtocol: (protocol, offered) -> chosen
Select = Callable[[Any, Sequence[Subprotocol]], Subprotocol | None]


#: the request headers a handshake is made of: no ``Sec-WebSocket-Extensions`` (no extension
#: is ever negotiated, so no compression), no cookie, no token in a query
HANDSHAKE = frozenset(
    (
        b"host",
        b"upgrade",
        b"connection",
        b"sec-websocket-key",
        b"sec-websocket-version",
        b"sec-websocket-protocol",
    )
)


def handshake_head(
    method: bytes, http_version: bytes, headers: Iterable[tuple[bytes, bytes]]
) -> bytes:
    """The head given to websockets' protocol for a request (lower-case header names):
    only what the handshake reads, since the protocol keeps it as long as the connection."""
    lines = [b"%s /ws HTTP/%s\r\n" % (method, http_version)]
    lines += [b"%s: %s\r\n" % (k, v) for k, v in headers if k in HANDSHAKE]
    return b"".join(lines) + b"\r\n"


@dataclass
class WsOptions:
    """How WebSocket connections are made (see :class:`WebSocket`)."""

    subprotocols: Sequence[Any] = ()
    select_subprotocol: Select | None = None
    max_size: int = 2**20
    max_queue: int = 16
    #: seconds the peer has to answer our close frame before the connection is cut
    close_timeout: float = 10.0


class WebSocket:
    """The server side of one WebSocket connection (see the module's doc)."""

    __slots__ = (
        "_closer",
        "_parts",
        "_ping_data",
        "_ping_sent",
        "_pings",
        "_pong",
        "_text",
        "_waiter",
        "close_code",
        "close_reason",
        "close_timeout",
        "cookie",
        "done",
        "inbox",
        "max_queue",
        "open",
        "paused",
        "protocol",
        "remote_address",
        "subprotocol",
        "transport",
    )

    def __init__(
        self,
        transport: asyncio.Transport,
        remote_address: Any,
        *,
        subprotocols: Sequence[Subprotocol] = (),
        select_subprotocol: Select | None = None,
        max_size: int = 2**20,
        max_queue: int = 16,
        close_timeout: float = 10.0,
    ) -> None:
        self.protocol = ServerProtocol(
            subprotocols=list(subprotocols),
            select_subprotocol=select_subprotocol,
            max_size=max_size,
        )
        #: the transport frames are written to (the TCP connection's, which is ours)
        self.transport: asyncio.Transport | None = transport
        self.remote_address = remote_address
        #: frames may be sent (the handshake is done and no close frame went either way)
        self.open = False
        self.subprotocol: str | None = None
        #: the handshake's Cookie header (the request itself is not kept)
        self.cookie: str | None = None
        #: the close code and reason the peer sent (None: none came)
        self.close_code: int | None = None
        self.close_reason = ""
        self.max_queue = max_queue
        self.close_timeout = close_timeout
        self.inbox: collections.deque[str | bytes] = collections.deque()
        #: no message will come any more (the connection is closing or gone)
        self.done = False
        self.paused = False
        self._waiter: asyncio.Future[None] | None = None
        #: the fragments of a message in progress, and whether it is text
        self._parts: list[bytes] | None = None
        self._text = False
        self._pong: asyncio.Future[float] | None = None
        self._ping_data = b""
        self._ping_sent = 0.0
        self._pings = 0
        self._closer: asyncio.TimerHandle | None = None

    # -- the handshake --------------------------------------------------------------------------

    def handshake(self, head: bytes) -> tuple[int, int]:
        """Answer the handshake request ``head`` (its bytes, up to the blank line): the
        status written and how many bytes; 101 opens the connection."""
        protocol = self.protocol
        protocol.receive_data(head)
        events = protocol.events_received()
        if not events:  # cannot happen with a whole head: websockets says why in the log
            protocol.send_response(protocol.reject(400, "Failed to read the handshake.\n"))
            status = 400
        else:
            response = protocol.accept(events[0])  # type: ignore[arg-type]
            protocol.send_response(response)
            status = response.status_code
            if status == 101:
                self.subprotocol = response.headers.get("Sec-WebSocket-Protocol")
                self.open = True
        return status, self._write_out()

    # -- reading ------------------------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        """Bytes from the peer: frames in, answers (pongs, a close) out."""
        protocol = self.protocol
        protocol.receive_data(data)
        events = protocol.events_received()
        for frame in events:
            if not isinstance(frame, Frame):
                continue
            opcode = frame.opcode
            if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
                if frame.fin:
                    self._deliver(opcode is Opcode.TEXT, bytes(frame.data))
                else:
                    self._parts, self._text = [bytes(frame.data)], opcode is Opcode.TEXT
            elif opcode is Opcode.CONT:
                if self._parts is not None:
                    self._parts.append(bytes(frame.data))
                    if frame.fin:
                        parts, self._parts = self._parts, None
                        self._deliver(self._text, b"".join(parts))
            elif opcode is Opcode.PONG:
                pong = self._pong
                if pong is not None and not pong.done() and frame.data == self._ping_data:
                    pong.set_result(time.monotonic() - self._ping_sent)
            elif opcode is Opcode.CLOSE:
                self.close_code = protocol.close_code
                self.close_reason = protocol.close_reason or ""
        self._write_out()
        if protocol.state is not State.OPEN:
            self.open = False
            self._finish()
        if protocol.close_expected():
            self._close_later()

    def _deliver(self, text: bool, data: bytes) -> None:
        if text:
            try:
                message: str | bytes = data.decode()
            except UnicodeDecodeError:
                self.protocol.fail(1007, "invalid UTF-8")
                return
        else:
            message = data
        self.inbox.append(message)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)
        if len(self.inbox) >= self.max_queue and not self.paused and self.transport is not None:
            self.paused = True
            self.transport.pause_reading()

    def __aiter__(self) -> WebSocket:
        return self

    async def __anext__(self) -> str | bytes:
        """The next message, in order; the iteration ends when the connection closes."""
        inbox = self.inbox
        while not inbox:
            if self.done:
                raise StopAsyncIteration
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        message = inbox.popleft()
        if self.paused and len(inbox) <= self.max_queue // 4:
            self.paused = False
            if self.transport is not None and not self.transport.is_closing():
                self.transport.resume_reading()
        return message

    def _finish(self) -> None:
        """No message will come any more: the reader's loop ends once the inbox is read."""
        self.done = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # -- writing ------------------------------------------------------------------------------

    def _write_out(self) -> int:
        """Write what the protocol has to send; an empty chunk is its end (the server
        closes the TCP connection first, once the closing handshake is done)."""
        sent = 0
        transport = self.transport
        for chunk in self.protocol.data_to_send():
            if transport is None or transport.is_closing():
                break
            if chunk:
                transport.write(chunk)
                sent += len(chunk)
            else:
                transport.close()
        return sent

    def ping(self) -> asyncio.Future[float] | None:
        """Send a ping; the future has the round trip (s) once its pong comes (None: the
        connection is not open)."""
        if not self.open:
            return None
        self._pings += 1
        self._ping_data = struct.pack("!I", self._pings & 0xFFFFFFFF)
        self._ping_sent = time.monotonic()
        self._pong = asyncio.get_running_loop().create_future()
        self.protocol.send_ping(self._ping_data)
        self._write_out()
        return self._pong

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Send a close frame (after what was written before it) and wait, at most
        ``close_timeout`` seconds, for the peer's. Idempotent."""
        self.open = False
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(code, reason)
            self._write_out()
        self._close_later()

    def abort(self) -> None:
        """Cut the connection now (what it still had to send is dropped)."""
        self.open = False
        if self.transport is not None:
            self.transport.abort()

    def _close_later(self) -> None:
        if self._closer is None and self.transport is not None:
            loop = asyncio.get_running_loop()
            self._closer = loop.call_later(self.close_timeout, self.abort)

    def lost(self) -> None:
        """The TCP connection is gone."""
        self.open = False  # the transport stays, closed (is_closing()), never written to
        if self._closer is not None:
            self._closer.cancel()
            self._closer = None
        if self.close_code is None:
            self.close_code = 1006
        self._finish()
