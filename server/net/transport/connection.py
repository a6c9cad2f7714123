"""One client connection: codec, bounded pending output, message budget, session.

Sending never blocks the room that sends, and costs no task: a message is framed once
(:func:`wire`: a room change going to many connections is one frame, shared) from whatever
callback produced it, and every frame a connection is sent in one loop iteration goes out in
one write (a move's update and its reply to the mover: one system call). What the peer has not
read yet waits in the transport's write buffer; a client whose pending output would exceed
``Limits.send_buffer`` bytes does not read fast enough and is cut at once (its memory
freed), so a slow reader costs at most that much and never slows anybody else down.

The connection is ours (``server/net/transport/websocket.py``: websockets' Sans-I/O protocol over
our own transport), so the frames built here go straight to our own transport — no library
object is reached into. A :class:`Client` needs of its connection only what :class:`Link`
names.
"""

from __future__ import annotations

import asyncio
import logging
import struct
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from .codec import Codec

log = logging.getLogger("kibitz.net")


def wire(payload: str | bytes) -> bytes:
    """``payload`` as one final, unmasked WebSocket frame (RFC 6455 5.2: a server's frames
    are not masked; no extension is negotiated): text for ``str``, binary for ``bytes``. The
    same bytes websockets' ``Frame.serialize`` writes, built once however many read them."""
    if isinstance(payload, str):
        data, first = payload.encode(), 0x81
    else:
        data, first = payload, 0x82
    n = len(data)
    if n < 126:
        return bytes((first, n)) + data
    if n < 65536:
        return struct.pack("!BBH", first, 126, n) + data
    return struct.pack("!BBQ", first, 127, n) + data


class Link(Protocol):
    """What a :class:`Client` uses of its connection (a
    :class:`~server.net.transport.websocket.WebSocket`; a Bot API listener's HTTP connection, which
    is never ``open``)."""

    transport: asyncio.Transport | None
    remote_address: Any
    #: frames may be written to ``transport`` (no close frame went either way)
    open: bool

    def close(self, code: int, reason: str) -> None: ...


class _Flusher:
    """Writes out, once per loop iteration, every connection sent something in it: one
    callback for all of them (a callback each costs a handle and a context copy)."""

    __slots__ = ("clients", "loop")

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.clients: list[Client] = []

    def add(self, client: Client) -> None:
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # a new loop (tests run many): a batch of its own
            self.loop, self.clients = loop, []
        if not self.clients:
            loop.call_soon(self.flush, self.clients)
        self.clients.append(client)

    def flush(self, clients: list[Client]) -> None:
        if clients is self.clients:
            self.clients = []
        for client in clients:
            client._flush()


_FLUSHER = _Flusher()


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-connection limits.

    Attributes:
        max_message: largest frame answered with ``too_large`` and otherwise ignored.
        max_frame: largest frame the WebSocket layer reads at all (beyond: close 1009).
        rate: messages per second a connection may send on average...
        burst: ...and at once.
        flood_close: refused (rate-limited) messages within ``flood_window`` seconds after
            which the connection is closed (1008): sustained over-rate, not only a burst.
        flood_window: see ``flood_close``.
        send_buffer: bytes of output waiting for a slow reader before it is disconnected.
        hello_timeout: seconds a new connection has to say ``hello`` before it is closed.
        watch_max: rooms one session may watch at once (``too_many`` beyond).
    """

    max_message: int = 64 * 1024
    max_frame: int = 1024 * 1024
    rate: float = 20.0
    burst: int = 60
    flood_close: int = 200
    flood_window: float = 30.0
    send_buffer: int = 256 * 1024
    hello_timeout: float = 5.0
    watch_max: int = 50


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; each message takes one."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def due(self) -> float:
        """Seconds until a token is there (0.0: one is there now); takes nothing."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else float("inf")

    def give_back(self) -> None:
        """Return a token taken for work that was refused after all."""
        self.tokens = min(self.burst, self.tokens + 1.0)


