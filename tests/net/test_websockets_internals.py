"""What the server takes from websockets beyond its documented API still holds.

``server/net/connection.py`` names each internal it uses (and ``accounts.py`` its body-reading
protocol); pyproject.toml pins websockets to the major version they were read from. Each
test here fails with the internal's name when a release changes it, on real sockets.
"""

from __future__ import annotations

import asyncio
import re
import tomllib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import websockets
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.protocol import CONNECTING
from websockets.server import ServerProtocol

from server.net.connection import HANDSHAKE_DONE, forget_handshake, wire

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def pinned_majors() -> tuple[int, int]:
    """The websockets requirement's bounds: ``>=N`` and ``<M`` as (N, M)."""
    deps = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    (spec,) = [d for d in deps if re.match(r"websockets\b", d)]
    found = re.fullmatch(r"websockets>=(\d+)(?:\.\d+)*,<(\d+)", spec.replace(" ", ""))
    assert found, f"websockets must be pinned to one major version in pyproject.toml: {spec!r}"
    return int(found[1]), int(found[2])


def test_websockets_is_pinned_to_the_installed_major_version() -> None:
    low, high = pinned_majors()
    assert high == low + 1, "the pin spans more than the one major version the internals hold in"
    major = int(websockets.__version__.split(".")[0])
    assert low <= major < high, (
        f"websockets {websockets.__version__} is installed, pyproject.toml pins >={low},<{high}"
    )


async def served(
    handler: Callable[[ServerConnection], Awaitable[None]],
    client: Callable[[Any], Awaitable[None]],
) -> None:
    async with serve(handler, "127.0.0.1", 0, compression=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}/ws", compression=None) as ws:
            await asyncio.wait_for(client(ws), 10)


async def test_connection_transport_takes_our_frames() -> None:
    """``Connection.transport``: the asyncio transport frames built once are written to."""
    seen: list[str] = []

    async def handler(ws: ServerConnection) -> None:
        transport = getattr(ws, "transport", None)
        for name in ("write", "get_write_buffer_size", "is_closing", "abort"):
            if not callable(getattr(transport, name, None)):
                seen.append(f"websockets' Connection.transport has no {name}()")
        if not seen:
            assert transport is not None
            size = transport.get_write_buffer_size()
            if not isinstance(size, int):
                seen.append("Connection.transport.get_write_buffer_size() is not an int")
            transport.write(wire("one") + wire(b"two"))  # two frames in one write
        await ws.wait_closed()

    async def client(ws: Any) -> None:
        assert [await ws.recv(), await ws.recv()] == ["one", b"two"], seen

    await served(handler, client)
    assert seen == []


async def test_a_forgotten_handshake_still_reads_frames() -> None:
    """``ServerConnection.process_event`` tells the handshake from later frames by
    ``request`` being None: after :func:`forget_handshake` (a shared empty request, the
    response dropped) the connection reads and answers frames as before."""
    cookies: list[str | None] = []

    async def handler(ws: ServerConnection) -> None:
        cookies.append(forget_handshake(ws))
        assert ws.request is HANDSHAKE_DONE and ws.response is None
        async for message in ws:
            await ws.send(message)

    async def client(ws: Any) -> None:
        for text in ("a", "b"):
            await ws.send(text)
            reply = await ws.recv()
            assert reply == text, (
                "ServerConnection.process_event no longer tells frames from the handshake "
                "by `request is None`: forget_handshake broke the connection"
            )

    async with serve(handler, "127.0.0.1", 0, compression=None) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        headers = {"Cookie": "kibitz_token=abc"}
        async with connect(f"ws://127.0.0.1:{port}/ws", additional_headers=headers) as ws:
            await asyncio.wait_for(client(ws), 10)
    assert cookies == ["kibitz_token=abc"]


async def test_the_handshake_check_can_fail() -> None:
    """Setting ``request`` to None (what forget_handshake must never do) breaks the next
    frame: the dependency the test above holds is real."""

    async def handler(ws: ServerConnection) -> None:
        ws.request = None
        async for message in ws:
            await ws.send(message)

    async def client(ws: Any) -> None:
        await ws.send("a")
        try:
            await ws.recv()
        except ConnectionClosed:
            return
        raise AssertionError("a frame after request = None was read as a frame")

    await served(handler, client)


def test_the_body_reading_protocol_finds_what_it_reads() -> None:
    """``server/net/accounts.py``'s ``BodyProtocol`` reads a POST body ahead of websockets'
    parser: it relies on ``ServerProtocol.parse`` (a generator), ``protocol.parser``,
    ``protocol.reader.buffer`` (a bytearray) and ``.eof``, and the CONNECTING state."""
    protocol = ServerProtocol()
    missing = []
    if not hasattr(ServerProtocol, "parse"):
        missing.append("ServerProtocol.parse")
    if not hasattr(getattr(protocol, "parser", None), "send"):
        missing.append("ServerProtocol.parser (a generator)")
    reader = getattr(protocol, "reader", None)
    if not isinstance(getattr(reader, "buffer", None), bytearray):
        missing.append("ServerProtocol.reader.buffer (a bytearray)")
    if not isinstance(getattr(reader, "eof", None), bool):
        missing.append("ServerProtocol.reader.eof")
    if protocol.state is not CONNECTING:
        missing.append("a new ServerProtocol's state CONNECTING")
    assert missing == [], f"websockets changed what BodyProtocol reads: {missing}"
