"""Whole games of every kind over the WebSocket protocol, and a SIGKILL mid sealed turn."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.net.app import Config, KibitzServer
from server.net.transport.connection import Limits
from server.sdk import KibitzClient

from .test_restart import ServerProcess, running

MAX_TURNS = 400


@pytest.fixture
async def server(redis_url: str, prefix: str, registry: Any) -> AsyncIterator[KibitzServer]:
    """These clients play as fast as they can: a server with a generous message budget."""
    limits = Limits(rate=10_000, burst=10_000)
    config = Config(port=0, redis_url=redis_url, prefix=prefix, registry=registry, limits=limits)
    async with KibitzServer(config) as srv:
        yield srv


def pick(legal: list[str], rng: random.Random) -> str:
    """Captures first (games end sooner), else any legal move."""
    captures = [m for m in legal if "x" in m]
    return rng.choice(captures or legal)


async def play_out(
    clients: dict[int, KibitzClient], room: str, rng: random.Random
) -> dict[str, Any]:
    """Every seat plays random legal moves from its own updates until the game ends."""
    latest: dict[int, dict[str, Any]] = {}
    for seat, c in clients.items():
        latest[seat] = await c.wait_update(lambda m: m["status"] != "waiting", room=room)
    for _ in range(MAX_TURNS * len(clients)):
        for seat, c in clients.items():  # newest state each seat has heard of
            for msg in c.drain():
                if msg.get("type") == "update" and msg["version"] >= latest[seat]["version"]:
                    latest[seat] = msg
        if any(m["status"] == "over" for m in latest.values()):
            break
        movers = [s for s, m in latest.items() if m.get("legal")]
        if not movers:
            await asyncio.sleep(0.005)
            continue
        for seat in movers:
            msg = latest[seat]
            await clients[seat].request(
                "move", room=room, move=pick(msg["legal"], rng), version=msg["version"]
            )
            latest[seat] = await clients[seat].wait_update(
                lambda m, v=msg["version"]: m["version"] > v, room=room
            )
    else:
        await clients[0].request("resign", room=room)
    if latest[0]["status"] == "over":
        return latest[0]
    return await clients[0].wait_update(lambda m: m["status"] == "over", room=room)


async def table(
    server_ws: str, game: str, n: int, **create: Any
) -> tuple[dict[int, KibitzClient], str]:
    clients = {s: await KibitzClient.connect(server_ws) for s in range(n)}
    room = (await clients[0].request("create_room", game=game, seats=n, **create))["room"]
    for s, c in clients.items():
        await c.request("take_seat", room=room, seat=s, name=f"P{s}")
    return clients, room


@pytest.mark.parametrize(
    ("game", "n", "options"),
    [
        ("apocalypse", 2, {}),
        ("banqi", 2, {}),
        ("banqi", 2, {"variant": "chinese"}),
        ("banqi", 2, {"cannon_quiet": "step", "draw_plies": 20}),
        ("dark_chess", 2, {}),
        ("hase_und_igel", 3, {}),
    ],
)
async def test_full_game_over_the_protocol(
    server: KibitzServer, game: str, n: int, options: dict[str, Any]
) -> None:
    clients, room = await table(server.ws_url, game, n, options=options)
    spec = await KibitzClient.connect(server.ws_url, msgpack_frames=True)
    await spec.request("watch", room=room)
    end = await play_out(clients, room, random.Random(f"{game}{options}"))
    assert end["status"] == "over" and end["outcome"]["reason"]
    seen = await spec.wait_update(lambda m: m["status"] == "over", room=room)
    assert seen["outcome"] == end["outcome"]
    record = (await spec.request("record", room=room))["record"]
    assert record["outcome"] == end["outcome"] and len(record["moves"]) == end["turn"]
    for c in (*clients.values(), spec):
        await c.close()


async def test_hase_und_igel_empty_seat_filled_later(server: KibitzServer) -> None:
    a = await KibitzClient.connect(server.ws_url)
    b = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game="hase_und_igel", seats=3))["room"]
    await a.request("take_seat", room=room, name="A")
    await b.request("take_seat", room=room, name="B")
    waiting = await a.wait_update(lambda m: m["events"] and m["events"][0]["kind"] == "seat")
    assert waiting["status"] == "waiting" and waiting["to_act"] == []
    c = await KibitzClient.connect(server.ws_url)
    assert (await c.request("take_seat", room=room, name="C"))["seat"] == 2
    end = await play_out({0: a, 1: b, 2: c}, room, random.Random(3))
    assert len(end["outcome"]["ranks"]) == 3
    for x in (a, b, c):
        await x.close()


async def test_sigkill_in_the_middle_of_a_sealed_turn(redis_url: str, prefix: str) -> None:
    """Seat 0 seals its Apocalypse move; the server dies; after a restart the sealed move
    is still there (and still hidden from seat 1), and resolves the turn."""
    args = ["--redis", redis_url, "--prefix", prefix]
    first = ServerProcess(args)
    await first.start()
    try:
        clients, room = await table(first.ws, "apocalypse", 2)
        w, b = clients[0], clients[1]
        sealed = await w.request("move", room=room, move="a1b3")
        assert sealed["sealed"] is True
        sessions = (w.session, b.session)
        first.kill()
    finally:
        first.ensure_dead()
    async with running(args) as second:
        b2 = await KibitzClient.connect(second.ws, session=sessions[1])
        state_b = await b2.next_update(room)
        assert state_b["sealed"] == [0] and "your_move" not in state_b
        assert "a1b3" not in str(state_b)
        w2 = await KibitzClient.connect(second.ws, session=sessions[0])
        state_w = await w2.next_update(room)
        assert state_w["your_move"] == "a1b3" and "legal" not in state_w
        await b2.request("move", room=room, move="a5b3")  # the same square: knights collide
        done = await w2.wait_update(lambda m: m["turn"] == 1, room=room)
        assert done["sealed"] == [] and done["view"]["last_moves"] == {"0": "a1b3", "1": "a5b3"}
        assert "b3" not in done["view"]["pieces"] and done["view"]["horsemen"] == [1, 1]
        assert done["view"]["last_events"] == [
            {"type": "collision", "square": "b3", "removed": ["N", "n"]}
        ]
        await w2.close()
        await b2.close()
