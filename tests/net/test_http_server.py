"""The server's one port as its routes use it: a body over the limit changes nothing, the
WebSocket's refusals, and a stop that closes every kind of connection."""

from __future__ import annotations

import asyncio
import json

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.engine import Registry
from server.net.app import KibitzServer
from server.net.services.accounts import MAX_BODY

from ..conftest import serving
from .botapi_helpers import bot_account
from .test_accounts import api


async def test_a_body_over_the_limit_is_413_and_changes_nothing(server: KibitzServer) -> None:
    body = {"name": "Ada", "password": "pa55-w0rd!", "pad": "x" * MAX_BODY}
    raw = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(
        b"POST /api/register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
        b"application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(raw), raw)
    )
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert answer.endswith(b"a body is at most %d bytes\n" % MAX_BODY)
    status, _, _ = await api(server, "GET", "/api/users/Ada")
    assert status == 404  # no account was made
    del body["pad"]
    status, _, _ = await api(server, "POST", "/api/register", body)
    assert status == 201  # the same request within the limit


async def test_the_websocket_refusals_name_their_reason(server: KibitzServer) -> None:
    async def refused(path: str, headers: dict[str, str], whole: bool = True) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        lines = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        writer.write(
            f"GET {path} HTTP/1.1\r\n{lines}Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        read = reader.read() if whole else reader.readuntil(b"\r\n\r\n")
        answer = await asyncio.wait_for(read, 5)  # a refusal ends the connection
        writer.close()
        return answer

    host = f"127.0.0.1:{server.port}"
    evil = await refused("/ws", {"Host": host, "Origin": "http://evil.example"})
    assert evil.startswith(b"HTTP/1.1 403 ") and evil.endswith(b"origin not allowed\n")
    rebound = await refused("/ws", {"Host": "evil.example"})
    assert rebound.startswith(b"HTTP/1.1 421 ") and rebound.endswith(b"unknown host\n")
    ok = await refused("/ws", {"Host": host, "Origin": f"http://{host}"}, whole=False)
    assert ok.startswith(b"HTTP/1.1 101 ")


async def test_stop_closes_websockets_1001_and_ends_streams_and_idle_connections(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with serving(redis_url, prefix, registry, bot_workers=0) as srv:
        _, token = await bot_account(srv, "Robo")
        ws = await connect(srv.ws_url)
        await ws.send('{"type": "hello", "protocol": 2}')
        await ws.recv()
        stream_reader, stream_writer = await asyncio.open_connection("127.0.0.1", srv.port)
        stream_writer.write(
            f"GET /api/stream/event HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {token}\r\n\r\n".encode()
        )
        await asyncio.wait_for(stream_reader.readuntil(b"\r\n\r\n"), 5)
        idle_reader, idle_writer = await asyncio.open_connection("127.0.0.1", srv.port)
        idle_writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await asyncio.wait_for(idle_reader.readuntil(b"\r\n\r\n"), 5)  # kept alive after
        await srv.stop()
        try:
            await asyncio.wait_for(ws.recv(), 5)
        except ConnectionClosed as exc:
            assert exc.rcvd is not None and exc.rcvd.code == 1001
        else:
            raise AssertionError("the WebSocket stayed open")
        rest = await asyncio.wait_for(stream_reader.read(), 5)  # the stream ended...
        assert rest.endswith(b"0\r\n\r\n")  # ...as a whole chunked body
        await asyncio.wait_for(idle_reader.read(), 5)  # the idle connection closed
        for writer in (stream_writer, idle_writer):
            writer.close()
        await ws.close()
