"""Helpers of the archiving tests: a server with an archive, games of every kind played to
their end over the protocol, and where a finished game is (Redis, the archive, both)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any

from server.archive import Archive, open_archive
from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.net.transport.connection import Limits
from server.sdk import KibitzClient, KibitzError
from server.store import Store

#: turns of random legal moves before the first seat resigns
TURNS = 6


@contextlib.asynccontextmanager
async def archived_server(
    redis_url: str, prefix: str, registry: Registry, archive: str, **config: Any
) -> AsyncIterator[KibitzServer]:
    """A server whose finished games go to ``archive`` (after an hour: tests sweep by hand)."""
    cfg = Config(
        port=0,
        redis_url=redis_url,
        prefix=prefix,
        registry=registry,
        archive=archive,
        limits=Limits(rate=10_000, burst=10_000),
        bot_workers=0,
        **config,
    )
    async with KibitzServer(cfg) as srv:
        yield srv


async def finished_game(
    srv: KibitzServer, game: str, n: int, seed: str, **create: Any
) -> tuple[str, dict[int, KibitzClient]]:
    """A room of ``game`` whose seats play a few random legal moves, then all seats but the
    last resign (or the game ends first); returns the room and its seats' clients."""
    clients = {s: await KibitzClient.connect(srv.ws_url) for s in range(n)}
    room = (await clients[0].request("create_room", game=game, seats=n, **create))["room"]
    for s, c in clients.items():
        await c.request("take_seat", room=room, seat=s, name=f"P{s}")
    rng = random.Random(seed)
    latest: dict[int, dict[str, Any]] = {}
    for seat, c in clients.items():
        latest[seat] = await c.wait_update(lambda m: m["status"] != "waiting", room=room)
    moves = 0
    while moves < TURNS * n and all(m["status"] != "over" for m in latest.values()):
        for seat, c in clients.items():  # the newest state each seat has heard of
            for msg in c.drain():
                if msg.get("type") == "update" and msg["version"] >= latest[seat]["version"]:
                    latest[seat] = msg
        movers = [s for s, m in latest.items() if m.get("legal")]
        if not movers:
            await asyncio.sleep(0.005)
            continue
        for seat in movers:
            msg = latest[seat]
            legal = msg["legal"]
            await clients[seat].request(
                "move", room=room, move=rng.choice(legal), version=msg["version"]
            )
            moves += 1
            latest[seat] = await clients[seat].wait_update(
                lambda m, v=msg["version"]: m["version"] > v, room=room
            )
    over = any(m["status"] == "over" for m in latest.values())
    for seat in list(clients)[: n - 1]:  # a game of more seats goes on until one is left
        if over:
            break
        try:
            await clients[seat].request("resign", room=room)
        except KibitzError as exc:  # the resignation before ended it
            assert exc.code == "game_over", exc
            break
    last = list(clients)[-1]
    if latest[last]["status"] != "over":
        await clients[last].wait_update(lambda m: m["status"] == "over", room=room)
    assert srv.archiver is not None
    for _ in range(200):  # the game-end hooks run after the last event: it is marked
        if room in await srv.archiver.pending():
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError(f"finished game {room} was never marked for the archive")
    return room, clients


async def where(store: Store, archive: Archive, room: str) -> tuple[bool, bool]:
    """(its log is in Redis, the archive holds it)."""
    in_redis = await store.exists(room)
    in_archive = room in await archive.versions([room])
    return in_redis, in_archive


async def assert_somewhere(store: Store, archive: Archive, room: str) -> None:
    """The invariant: a finished game is in Redis or in the archive, never in neither."""
    in_redis, in_archive = await where(store, archive, room)
    assert in_redis or in_archive, f"finished game {room} is in neither Redis nor the archive"


async def other_archive(url: str) -> Archive:
    """A second connection to the same archive (another node's)."""
    arc = open_archive(url)
    await arc.start()
    return arc
