"""A small asyncio HTTP/1.1 client for the Bot API: one request, or one ndjson stream.

h11 (a dependency) does the HTTP; asyncio's streams carry it. Kibitz answers every plain
request on a connection of its own and closes it (``server/net/botapi/wire.py``), so each
call opens a connection and sends ``Connection: close``; a stream holds its connection for
as long as it is read.

    api = ApiClient("http://127.0.0.1:8765", "kbt_...")
    me = await api.call("GET", "/api/account")
    async for line in api.stream("/api/stream/event"):   # dicts; None for a keep-alive
        ...

A refusal (status 400 and up) raises :class:`ApiError` with lichess's ``{"error": ...}``;
a server that cannot be reached, or a stream that is cut or goes quiet for longer than
``idle`` seconds (Kibitz sends a keep-alive newline every 6 s), raises :class:`Unreachable`.
A stream line longer than :data:`MAX_LINE` bytes is refused, never held.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import ssl
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import Any
from urllib.parse import urlencode, urlsplit

import h11

#: bytes one ndjson line may have (a gameFull of a long game is a few tens of KB)
MAX_LINE = 4 * 1024 * 1024
#: bytes of a plain answer's body that are read
MAX_BODY = 4 * 1024 * 1024
#: seconds a stream may be silent before it is taken for dropped (keep-alives every 6 s)
IDLE = 20.0
#: seconds to connect and to have a plain answer
TIMEOUT = 15.0


class ApiError(Exception):
    """The server refused a request: its status and lichess's ``error`` text."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message

    def __str__(self) -> str:
        return f"{self.status} {self.message}"


class Unreachable(Exception):
    """No answer: the server cannot be reached, or the connection was cut or went quiet."""


