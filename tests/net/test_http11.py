"""The server's HTTP/1.1 layer (server/net/transport/http11.py) on real sockets, with a router of
its own (no hub): bodies, keep-alive, its bounds (each with a broken twin it catches), bad HTTP,
ndjson streams, and WebSocket upgrades on the same port (server/net/transport/websocket.py)."""

from __future__ import annotations

import asyncio
import collections
import json
import socket
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.net.transport import http11
from server.net.transport.http11 import HttpServer
from server.net.transport.http_types import Request, Response, Stream, json_answer
from server.net.transport.websocket import WebSocket, WsOptions

Reader = asyncio.StreamReader


class Echo:
    """A router answering each request with what it saw; ``/stream`` streams, ``/ws``
    lets a WebSocket in (handled by :meth:`websocket`, which echoes once ``reading``)."""

    def __init__(self) -> None:
        self.seen: list[Request] = []
        self.stream: Stream | None = None
        self.sockets: list[WebSocket] = []
        self.reading = asyncio.Event()

    async def __call__(self, request: Request) -> Response | Stream | None:
        self.seen.append(request)
        if request.path == "/ws":
            return None
        if request.path == "/stream" and self.stream is not None:
            return self.stream
        return json_answer(
            200,
            {
                "method": request.method,
                "path": request.path,
                "query": request.query,
                "body": request.body.decode(),
                "type": request.headers.get("content-TYPE"),
            },
        )

    async def websocket(self, ws: WebSocket) -> None:
        self.sockets.append(ws)
        await self.reading.wait()
        async for message in ws:
            assert ws.transport is not None
            ws.transport.write(_frame(message))


def _frame(message: str | bytes) -> bytes:
    from server.net.transport.connection import wire

    return wire(message)


@asynccontextmanager
async def serving(echo: Echo, **kw: Any) -> AsyncIterator[HttpServer]:
    ws = WsOptions(
        subprotocols=["msgpack"],
        select_subprotocol=lambda _protocol, offered: "msgpack" if "msgpack" in offered else None,
        max_size=kw.pop("max_size", 2**20),
        max_queue=kw.pop("max_queue", 16),
        close_timeout=kw.pop("close_timeout", 10.0),
    )
    server = HttpServer(echo, echo.websocket, ws, **kw)
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        server.close()
        await server.wait_closed(5)


def port_of(server: HttpServer) -> int:
    return int(server.sockets[0].getsockname()[1])


async def read_response(reader: Reader) -> tuple[int, dict[str, str], bytes]:
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    lines = head.decode().split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v for k, _, v in (line.partition(": ") for line in lines[1:] if line)}
    body = await asyncio.wait_for(reader.readexactly(int(headers.get("content-length", 0))), 5)
    return status, headers, body


def post(path: str, body: bytes, kind: str) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {kind}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body


async def test_a_json_body_and_a_form_on_one_kept_alive_connection() -> None:
    echo = Echo()
    async with serving(echo) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        writer.write(post("/a?x=1", b'{"name": "Ada"}', "application/json"))
        status, headers, body = await read_response(reader)
        assert status == 200 and "connection" not in headers  # kept alive
        seen = {"method": "POST", "path": "/a", "query": "x=1"}
        assert json.loads(body) == seen | {"body": '{"name": "Ada"}', "type": "application/json"}
        writer.write(post("/b", b"name=Ada&rated=true", "application/x-www-form-urlencoded"))
        status, _, body = await read_response(reader)
        assert status == 200 and json.loads(body)["body"] == "name=Ada&rated=true"
        assert len({id(r.conn) for r in echo.seen}) == 1  # one connection, two requests
        writer.close()


