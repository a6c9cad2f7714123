"""The Bot API's HTTP plumbing: lichess's error bodies, request bodies, and ndjson streams.

websockets answers a plain HTTP request with one whole response and then half-closes the
connection, which cannot carry a stream. :class:`StreamingConnection` (the server's
``create_connection``) therefore runs ``process_request`` itself: an ordinary answer goes on
to websockets as before, while a :class:`Stream` is served here, after the handshake's
timeout, as a chunked ``application/x-ndjson`` response on the connection's transport — one
JSON object a line, and a bare newline every :data:`KEEPALIVE` seconds as lichess sends.
The stream ends when the client goes, when the server closes, when its source ends, or when
the client reads too slowly (:data:`MAX_BUFFER` bytes unsent).

Since every request on the port passes through :class:`StreamingConnection`, it also writes
the access log (``kibitz serve --access-log``; the logger ``kibitz.access``): one INFO line
per request once it is answered — a WebSocket upgrade once it is accepted or refused, a
stream once it ends — ``METHOD PATH STATUS BYTES bytes MS ms`` (:func:`access_line`). The
query string is never logged: tokens travel in queries.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from email.utils import formatdate
from typing import Any
from urllib.parse import parse_qs, quote

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ..accounts import ApiConnection, respond

log = logging.getLogger("kibitz.botapi")
access_log = logging.getLogger("kibitz.access")

#: seconds between keep-alive newlines on an idle stream (lichess: about 6)
KEEPALIVE = 6.0
#: unsent bytes a stream may hold for a slow reader before it is cut
MAX_BUFFER = 256 * 1024
#: seconds a client has to send its request (and a plain answer to be made)
OPEN_TIMEOUT = 10.0
#: how often a stream looks whether the server is closing
POLL = 0.5
#: characters of a path the access log keeps
ACCESS_PATH = 200

#: a stream's source: yields dicts (a line each) or None (nothing new: a keep-alive is due)
Source = Callable[[], AsyncGenerator[dict[str, Any] | None]]


class BotApiError(Exception):
    """A refused request: its status and lichess's body ``{"error": message}``
    (``retry_after``: whole seconds, sent as ``Retry-After``; ``headers``: more to send)."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        retry_after: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after
        self.headers = headers or {}


@dataclasses.dataclass(kw_only=True)
class Stream(Response):
    """process_request's answer for an ndjson stream: ``source`` is run once served (a
    :class:`Response` whose head :class:`StreamingConnection` writes itself)."""

    source: Source
    on_close: Callable[[], Awaitable[None]] | None = None


def stream(source: Source, on_close: Callable[[], Awaitable[None]] | None = None) -> Stream:
    return Stream(200, "OK", Headers(), source=source, on_close=on_close)


def json_response(conn: ServerConnection, status: int, data: Any) -> Response:
    """A JSON answer with the headers of every JSON answer of ours (:func:`..accounts.respond`)."""
    return respond(conn, status, data)


def content_response(conn: ServerConnection, status: int, body: bytes, kind: str) -> Response:
    """An answer of another type (PGN, ndjson) with the headers of every answer of ours."""
    response = json_response(conn, status, None)
    del response.headers["Content-Type"]
    del response.headers["Content-Length"]
    response.headers["Content-Type"] = kind
    response.headers["Content-Length"] = str(len(body))
    return dataclasses.replace(response, body=body)


def error_response(conn: ServerConnection, exc: BotApiError) -> Response:
    response = json_response(conn, exc.status, {"error": exc.message})
    if exc.retry_after is not None:
        response.headers["Retry-After"] = str(exc.retry_after)
    for name, value in exc.headers.items():
        response.headers[name] = value
    return response


def base_url(request: Request) -> str:
    """This server's address as the client named it, for the absolute ``url`` fields
    lichess sends: ``http://`` and the request's ``Host`` (checked against the allowed
    hosts before any route runs), ``https://`` behind a proxy that says
    ``X-Forwarded-Proto: https``; it ends with ``/``."""
    scheme = "https" if request.headers.get("X-Forwarded-Proto") == "https" else "http"
    return f"{scheme}://{request.headers.get('Host', 'localhost')}/"


def form(conn: ServerConnection, request: Request) -> dict[str, str]:
    """A POST's fields: a JSON object (berserk) or ``application/x-www-form-urlencoded``
    (lichess-bot, curl), plus the query string; null JSON values are left out."""
    body = getattr(conn.protocol, "body", b"")
    fields: dict[str, str] = {}
    query = request.path.partition("?")[2]
    sources = [query]
    if body:
        kind = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind == "application/json":
            try:
                data = json.loads(body)
            except (ValueError, UnicodeDecodeError):
                raise BotApiError(400, "the body is not valid JSON") from None
            if not isinstance(data, dict):
                raise BotApiError(400, "the body must be a JSON object")
            for key, value in data.items():
                if value is None:
                    continue
                if isinstance(value, bool):
                    value = "true" if value else "false"
                if not isinstance(value, str | int | float):
                    raise BotApiError(400, f"{key}: must be a string or a number")
                fields[str(key)] = str(value)
        else:
            try:
                sources.append(body.decode())
            except UnicodeDecodeError:
                raise BotApiError(400, "the body is not UTF-8") from None
    for text in sources:
        try:
            parsed = parse_qs(text, keep_blank_values=True, strict_parsing=False)
        except ValueError:
            raise BotApiError(400, "the form could not be read") from None
        for key, values in parsed.items():
            fields[key] = values[-1]
    return fields


