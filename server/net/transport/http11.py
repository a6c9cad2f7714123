"""HTTP/1.1 on the server's one port, parsed by h11; ``/ws`` switches to a WebSocket.

Each TCP connection is one :class:`Connection` (an ``asyncio.Protocol`` made by
:class:`HttpServer`), which reads requests with h11 and hands each, whole, to the router —
a callable taking a :class:`Request` and answering a :class:`Response`, a :class:`Stream`,
or None: "a WebSocket, let it in" (then the same connection becomes a
:class:`~server.net.transport.websocket.WebSocket`, given to the server's WebSocket handler). This
module knows no route and no hub.

Bounds: a request's head is at most :data:`MAX_HEAD` bytes (beyond: 431), its body at most
the server's ``max_body`` (beyond: 413, and the router never sees it); the head and body must
come within :data:`OPEN_TIMEOUT` seconds, and the answer be made within as many (else 503);
between two requests of a kept-alive connection it may idle :data:`IDLE_TIMEOUT` seconds.
Bad HTTP is answered 400 with h11's words, and the connection closed.

A :class:`Stream` is served as a chunked ``application/x-ndjson`` response: one JSON object a
line, and a bare newline every :data:`KEEPALIVE` seconds when there is nothing new (as lichess
sends). It ends when the client goes, when the server closes, when its source ends, or when
the client reads too slowly (:data:`MAX_BUFFER` bytes unsent); the connection closes after it.

The access log (``kibitz serve --access-log``; the logger ``kibitz.access``): one INFO line per
request once it is answered — a WebSocket upgrade once accepted or refused, a stream once it
ends — ``METHOD PATH STATUS BYTES bytes MS ms`` (:func:`access_line`). The query string is
never logged: tokens travel in queries.
"""

from __future__ import annotations

import asyncio
import http
import json
import logging
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from email.utils import formatdate
from typing import Any

import h11

from .http_types import Headers, Request, Response, Router, Stream, answer, plain_error
from .http_types import access_line as access_line
from .websocket import WebSocket, WsOptions, handshake_head

log = logging.getLogger("kibitz.http")
access_log = logging.getLogger("kibitz.access")

#: bytes a request's head may have (h11's ``max_incomplete_event_size``)
MAX_HEAD = 16 * 1024
#: seconds a client has to send a request (head and body), and a plain answer to be made
OPEN_TIMEOUT = 10.0
#: seconds a kept-alive connection may wait for its next request
IDLE_TIMEOUT = 60.0
#: seconds between keep-alive newlines on an idle stream (lichess: about 6)
KEEPALIVE = 6.0
#: unsent bytes a stream may hold for a slow reader before it is cut
MAX_BUFFER = 256 * 1024
#: runs one WebSocket connection (returns when it is over)
WsHandler = Callable[[WebSocket], Awaitable[None]]


class HttpServer:
    """The listening socket and every connection it made."""

    def __init__(
        self, router: Router, on_websocket: WsHandler, ws: WsOptions, *, max_body: int = 4096
    ) -> None:
        self.router = router
        self.on_websocket = on_websocket
        self.ws = ws
        self.max_body = max_body
        self.connections: set[Connection] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.server: asyncio.Server | None = None

    async def start(self, host: str, port: int, *, reuse_port: bool = False) -> None:
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(
            lambda: Connection(self), host, port, reuse_port=reuse_port
        )

    @property
    def sockets(self) -> Sequence[Any]:
        return self.server.sockets if self.server is not None else ()

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("a connection's task failed", exc_info=task.exception())

    def close(self) -> None:
        """Stop listening; close every WebSocket (1001), end every stream, and close every
        connection once its answer is made."""
        self.closing = True
        if self.server is not None:
            self.server.close()
        for conn in list(self.connections):
            conn.shutdown()

    async def wait_closed(self, timeout: float = 10.0) -> None:
        """Wait (up to ``timeout`` s) for every connection and its task to end; cut the
        rest."""
        deadline = time.monotonic() + timeout
        while self.connections or self.tasks:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if self.tasks:
                await asyncio.wait(list(self.tasks), timeout=min(left, 0.1))
            else:
                await asyncio.sleep(min(left, 0.02))  # the last transports' callbacks
        for conn in list(self.connections):
            conn.abort()
        for task in list(self.tasks):
            task.cancel()
        if self.server is not None:
            await self.server.wait_closed()


