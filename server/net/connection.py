"""One client connection: codec, bounded send queue, message budget, session.

Sending never blocks the room that sends: a frame goes into a bounded queue drained by the
connection's own writer task. A client that does not read fills its queue and is
disconnected (close code 1008), so a slow reader costs at most ``send_queue`` frames of
memory and never slows anybody else down — the model is ``websockets.broadcast()``, which
skips connections that cannot take more.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection

from .codec import Codec

log = logging.getLogger("kibitz.net")


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-connection limits.

    Attributes:
        max_message: largest frame answered with ``too_large`` and otherwise ignored.
        max_frame: largest frame the WebSocket layer reads at all (beyond: close 1009).
        rate: messages per second a connection may send on average...
        burst: ...and at once.
        flood_close: after this many refused (rate-limited) messages in a row, close 1008.
        send_queue: frames waiting for a slow reader before it is disconnected.
    """

    max_message: int = 64 * 1024
    max_frame: int = 1024 * 1024
    rate: float = 20.0
    burst: int = 60
    flood_close: int = 200
    send_queue: int = 256


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; each message takes one."""

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


@dataclass(eq=False)
class Client:
    """The server side of one WebSocket connection (identity-hashed)."""

    ws: ServerConnection
    codec: Codec
    limits: Limits
    queue: asyncio.Queue[str | bytes | None] = field(init=False)
    bucket: TokenBucket = field(init=False)
    #: the session secret (``hello``) and what it holds: room -> {seat: token}
    session: str | None = None
    seats: dict[str, dict[int, str]] = field(default_factory=dict)
    watching: set[str] = field(default_factory=set)
    greeted: bool = False
    #: live room changes as deltas (protocol 2) rather than full updates (protocol 1)
    deltas: bool = False
    closing: bool = False
    refused_in_a_row: int = 0
    dropped: int = 0

    def __post_init__(self) -> None:
        self.queue = asyncio.Queue(self.limits.send_queue)
        self.bucket = TokenBucket(self.limits.rate, self.limits.burst)

    @property
    def peer(self) -> str:
        addr = self.ws.remote_address
        return f"{addr[0]}:{addr[1]}" if addr else "?"

    def send(self, msg: dict[str, Any]) -> None:
        """Queue ``msg`` (encoded with this client's codec)."""
        self.send_frame(self.codec.encode(msg))

    def send_frame(self, frame: str | bytes) -> None:
        """Queue an encoded frame; a full queue disconnects this (slow) client."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning("dropping %s: send queue full (the client does not read)", self.peer)
            self.abort()

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued (idempotent)."""
        if self.closing:
            return
        self.closing = True
        self._close_code = (code, reason)
        # wake the writer even if the queue is full: drop what a dead reader would not read
        if self.queue.full():
            while not self.queue.empty():
                self.queue.get_nowait()
        self.queue.put_nowait(None)

    def abort(self) -> None:
        """Drop the connection at once: its reader is gone or too slow to be waited for.

        A close handshake would wait behind the frames the peer does not read, so the
        transport is cut; the queue is emptied so its memory is freed now.
        """
        self.closing = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        self._close_code = (1008, "send queue overflow")
        transport = self.ws.transport
        if transport is not None:
            transport.abort()

    async def writer(self) -> None:
        """Drain the send queue into the socket until closed."""
        while True:
            frame = await self.queue.get()
            if frame is None:
                code, reason = getattr(self, "_close_code", (1000, ""))
                await self.ws.close(code, reason)
                return
            await self.ws.send(frame)

    def allow(self) -> bool:
        """Spend one message from the budget; False when the client floods."""
        if self.bucket.take():
            self.refused_in_a_row = 0
            return True
        self.refused_in_a_row += 1
        if self.refused_in_a_row >= self.limits.flood_close:
            self.close(1008, "message flood")
        return False
