"""Helpers of the analysis tests: a server whose analyses use a small budget, a finished
chess game played over the protocol, raw HTTP calls, and a wait for a game's analysis."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from typing import Any

from server.analysis.records import Tools
from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.net.services.analysis.settings import Settings
from server.net.transport.connection import Limits
from server.sdk import KibitzClient

#: 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#
SCHOLAR = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]
#: nodes per position in the tests (the blunder is found at far less)
NODES = 30_000


def settings(**more: Any) -> Settings:
    fields: dict[str, Any] = {"tools": Tools(nodes=NODES), "poll": 0.2, "lease": 3.0}
    return Settings(**(fields | more))


@contextlib.asynccontextmanager
async def analysing(
    redis_url: str, prefix: str, registry: Registry, node: str = "a1", **more: Any
) -> AsyncIterator[KibitzServer]:
    """A started server with no bots, analysing with :func:`settings` (``more``: its fields).
    It sheds load only past 5 s of loop lag (not 0.5 s): the flood test's server shares a
    loaded machine with its flood, and shedding is tested in ``tests/net/test_limits.py``."""
    cfg = Config(
        port=0,
        redis_url=redis_url,
        prefix=prefix,
        registry=registry,
        node_id=node,
        bot_workers=0,
        limits=Limits(rate=10_000, burst=10_000),
        lag_limit=5.0,
        analysis=settings(**more),
    )
    async with KibitzServer(cfg) as srv:
        yield srv


async def finished(
    srv: KibitzServer, moves: list[str], game: str = "chess", *, end: bool = True
) -> str:
    """A room of ``game`` whose two seats play ``moves`` (then seat 0 resigns, unless the
    moves ended it or ``end`` is false)."""
    a, b = await KibitzClient.connect(srv.ws_url), await KibitzClient.connect(srv.ws_url)
    try:
        room = (await a.request("create_room", game=game, seats=2))["room"]
        await a.request("take_seat", room=room, seat=0, name="Ada")
        await b.request("take_seat", room=room, seat=1, name="Bob")
        for i, move in enumerate(moves):
            await (a, b)[i % 2].request("move", room=room, move=move)
        record = (await http(srv, "GET", f"/api/rooms/{room}/record"))[1]
        if end and record.get("outcome") is None:
            await a.request("resign", room=room)
        return room
    finally:
        await a.close()
        await b.close()


def _call(
    srv: KibitzServer, method: str, path: str, headers: dict[str, str] | None
) -> tuple[int, Any, dict[str, str]]:
    req = urllib.request.Request(srv.url.rstrip("/") + path, method=method)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            status, raw, head = resp.status, resp.read(), dict(resp.headers)
    except urllib.error.HTTPError as err:
        status, raw, head = err.code, err.read(), dict(err.headers)
    is_json = head.get("Content-Type", "").startswith("application/json")
    return status, json.loads(raw) if is_json else raw.decode(), head


async def http(
    srv: KibitzServer, method: str, path: str, headers: dict[str, str] | None = None
) -> tuple[int, Any, dict[str, str]]:
    """One HTTP request over a real socket: (status, body: JSON or text, headers)."""
    return await asyncio.to_thread(_call, srv, method, path, headers)


async def analysed(srv: KibitzServer, room: str, within: float = 60.0) -> dict[str, Any]:
    """The game's analysis, once done (polled; an AssertionError after ``within`` s)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        status, body, _ = await http(srv, "GET", f"/api/rooms/{room}/analysis")
        if status == 200 and body["status"] == "done":
            return dict(body["analysis"])
        await asyncio.sleep(0.1)
    raise AssertionError(f"no analysis of {room} within {within} s")