class Connection(asyncio.Protocol):
    """One TCP connection: HTTP/1.1 requests, one at a time, or a WebSocket (module doc)."""

    __slots__ = (
        "body",
        "cancelled",
        "closing",
        "gone",
        "h11",
        "head",
        "idle",
        "open",
        "paused",
        "remote_address",
        "server",
        "streamed",
        "streaming",
        "task",
        "timer",
        "transport",
        "ws",
    )

    def __init__(self, server: HttpServer) -> None:
        self.server = server
        self.h11: h11.Connection | None = h11.Connection(
            h11.SERVER, max_incomplete_event_size=MAX_HEAD
        )
        self.transport: asyncio.Transport | None = None
        self.remote_address: Any = None
        #: the WebSocket this connection became (None: HTTP)
        self.ws: WebSocket | None = None
        #: the request being received (its head) and its body so far
        self.head: h11.Request | None = None
        self.body = bytearray()
        #: the task answering the current request (None: waiting for one)
        self.task: asyncio.Task[Any] | None = None
        self.streaming = False
        self.cancelled = False
        #: bytes of the current stream written so far (head, chunks, framing)
        self.streamed = 0
        self.gone = False
        #: close once the current answer is made
        self.closing = False
        self.paused = False
        self.timer: asyncio.TimerHandle | None = None
        self.idle = False
        #: WebSocket frames: never on an HTTP connection (see connection.Link)
        self.open = False

    # -- asyncio.Protocol -----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.remote_address = transport.get_extra_info("peername")
        self.server.connections.add(self)
        if self.server.closing:
            transport.close()
            return
        self._arm(OPEN_TIMEOUT)

    def data_received(self, data: bytes) -> None:
        if self.ws is not None:
            self.ws.receive(data)
            return
        if self.h11 is None:
            return
        if self.idle:  # a new request begins: its head and body have OPEN_TIMEOUT
            self.idle = False
            self._arm(OPEN_TIMEOUT)
        self.h11.receive_data(data)
        if self.task is None:
            self._process()
        elif not self.paused and self.transport is not None:
            # a request is being answered: what comes meanwhile waits, bounded
            self.paused = True
            self.transport.pause_reading()

    def eof_received(self) -> bool | None:
        if self.ws is not None:
            return None  # a WebSocket peer that half-closes is gone
        if self.h11 is not None:
            self.h11.receive_data(b"")
        if self.task is not None and not self.streaming:
            self.closing = True
            return True  # answer what was asked, then close
        self._cancel_stream()
        if self.task is None:
            self._process()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone = True
        self.server.connections.discard(self)
        if self.timer is not None:
            self.timer.cancel()
        if self.ws is not None:
            self.ws.lost()
        self._cancel_stream()

    # -- receiving requests -----------------------------------------------------------------

    def _arm(self, seconds: float) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(seconds, self._timed_out)

    def _timed_out(self) -> None:
        self.timer = None
        if self.task is None and self.transport is not None:
            self.transport.close()  # a request never came (whole), or the next one

    def _process(self) -> None:
        """Read the events h11 has, up to one whole request (then answer it)."""
        conn = self.h11
        while conn is not None and self.task is None and not self.gone:
            try:
                event = conn.next_event()
            except h11.RemoteProtocolError as exc:
                status = exc.error_status_hint
                words = "the request's head is too large" if status == 431 else str(exc)
                self._refuse(status, f"bad request: {words}\n")
                return
            if event is h11.NEED_DATA or event is h11.PAUSED:
                return
            if isinstance(event, h11.Request):
                self.head, self.body = event, bytearray()
                # h11 bounds a head still coming in; one that came whole is measured here
                size = len(event.target) + sum(len(k) + len(v) + 4 for k, v in event.headers)
                if size > MAX_HEAD:
                    self._refuse(431, "bad request: the request's head is too large\n")
                    return
                length = next((v for k, v in event.headers if k == b"content-length"), None)
                if length is not None and int(length) > self.server.max_body:
                    self._refuse(413, f"a body is at most {self.server.max_body} bytes\n")
                    return
                if conn.they_are_waiting_for_100_continue:
                    self._write(conn.send(h11.InformationalResponse(status_code=100, headers=[])))
            elif isinstance(event, h11.Data):
                self.body += event.data
                if len(self.body) > self.server.max_body:
                    self._refuse(413, f"a body is at most {self.server.max_body} bytes\n")
                    return
            elif isinstance(event, h11.EndOfMessage):
                if self.timer is not None:
                    self.timer.cancel()
                    self.timer = None
                self.task = self.server.spawn(self._answer())
            elif isinstance(event, h11.ConnectionClosed):
                self._close()
                return

    def _refuse(self, status: int, text: str) -> None:
        """Answer ``status`` and close: the request cannot be read on."""
        self._write(plain_error(status, text))
        self.h11 = None
        self._close()

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def _close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    # -- answering --------------------------------------------------------------------------

    def _request(self, head: h11.Request) -> Request:
        headers = Headers([(k.decode("latin-1"), v.decode("latin-1")) for k, v in head.headers])
        target = head.target.decode("ascii", "surrogateescape")
        method = head.method.decode("ascii")
        return Request(method, target, headers, bytes(self.body), self.remote_address, self)

    async def _answer(self) -> None:
        head = self.head
        assert head is not None
        request = self._request(head)
        self.body = bytearray()
        started = time.monotonic()
        status: int | None = None
        sent = 0
        try:
            try:
                async with asyncio.timeout(OPEN_TIMEOUT):
                    reply = await self.server.router(request)
            except TimeoutError:
                reply = answer(503, "the answer took too long; try again\n")
            except Exception:  # a 500, the details in the log only
                log.exception("answering %s %s failed", request.method, request.path)
                reply = answer(500, "internal server error\n")
            if reply is None:
                status, sent = self._upgrade(head)
                return
            if isinstance(reply, Stream):
                status, self.streaming, self.streamed = 200, True, 0
                await self._serve_stream(reply)
                sent = self.streamed
            else:
                if "upgrade" in request.headers:  # a refused upgrade: the connection ends
                    self.closing = True
                status, sent = reply.status, self._send(reply, request.method == "HEAD")
        finally:
            if access_log.isEnabledFor(logging.INFO):
                ms = (time.monotonic() - started) * 1000
                access_log.info(access_line(request.method, request.target, status, sent, ms))
            self.head = None
            if self.ws is None:
                self._next()

    def _send(self, reply: Response, head_only: bool) -> int:
        conn = self.h11
        if conn is None or self.gone:
            return 0
        headers = [("Date", formatdate(usegmt=True)), *reply.headers]
        headers.append(("Content-Length", str(len(reply.body))))
        if self.closing or self.server.closing:
            headers.append(("Connection", "close"))
        phrase = http.HTTPStatus(reply.status).phrase
        out = conn.send(h11.Response(status_code=reply.status, headers=headers, reason=phrase))
        if reply.body and not head_only:
            out += conn.send(h11.Data(data=reply.body))
        out += conn.send(h11.EndOfMessage())
        self._write(out)
        return len(out)

    def _next(self) -> None:
        """The answer is made: read the next request, or close."""
        self.task = None
        self.streaming = False
        conn = self.h11
        if self.gone:
            return
        if (
            conn is None
            or self.closing
            or self.server.closing
            or conn.our_state is not h11.DONE
            or conn.their_state is not h11.DONE
        ):
            self._close()
            return
        conn.start_next_cycle()
        self.idle = True
        self._arm(IDLE_TIMEOUT)
        if self.paused and self.transport is not None:
            self.paused = False
            self.transport.resume_reading()
        self._process()

    def shutdown(self) -> None:
        """The server closes (:meth:`HttpServer.close`)."""
        if self.ws is not None:
            self.ws.close(1001, "")
        elif self.task is None:
            self._close()
        else:
            self.closing = True  # a stream ends at its next line; an answer is made first

    def abort(self) -> None:
        if self.transport is not None:
            self.transport.abort()

    def close(self, code: int = 1000, reason: str = "") -> None:
        """What a room listener's ``close`` does on an HTTP connection: close it once the
        current answer is made."""
        self.closing = True

    def _cancel_stream(self) -> None:
        """The client went: end its stream (once: its ``on_close`` must run whole)."""
        if self.streaming and self.task is not None and not self.cancelled:
            self.cancelled = True
            self.task.cancel()

    # -- streams ----------------------------------------------------------------------------

    async def _serve_stream(self, stream: Stream) -> None:
        """Serve ``stream`` (the bytes written are counted in :attr:`streamed`)."""
        conn = self.h11
        assert conn is not None
        self.closing = True  # the connection closes after a stream
        headers = [
            ("Date", formatdate(usegmt=True)),
            ("Content-Type", "application/x-ndjson"),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Connection", "close"),
        ]
        try:
            head = conn.send(h11.Response(status_code=200, headers=headers, reason=b"OK"))
            self._write(head)
            self.streamed += len(head)
            source = stream.source()
            try:
                await self._lines(conn, source)
            finally:
                await source.aclose()
                transport = self.transport
                if not self.gone and transport is not None and not transport.is_closing():
                    end = conn.send(h11.EndOfMessage())
                    transport.write(end)
                    self.streamed += len(end)
        except asyncio.CancelledError:
            pass  # the client went (cancelled once only: on_close runs whole)
        finally:
            if stream.on_close is not None:
                await stream.on_close()

    async def _lines(self, conn: h11.Connection, source: AsyncGenerator[Any]) -> None:
        """Write the source's lines until the stream must end."""
        last = time.monotonic()
        async for item in source:
            if self.gone or self.server.closing:
                break
            if item is None:
                if time.monotonic() - last < KEEPALIVE:
                    continue
                data = b"\n"
            else:
                data = json.dumps(item, separators=(",", ":")).encode() + b"\n"
            transport = self.transport
            if transport is None or transport.is_closing():
                break
            if transport.get_write_buffer_size() + len(data) > MAX_BUFFER:
                transport.abort()  # too slow a reader: what it holds is freed
                break
            chunk = conn.send(h11.Data(data=data))
            transport.write(chunk)
            self.streamed += len(chunk)
            last = time.monotonic()

    # -- the WebSocket ----------------------------------------------------------------------

    def _upgrade(self, head: h11.Request) -> tuple[int, int]:
        """Hand the request to a WebSocket (its handshake answers; 101 opens it)."""
        conn, transport = self.h11, self.transport
        if conn is None or transport is None or self.gone:
            return 0, 0
        options = self.server.ws
        ws = WebSocket(
            transport,
            self.remote_address,
            subprotocols=options.subprotocols,
            select_subprotocol=options.select_subprotocol,
            max_size=options.max_size,
            max_queue=options.max_queue,
            close_timeout=options.close_timeout,
        )
        status, sent = ws.handshake(handshake_head(head.method, head.http_version, head.headers))
        if status != 101:
            self.h11 = None
            self._close()
            return status, sent
        trailing = conn.trailing_data[0] if conn.their_state is h11.MIGHT_SWITCH_PROTOCOL else b""
        self.h11 = None  # HTTP is over on this connection
        ws.cookie = next((v.decode("latin-1") for k, v in head.headers if k == b"cookie"), None)
        self.ws = ws
        self.task = None
        if self.paused:
            self.paused = False
            transport.resume_reading()
        self.server.spawn(self._run(ws))
        if trailing:
            ws.receive(trailing)
        return status, sent

    async def _run(self, ws: WebSocket) -> None:
        try:
            await self.server.on_websocket(ws)
        finally:
            ws.close(1000, "")