@pytest.mark.parametrize("limit", [100, 10**6], ids=["bounded", "broken-unbounded"])
async def test_a_body_over_the_limit_is_refused_413_unrouted(limit: int) -> None:
    echo = Echo()
    async with serving(echo, max_body=limit) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        writer.write(post("/a", b"x" * 200, "text/plain"))
        status, _, body = await read_response(reader)
        if limit == 100:
            assert (status, body) == (413, b"a body is at most 100 bytes\n")
            assert echo.seen == []  # the router never saw it
            assert await asyncio.wait_for(reader.read(), 5) == b""  # and the connection ends
        else:
            assert status == 200 and len(echo.seen) == 1  # what the bound stops
        writer.close()


@pytest.mark.parametrize("bounded", [True, False], ids=["bounded", "broken-unbounded"])
async def test_a_head_too_large_is_refused_431(
    bounded: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not bounded:
        monkeypatch.setattr(http11, "MAX_HEAD", 10**6)
    echo = Echo()
    async with serving(echo) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"p" * 20_000 + b"\r\n\r\n")
        status, _, body = await read_response(reader)
        if bounded:
            assert (status, body) == (431, b"bad request: the request's head is too large\n")
            assert echo.seen == []
        else:
            assert status == 200
        writer.close()


@pytest.mark.parametrize(
    "garbage",
    [
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/1.1\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
    ],
    ids=["no-request-line", "no-host", "two-lengths"],
)
async def test_bad_http_is_answered_400_with_words(garbage: bytes) -> None:
    echo = Echo()
    async with serving(echo) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        writer.write(garbage)
        status, headers, body = await read_response(reader)
        assert status == 400 and headers["connection"] == "close"
        assert body.startswith(b"bad request: ") and len(body) > 20, body
        assert echo.seen == []
        writer.close()