@dataclass(eq=False, slots=True)
class Client:
    """The server side of one WebSocket connection (identity-hashed)."""

    ws: Link
    codec: Codec
    limits: Limits
    bucket: TokenBucket = field(init=False)
    #: the session secret (``hello``) and what it holds: room -> {seat: token}
    session: str | None = None
    seats: dict[str, dict[int, str]] = field(default_factory=dict)
    watching: set[str] = field(default_factory=set)
    greeted: bool = False
    #: live room changes as deltas (protocol 2) rather than full updates (protocol 1)
    deltas: bool = False
    closing: bool = False
    #: refusals since ``refused_since`` (the start of the current flood window)
    refused_in_a_row: int = 0
    refused_since: float = 0.0
    dropped: int = 0
    close_code: tuple[int, str] = (1000, "")
    #: frames written this loop iteration, not flushed yet (see :meth:`send_wire`)
    out: list[bytes] | None = None
    out_bytes: int = 0
    #: the account this connection is logged in as (``hello`` with ``auth``), None: a guest
    user: str | None = None
    #: chat messages this connection may still send (``server/net/protocol/social.py``)
    chat_bucket: TokenBucket | None = None
    #: ``history`` requests this connection may still send (each replays a whole game)
    history_bucket: TokenBucket | None = None
    #: the handshake's Cookie header (the request itself is not kept)
    cookie: str | None = None
    #: the answer to the last keepalive ping (see ``KibitzServer._keepalive``)
    pong: asyncio.Future[float] | None = None

    def __post_init__(self) -> None:
        self.bucket = TokenBucket(self.limits.rate, self.limits.burst)

    @property
    def address(self) -> str:
        """The client's address (IP), for per-address limits."""
        addr = self.ws.remote_address
        return str(addr[0]) if addr else "?"

    @property
    def peer(self) -> str:
        addr = self.ws.remote_address
        return f"{addr[0]}:{addr[1]}" if addr else "?"

    def send(self, msg: dict[str, Any]) -> None:
        """Send ``msg`` (encoded with this client's codec)."""
        self.send_wire(wire(self.codec.encode(msg)))

    def deliver(self, payload: str | bytes, frame: bytes) -> None:
        """A fan-out's message, encoded with this client's codec (``payload``) and framed
        (``frame``, built once for every listener that shares the codec): a WebSocket
        writes the frame; a listener of another kind reads the payload."""
        self.send_wire(frame)

    def send_wire(self, data: bytes) -> None:
        """Write a framed message (:func:`wire`) now; a reader too slow for it is cut."""
        if self.closing:
            return
        ws = self.ws
        transport = ws.transport
        if not ws.open or transport is None:
            return
        pending = transport.get_write_buffer_size() + self.out_bytes + len(data)
        if pending > self.limits.send_buffer:
            self.dropped += 1
            log.warning("dropping %s: it does not read what it is sent", self.peer)
            self.abort()
            return
        if self.out is None:
            self.out = [data]
            _FLUSHER.add(self)  # every frame of this loop iteration in one write
        else:
            self.out.append(data)
        self.out_bytes += len(data)

    def _flush(self) -> None:
        out, self.out, self.out_bytes = self.out, None, 0
        transport = self.ws.transport
        if (
            out
            and transport is not None
            and not transport.is_closing()
            and self.ws.open  # never a frame after a close frame
        ):
            transport.write(b"".join(out) if len(out) > 1 else out[0])

    def close(self, code: int, reason: str) -> None:
        """Close after what was sent (idempotent)."""
        if self.closing:
            return
        if self.out:  # what was sent before goes out before the close frame
            self._flush()
        self.closing = True
        self.close_code = (code, reason)
        self.ws.close(code, reason)

    def abort(self) -> None:
        """Drop the connection at once: its reader is gone or too slow to be waited for.

        A close handshake would wait behind the frames the peer does not read, so the
        transport is cut and the output it held is freed now.
        """
        self.closing = True
        self.close_code = (1008, "send buffer overflow")
        transport = self.ws.transport
        if transport is not None:
            transport.abort()

    def allow(self) -> bool:
        """Spend one message from the budget; False when the client floods. A client with
        ``flood_close`` refusals within ``flood_window`` seconds is closed — pacing just
        over the rate (refused now and then, never many in a row) floods all the same."""
        if self.bucket.take():
            return True
        now = time.monotonic()
        if now - self.refused_since > self.limits.flood_window:
            self.refused_since, self.refused_in_a_row = now, 0
        self.refused_in_a_row += 1
        if self.refused_in_a_row >= self.limits.flood_close:
            self.close(1008, "message flood")
        return False
