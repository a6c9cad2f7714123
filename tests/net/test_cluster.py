"""Several nodes on one Redis: any node serves any room; a dead host's rooms move on."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator

import pytest

from server.engine import Registry
from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError
from server.store import Store

from ..conftest import two_nodes as nodes_of_two
from .test_restart import ServerProcess


@pytest.fixture
async def two_nodes(
    redis_url: str, prefix: str, registry: Registry
) -> AsyncIterator[tuple[KibitzServer, KibitzServer]]:
    async with nodes_of_two(redis_url, prefix, registry) as pair:
        yield pair


async def test_players_on_two_nodes_play_to_the_end(
    two_nodes: tuple[KibitzServer, KibitzServer],
) -> None:
    n1, n2 = two_nodes
    a = await KibitzClient.connect(n1.ws_url)
    b = await KibitzClient.connect(n2.ws_url)
    spec = await KibitzClient.connect(n2.ws_url, msgpack_frames=True)
    assert a.welcome["node"] == "n1" and b.welcome["node"] == "n2"
    room = (await a.request("create_room", game="chess"))["room"]
    assert n1.hub is not None and room in n1.hub.rooms  # the creating node hosts it
    rooms = (await b.request("list_rooms"))["rooms"]
    assert room in [r["room"] for r in rooms]  # the lobby spans the nodes
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await b.request("take_seat", room=room, seat=1, name="Bob")  # forwarded to n1
    await spec.request("watch", room=room)
    for c, mv in [(a, "f2f3"), (b, "e7e5"), (a, "g2g4"), (b, "d8h4")]:
        await c.request("move", room=room, move=mv)
    for c in (a, b, spec):
        end = await c.wait_update(lambda m: m["status"] == "over", room=room)
        assert end["outcome"]["reason"] == "checkmate" and end["outcome"]["winner"] == 1
    assert n2.hub is not None and room not in n2.hub.rooms  # n2 only relayed
    record = (await b.request("record", room=room))["record"]
    assert len(record["moves"]) == 4
    for c in (a, b, spec):
        await c.close()


async def test_a_stale_host_cannot_append(
    two_nodes: tuple[KibitzServer, KibitzServer], redis_url: str, prefix: str
) -> None:
    """n1 loses its lease (as if paused); n2 takes the room over; n1's next append is
    refused by the lease check, n1 lets the room go, and the retry lands on n2."""
    n1, n2 = two_nodes
    assert n1.hub is not None and n2.hub is not None
    a = await KibitzClient.connect(n1.ws_url)
    b = await KibitzClient.connect(n2.ws_url)
    room = (await a.request("create_room", game="chess"))["room"]
    token = (await a.request("take_seat", room=room, seat=0, name="Ada"))["token"]
    await b.request("take_seat", room=room, seat=1, name="Bob")
    stale = n1.hub.rooms[room]
    # the lease expires while n1 is "asleep", and n2 takes the room over
    store = Store.from_url(redis_url, prefix=prefix)
    await store.redis.delete(f"{prefix}lease:{room}")
    assert await n2.hub.hosting.take_over(room) is not None
    version = await store.version(room)
    # n1 wakes up still holding its old copy and tries to act on it: refused
    with pytest.raises(Exception) as err:
        await n1.hub.run(stale, lambda r: r.move(0, token, "e2e4", 0.0))
    assert getattr(err.value, "code", "") == "unavailable"
    assert room not in n1.hub.rooms and await store.version(room) == version
    # the client on n1 simply goes on: its move is forwarded to the new host
    await a.request_while_unavailable("move", room=room, move="e2e4")
    seen = await b.wait_update(lambda m: m["turn"] == 1, room=room)
    assert seen["view"]["last_move"] == "e2e4"
    assert await store.version(room) == version + 1  # applied once
    await store.close()
    await a.close()
    await b.close()


async def test_killing_the_host_moves_the_game_to_the_other_node(
    redis_url: str, prefix: str
) -> None:
    """SIGKILL of the hosting node mid-game: after the lease expires the other node hosts
    the room from its log; both players go on (one reconnects) with nothing lost or doubled."""
    common = ["--redis", redis_url, "--prefix", prefix, "--lease-ms", "1000", "--bot-workers", "0"]
    n1 = ServerProcess([*common, "--node-id", "n1"])
    n2 = ServerProcess([*common, "--node-id", "n2"])
    await n1.start()
    await n2.start()
    try:
        a = await KibitzClient.connect(n1.ws)
        b = await KibitzClient.connect(n2.ws)
        spec = await KibitzClient.connect(n2.ws)
        room = (await a.request("create_room", game="chess"))["room"]
        await a.request("take_seat", room=room, seat=0, name="Ada")
        await b.request("take_seat", room=room, seat=1, name="Bob")
        await spec.request("watch", room=room)
        await a.request("move", room=room, move="f2f3")
        await b.request("move", room=room, move="e7e5")
        session_a = a.session
        n1.kill()  # the host dies; Ada's connection with it
        await asyncio.wait_for(a.closed.wait(), 10)
        a2 = await KibitzClient.connect(n2.ws, session=session_a, since={room: 5})
        await a2.request_while_unavailable("move", room=room, move="g2g4")
        await b.request_while_unavailable("move", room=room, move="d8h4")
        for c in (a2, b, spec):
            end = await c.wait_update(lambda m: m["status"] == "over", room=room, timeout=15)
            assert end["outcome"]["reason"] == "checkmate"
        record = (await b.request("record", room=room))["record"]
        played = [next(iter(t["moves"].values())) for t in record["moves"]]
        assert played == ["f2f3", "e7e5", "g2g4", "d8h4"]
        for c in (a2, b, spec):
            await c.close()
    finally:
        n1.ensure_dead()
        n2.ensure_dead()


async def test_a_paused_host_that_wakes_up_cannot_write(redis_url: str, prefix: str) -> None:
    """SIGSTOP the host past its lease; the other node takes over; SIGCONT: the old host's
    queued work is refused by the log, and the game has every move exactly once."""
    common = ["--redis", redis_url, "--prefix", prefix, "--lease-ms", "800", "--bot-workers", "0"]
    n1 = ServerProcess([*common, "--node-id", "p1"])
    n2 = ServerProcess([*common, "--node-id", "p2"])
    await n1.start()
    await n2.start()
    try:
        a = await KibitzClient.connect(n1.ws)
        b = await KibitzClient.connect(n2.ws)
        room = (await a.request("create_room", game="chess"))["room"]
        await a.request("take_seat", room=room, seat=0, name="Ada")
        await b.request("take_seat", room=room, seat=1, name="Bob")
        assert n1.proc is not None
        os.kill(n1.proc.pid, signal.SIGSTOP)
        await asyncio.sleep(2.5)  # the lease lapses; p2's sweep takes the room over
        pending = asyncio.ensure_future(a.request("move", room=room, move="e2e4", timeout=20))
        await asyncio.sleep(0.2)
        os.kill(n1.proc.pid, signal.SIGCONT)
        try:
            await pending
        except KibitzError as exc:
            assert exc.code == "unavailable"
            await a.request_while_unavailable("move", room=room, move="e2e4")
        seen = await b.wait_update(lambda m: m["turn"] == 1, room=room, timeout=15)
        assert seen["view"]["last_move"] == "e2e4"
        record = (await b.request("record", room=room))["record"]
        assert [t["moves"] for t in record["moves"]] == [{"0": "e2e4"}]
        await a.close()
        await b.close()
    finally:
        if n1.proc is not None and n1.proc.poll() is None:
            os.kill(n1.proc.pid, signal.SIGCONT)
        n1.ensure_dead()
        n2.ensure_dead()