def access_line(method: str, target: str, status: int | None, sent: int, ms: float) -> str:
    """One access-log line: ``GET /api/games 200 1234 bytes 1.5 ms`` (status ``-``: no
    answer was made, the handshake timed out). ``target`` is the request's path with its
    query, which is dropped; the path is cut to :data:`ACCESS_PATH` characters, and any
    byte outside printable ASCII is written ``%XX``."""
    path = target.partition("?")[0].partition("#")[0]
    path = quote(path.encode("utf-8", "surrogateescape"), safe="/:@!$&'()*+,;=-._~%")
    if len(path) > ACCESS_PATH:
        path = path[:ACCESS_PATH] + "..."
    return f"{method} {path} {'-' if status is None else status} {sent} bytes {ms:.1f} ms"


class StreamingConnection(ApiConnection):
    """:class:`ApiConnection` that can also answer with an ndjson :class:`Stream`.

    The server is started with ``open_timeout=None``: this class times the handshake
    (:data:`OPEN_TIMEOUT`) itself, and only the handshake — a stream is not one. It writes
    the access log too (see the module docstring)."""

    #: when the request had come in (None: not yet)
    request_at: float | None = None
    #: the answer was a stream, and the bytes of it written so far (head, chunks, framing)
    streaming = False
    streamed = 0

    async def handshake(self, process_request: Any = None, *args: Any, **kwargs: Any) -> None:
        try:
            await self._answer(process_request, *args, **kwargs)
        finally:
            if self.request_at is not None and access_log.isEnabledFor(logging.INFO):
                self._log_access(time.monotonic() - self.request_at)

    def _log_access(self, seconds: float) -> None:
        assert self.request is not None
        status: int | None = None
        sent = 0
        if self.streaming:
            status, sent = 200, self.streamed
        elif self.response is not None:
            status, sent = self.response.status_code, len(self.response.serialize())
        method, target = self.request.method, self.request.path
        access_log.info(access_line(method, target, status, sent, seconds * 1000))

    async def _answer(self, process_request: Any, *args: Any, **kwargs: Any) -> None:
        stream: Stream | None = None
        async with asyncio.timeout(OPEN_TIMEOUT):
            await asyncio.wait(
                [self.request_rcvd, self.connection_lost_waiter],
                return_when=asyncio.FIRST_COMPLETED,
            )
            if self.request is not None:
                self.request_at = time.monotonic()
            if self.request is None or process_request is None:
                await super().handshake(process_request, *args, **kwargs)
                return
            try:
                answer = process_request(self, self.request)
                if isinstance(answer, Awaitable):
                    answer = await answer
            except Exception:  # as websockets does: a 500, the details in the log only
                log.exception("process_request failed")
                answer = self.respond(500, "internal server error\n")
            if not isinstance(answer, Stream):
                await super().handshake(lambda _c, _r: answer, *args, **kwargs)
                return
            stream = answer
        self.streaming = True
        try:
            await self.serve_stream(stream)
        finally:
            if stream.on_close is not None:
                await stream.on_close()

    def write_chunk(self, data: bytes) -> bool:
        """Write one chunk; False when the stream must end (client gone or too slow)."""
        transport = self.transport
        if transport.is_closing() or self.connection_lost_waiter.done():
            return False
        if transport.get_write_buffer_size() + len(data) > MAX_BUFFER:
            return False
        chunk = b"%x\r\n%s\r\n" % (len(data), data)
        transport.write(chunk)
        self.streamed += len(chunk)
        return True

    async def serve_stream(self, stream: Stream) -> None:
        head = (
            "HTTP/1.1 200 OK\r\n"
            f"Date: {formatdate(usegmt=True)}\r\n"
            "Content-Type: application/x-ndjson\r\n"
            "Transfer-Encoding: chunked\r\n"
            "Connection: close\r\n"
            "Cache-Control: no-store\r\n"
            "X-Content-Type-Options: nosniff\r\n\r\n"
        )
        self.transport.write(head.encode())
        self.streamed += len(head)
        source = stream.source()
        last = time.monotonic()
        try:
            async for item in source:
                if not self.server.is_serving() or self.connection_lost_waiter.done():
                    return
                if item is None:
                    if time.monotonic() - last < KEEPALIVE:
                        continue
                    data = b"\n"
                else:
                    data = json.dumps(item, separators=(",", ":")).encode() + b"\n"
                if not self.write_chunk(data):
                    return
                last = time.monotonic()
        finally:
            await source.aclose()
            if not self.transport.is_closing():
                self.transport.write(b"0\r\n\r\n")
                self.streamed += 5
                await self.drained()

    async def drained(self, limit: float = 5.0) -> None:
        """Wait (up to ``limit`` s) until what was written went out: the server aborts the
        transport after the handshake, which drops unsent bytes."""
        deadline = time.monotonic() + limit
        while self.transport.get_write_buffer_size() and time.monotonic() < deadline:
            if self.connection_lost_waiter.done():
                return
            await asyncio.sleep(0.02)


async def ticks(wake: asyncio.Event, alive: Callable[[], bool]) -> AsyncIterator[None]:
    """Yield whenever ``wake`` is set, and every :data:`POLL` seconds, while ``alive()``."""
    while alive():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), POLL)
        wake.clear()
        yield None
