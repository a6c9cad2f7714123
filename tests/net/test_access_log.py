"""The access log (``kibitz serve --access-log``; server/net/transport/http11.py): one line per
request once answered — a plain answer, a POST, an ndjson stream once it ends, a WebSocket
upgrade — with method, path, status, bytes sent and milliseconds, and never a query string.
tests/test_cli.py runs it through ``kibitz serve``."""

from __future__ import annotations

import asyncio
import logging
import re
import time

import pytest

from server.net.app import KibitzServer
from server.net.transport.http_types import access_line
from server.sdk import KibitzClient

from .botapi_helpers import bot_account, get
from .test_accounts import api

ROW = re.compile(r"(GET|POST) (\S+) (\d+|-) (\d+) bytes (\d+\.\d) ms")


def test_an_access_line_drops_the_query_and_escapes_the_path() -> None:
    assert access_line("GET", "/api/games?token=s3cret&x=1", 200, 1234, 1.25) == (
        "GET /api/games 200 1234 bytes 1.2 ms"
    )
    assert access_line("GET", "/ws#frag?token=s", None, 0, 0) == "GET /ws - 0 bytes 0.0 ms"
    # a request line's odd bytes (read as ASCII with surrogate escapes)
    odd = access_line("GET", "/a b\udcff\x1b[31m%41", 404, 10, 2)
    assert odd == "GET /a%20b%FF%1B%5B31m%41 404 10 bytes 2.0 ms"
    long = access_line("GET", "/" + "x" * 5000, 404, 10, 2).split()[1]
    assert long == "/" + "x" * 199 + "..."


async def test_every_request_is_logged_once_answered(
    server: KibitzServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="kibitz.access")

    async def logged(n: int) -> list[str]:
        """The access log's lines, once it has ``n`` (a line may follow its answer)."""
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            lines = [r.getMessage() for r in caplog.records if r.name == "kibitz.access"]
            if len(lines) >= n:
                break
            await asyncio.sleep(0.05)
        return lines

    _, token = await bot_account(server, "Robo")
    await logged(4)  # register, login, a token, upgrade to a bot
    caplog.clear()
    status, _ = await get(server, f"/api/account?token={token}", token)
    assert status == 200
    status, _, _ = await api(server, "POST", "/api/login?token=s3cret", {"name": "x"})
    assert status == 401
    client = await KibitzClient.connect(server.ws_url + f"?token={token}")
    await client.close()
    # a stream is logged when it ends: here, when its client goes
    port = server.port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /api/stream/event?x={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {token}\r\n\r\n".encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    writer.close()

    lines = await logged(4)
    assert token not in caplog.text and "s3cret" not in caplog.text
    rows = [m.groups() for m in map(ROW.fullmatch, lines) if m is not None]
    assert len(rows) == len(lines) == 4, lines
    assert sorted(row[:3] for row in rows) == [  # a line may follow the next answer
        ("GET", "/api/account", "200"),
        ("GET", "/api/stream/event", "200"),
        ("GET", "/ws", "101"),
        ("POST", "/api/login", "401"),
    ]
    [streamed] = [int(row[3]) for row in rows if row[1] == "/api/stream/event"]
    assert streamed >= len(head)  # the stream's head, and what came after it