async def test_a_stream_sends_keepalive_newlines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http11, "KEEPALIVE", 0.1)
    closed = asyncio.Event()
    nothing = asyncio.Event()

    async def source() -> AsyncGenerator[dict[str, Any] | None]:
        yield {"type": "hello"}
        while not nothing.is_set():
            await asyncio.sleep(0.02)  # a source's own polling (as the Bot API's ticks)
            yield None

    async def on_close() -> None:
        nothing.set()
        closed.set()

    echo = Echo()
    echo.stream = Stream(source, on_close)
    async with serving(echo) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        writer.write(b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert b"application/x-ndjson" in head and b"chunked" in head.lower()
        assert await asyncio.wait_for(reader.readline(), 5) == b"11\r\n"
        assert await asyncio.wait_for(reader.readline(), 5) == b'{"type":"hello"}\n'
        assert await asyncio.wait_for(reader.readexactly(2), 5) == b"\r\n"
        assert await asyncio.wait_for(reader.readexactly(6), 5) == b"1\r\n\n\r\n"  # keep-alive
        writer.close()  # the client goes: the stream ends
        await asyncio.wait_for(closed.wait(), 5)


@pytest.mark.parametrize("limit", [256 * 1024, 10**9], ids=["bounded", "broken-unbounded"])
async def test_a_slow_reader_cuts_its_stream(limit: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http11, "MAX_BUFFER", limit)
    lines, size = 100, 128 * 1024  # 12.8 MB: more than the kernel's buffers hold
    served = 0
    closed = asyncio.Event()

    async def source() -> AsyncGenerator[dict[str, Any] | None]:
        nonlocal served
        for _ in range(lines):
            served += 1
            yield {"pad": "p" * size}

    async def on_close() -> None:
        closed.set()

    echo = Echo()
    echo.stream = Stream(source, on_close)
    async with serving(echo) as server:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port_of(server)))
        sock.setblocking(False)
        _, writer = await asyncio.open_connection(sock=sock)
        writer.write(b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        writer.transport.pause_reading()  # a client that does not read
        await asyncio.wait_for(closed.wait(), 20)
        if limit < 10**9:
            assert served < lines // 2  # cut long before its end
        else:
            assert served == lines  # what the bound stops: all of it held for the reader
        writer.close()


async def test_the_websocket_upgrade_on_the_same_port() -> None:
    echo = Echo()
    echo.reading.set()
    async with serving(echo) as server:
        port = port_of(server)
        url = f"ws://127.0.0.1:{port}/ws"
        async with connect(url, subprotocols=["msgpack"], compression="deflate") as ws:  # type: ignore[list-item]
            assert ws.subprotocol == "msgpack"
            assert "Sec-WebSocket-Extensions" not in ws.response.headers  # no compression
            await ws.send(['{"type": ', '"hello"}'])  # two frames: one message
            assert await ws.recv() == '{"type": "hello"}'
            await ws.send(b"\x81\xa1a\x01")
            assert await ws.recv() == b"\x81\xa1a\x01"
            assert await ws.ping() is not None  # answered by the protocol
        async with connect(url) as ws:  # no subprotocol offered: none chosen
            assert ws.subprotocol is None
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /ws HTTP/1.1\r\nHost: x\r\n\r\n")  # no Upgrade: websockets says so
        status, _, body = await read_response(reader)
        assert status == 426 and b"You need a WebSocket client" in body
        writer.close()


@pytest.mark.parametrize("queue", [4, 10**6], ids=["bounded", "broken-unbounded"])
async def test_reading_pauses_while_messages_wait(queue: int) -> None:
    echo = Echo()
    async with (
        serving(echo, max_queue=queue) as server,
        connect(f"ws://127.0.0.1:{port_of(server)}/ws") as client,
    ):
        for i in range(200):
            await client.send(f"{i:05d}" + "m" * 10_000)
        [ws] = echo.sockets
        for _ in range(500):  # until reading paused, or everything was read
            if ws.paused or len(ws.inbox) == 200:
                break
            await asyncio.sleep(0.01)
        if queue == 4:
            assert ws.paused and len(ws.inbox) < 100  # at most a read's worth beyond
        else:
            assert not ws.paused and len(ws.inbox) == 200
        echo.reading.set()  # the handler reads: every message comes, in order
        got = [await asyncio.wait_for(client.recv(), 5) for _ in range(200)]
        assert [int(m[:5]) for m in got] == list(range(200))


@pytest.mark.parametrize("idle", [0.3, 60.0], ids=["bounded", "broken-unbounded"])
async def test_an_idle_kept_alive_connection_is_closed(
    idle: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(http11, "IDLE_TIMEOUT", idle)
    async with serving(Echo()) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (await read_response(reader))[0] == 200
        assert await closed_within(reader, 2) is (idle < 2)
        writer.close()


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the server closes the connection (reading to its end) within ``seconds``."""
    try:
        return await asyncio.wait_for(reader.read(), seconds) == b""
    except TimeoutError:
        return False


@pytest.mark.parametrize("limit", [0.3, 60.0], ids=["bounded", "broken-unbounded"])
async def test_a_peer_that_never_answers_our_close_is_cut(limit: float) -> None:
    echo = Echo()
    async with serving(echo, close_timeout=limit) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        writer.write(
            b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        assert (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)).startswith(
            b"HTTP/1.1 101"
        )
        while not echo.sockets:
            await asyncio.sleep(0.01)
        echo.sockets[0].close(1000, "bye")  # our close frame; the peer says nothing back
        assert await asyncio.wait_for(reader.readexactly(7), 5) == b"\x88\x05\x03\xe8bye"
        assert await closed_within(reader, 2) is (limit < 2)
        writer.close()


async def test_text_that_is_not_utf8_closes_1007() -> None:
    echo = Echo()
    echo.reading.set()
    async with serving(echo) as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port_of(server))
        writer.write(
            b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        writer.write(bytes([0x81, 0x82, 0, 0, 0, 0, 0xC3, 0x28]))  # text, masked, bad UTF-8
        close = await asyncio.wait_for(reader.readexactly(4), 5)
        assert close[0] == 0x88 and int.from_bytes(close[2:4]) == 1007
        assert echo.sockets[0].inbox == collections.deque()  # nothing was handed on
        writer.close()