class ApiClient:
    """Requests to one Kibitz server with one API token (see the module docstring)."""

    def __init__(self, base_url: str, token: str, *, idle: float = IDLE) -> None:
        parts = urlsplit(base_url if "://" in base_url else f"http://{base_url}")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"{base_url!r} is no http:// or https:// address")
        self.base = f"{parts.scheme}://{parts.netloc}"
        self.host = parts.hostname
        self.tls = parts.scheme == "https"
        self.port = parts.port or (443 if self.tls else 80)
        self.netloc = parts.netloc
        self.prefix = parts.path.rstrip("/")
        self.token = token
        self.idle = idle

    async def call(self, method: str, path: str, form: Mapping[str, Any] | None = None) -> Any:
        """One request (``form``: a form-encoded body); the answer's JSON (None if empty)."""
        async with self._open(method, path, form) as (conn, reader, response):
            body = bytearray()
            while True:
                event = await self._next(conn, reader, TIMEOUT)
                if isinstance(event, h11.Data):
                    body += event.data
                    if len(body) > MAX_BODY:
                        raise Unreachable(f"{method} {path}: an answer over {MAX_BODY} bytes")
                elif isinstance(event, h11.EndOfMessage):
                    break
        if response.status_code >= 400:
            raise _refusal(response, bytes(body))
        return _json(bytes(body))

    async def stream(self, path: str) -> AsyncGenerator[dict[str, Any] | None]:
        """The ndjson stream at ``path``: each line's object, None for a bare newline (a
        keep-alive). It ends when the server ends the stream; a cut or a silence longer
        than ``idle`` raises :class:`Unreachable`."""
        async with self._open("GET", path, None) as (conn, reader, response):
            if response.status_code >= 400:
                body = bytearray()
                while not isinstance(
                    ev := await self._next(conn, reader, TIMEOUT), h11.EndOfMessage
                ):
                    if isinstance(ev, h11.Data) and len(body) < MAX_BODY:
                        body += ev.data
                raise _refusal(response, bytes(body))
            rest = bytearray()
            while True:
                event = await self._next(conn, reader, self.idle)
                if isinstance(event, h11.EndOfMessage):
                    return
                if not isinstance(event, h11.Data):
                    continue
                rest += event.data
                while (end := rest.find(b"\n")) >= 0:
                    if end > MAX_LINE:
                        break
                    line = bytes(rest[:end]).strip()
                    del rest[: end + 1]
                    try:
                        value = json.loads(line) if line else None
                    except ValueError:
                        raise Unreachable(f"GET {path}: a stream line is no JSON") from None
                    yield value
                if len(rest) > MAX_LINE and rest.find(b"\n", 0, MAX_LINE + 1) < 0:
                    raise Unreachable(f"GET {path}: a stream line over {MAX_LINE} bytes")

    @contextlib.asynccontextmanager
    async def _open(
        self, method: str, path: str, form: Mapping[str, Any] | None
    ) -> AsyncIterator[tuple[h11.Connection, asyncio.StreamReader, h11.Response]]:
        body = urlencode({k: str(v) for k, v in form.items()}).encode() if form else b""
        headers = [
            ("Host", self.netloc),
            ("Authorization", f"Bearer {self.token}"),
            ("User-Agent", "kibitz-bot"),
            ("Accept", "application/json, application/x-ndjson"),
            ("Connection", "close"),
            ("Content-Length", str(len(body))),
        ]
        if form:
            headers.append(("Content-Type", "application/x-www-form-urlencoded"))
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(
                    self.host, self.port, ssl=ssl.create_default_context() if self.tls else None
                ),
                TIMEOUT,
            )
        except (OSError, TimeoutError) as exc:
            raise Unreachable(f"cannot reach {self.base}: {_why(exc)}") from None
        conn = h11.Connection(h11.CLIENT)
        try:
            request = h11.Request(method=method, target=self.prefix + path, headers=headers)
            data = conn.send(request) or b""
            if body:
                data += conn.send(h11.Data(data=body)) or b""
            writer.write(data + (conn.send(h11.EndOfMessage()) or b""))
            await writer.drain()
            while not isinstance(head := await self._next(conn, reader, TIMEOUT), h11.Response):
                pass  # an informational answer (1xx)
            yield conn, reader, head
        except OSError as exc:
            raise Unreachable(f"{method} {path}: the connection failed ({_why(exc)})") from None
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    @staticmethod
    async def _next(conn: h11.Connection, reader: asyncio.StreamReader, timeout: float) -> Any:
        """The next h11 event, reading from the socket as it needs."""
        while True:
            try:
                event = conn.next_event()
            except h11.RemoteProtocolError as exc:
                if conn.their_state is h11.ERROR and "incomplete" in str(exc):
                    raise Unreachable("the connection was cut") from None
                raise Unreachable(f"the server's answer broke HTTP: {exc}") from None
            if event is not h11.NEED_DATA:
                if isinstance(event, h11.ConnectionClosed):
                    raise Unreachable("the server closed the connection")
                return event
            try:
                data = await asyncio.wait_for(reader.read(65536), timeout)
            except TimeoutError:
                raise Unreachable(f"no word from the server in {timeout:g} s") from None
            except OSError as exc:
                raise Unreachable(f"the connection failed ({_why(exc)})") from None
            conn.receive_data(data)  # b"" is the end of the connection


def _refusal(response: h11.Response, body: bytes) -> ApiError:
    value = _json(body)
    message = value.get("error") if isinstance(value, dict) else None
    return ApiError(response.status_code, str(message or response.reason.decode()))


def _json(body: bytes) -> Any:
    if not body.strip():
        return None
    try:
        return json.loads(body)
    except ValueError:
        return {"error": body[:200].decode(errors="replace").strip()}


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, OSError) and exc.errno:
        return os.strerror(exc.errno)  # asyncio's own words name no cause
    return str(exc) or type(exc).__name__


__all__ = ["IDLE", "MAX_LINE", "ApiClient", "ApiError", "Unreachable"]
