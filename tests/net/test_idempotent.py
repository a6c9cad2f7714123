"""Answers that never lie: commands with a client id (``cid``) are idempotent, and a
forwarded command whose fate is unknown says so instead of claiming nothing happened."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError

from .test_restart import ServerProcess


async def test_a_retried_move_is_played_once(server: KibitzServer) -> None:
    a = await KibitzClient.connect(server.ws_url)
    b = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game="chess"))["room"]
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await b.request("take_seat", room=room, seat=1, name="Bob")
    first = await a.request("move", room=room, move="e2e4", cid="m1")
    again = await a.request("move", room=room, move="e2e4", cid="m1")
    assert again["version"] == first["version"] and again.get("repeated") is True
    assert "repeated" not in first
    with pytest.raises(KibitzError) as info:  # without the id it is a new (illegal) command
        await a.request("move", room=room, move="e2e4")
    assert info.value.code == "not_your_turn"
    # the id is the session's own: the same cid from another session is a new command
    await b.request("move", room=room, move="e7e5", cid="m1")
    record = (await a.request("record", room=room))["record"]
    assert [t["moves"] for t in record["moves"]] == [{"0": "e2e4"}, {"1": "e7e5"}]
    for c in (a, b):
        await c.close()


async def test_a_retried_take_seat_gets_the_same_seat_and_token(server: KibitzServer) -> None:
    a = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game="chess"))["room"]
    first = await a.request("take_seat", room=room, name="Ada", cid="seat-1")
    again = await a.request("take_seat", room=room, name="Ada", cid="seat-1")
    assert (again["seat"], again["token"]) == (first["seat"], first["token"])
    assert again["repeated"] is True
    info = (await a.request("list_rooms"))["rooms"]
    entry = next(r for r in info if r["room"] == room)
    assert entry["open_seats"] == [1]  # one seat taken, not two
    other = await KibitzClient.connect(server.ws_url)  # the token works: join with it
    joined = await other.request("join", room=room, seat=first["seat"], token=first["token"])
    assert joined["seat"] == first["seat"]
    for c in (a, other):
        await c.close()


async def test_ids_survive_a_restart_of_the_host(redis_url: str, prefix: str) -> None:
    """The ids are in the log: a new host rebuilt from it still knows them."""
    from server.engine import REGISTRY
    from server.net.app import Config

    def cfg() -> Config:
        return Config(
            port=0,
            redis_url=redis_url,
            prefix=prefix,
            registry=REGISTRY,
            web_dir=None,
            bot_workers=0,
            node_id="same",
        )

    async with KibitzServer(cfg()) as srv:
        a = await KibitzClient.connect(srv.ws_url)
        room = (await a.request("create_room", game="chess"))["room"]
        seat = await a.request("take_seat", room=room, seat=0, name="Ada", cid="s")
        session = a.session
        await a.close()
    async with KibitzServer(cfg()) as srv:
        a = await KibitzClient.connect(srv.ws_url, session=session)
        again = await a.request("take_seat", room=room, seat=0, name="Ada", cid="s")
        assert again["token"] == seat["token"] and again["repeated"] is True
        await a.close()


async def test_a_forwarded_command_survives_a_paused_host(redis_url: str, prefix: str) -> None:
    """Pause the host for ~3.2 s while another node forwards a move (the finding: the move
    was answered ``unavailable`` but had been played). The forward now waits longer than a
    lease, so the answer is the truth; a retry with the same cid gets the same outcome."""
    common = ["--redis", redis_url, "--prefix", prefix, "--bot-workers", "0"]
    n1 = ServerProcess([*common, "--node-id", "h1"])
    n2 = ServerProcess([*common, "--node-id", "h2"])
    await n1.start()
    await n2.start()
    try:
        a = await KibitzClient.connect(n1.ws)
        b = await KibitzClient.connect(n2.ws)
        room = (await a.request("create_room", game="chess"))["room"]  # hosted by n1
        await a.request("take_seat", room=room, seat=0, name="Ada")
        await b.request("take_seat", room=room, seat=1, name="Bob")
        await a.request("move", room=room, move="e2e4")
        assert n1.proc is not None
        os.kill(n1.proc.pid, signal.SIGSTOP)
        move = asyncio.ensure_future(b.request("move", room=room, move="e7e5", cid="x", timeout=30))
        await asyncio.sleep(3.2)
        os.kill(n1.proc.pid, signal.SIGCONT)
        reply = await move
        assert reply["type"] == "moved" and reply["version"] == 5
        again = await b.request("move", room=room, move="e7e5", cid="x")
        assert again["version"] == 5 and again["repeated"] is True
        record = (await b.request("record", room=room))["record"]
        assert len(record["moves"]) == 2
        for c in (a, b):
            await c.close()
    finally:
        for n in (n1, n2):
            if n.proc is not None and n.proc.poll() is None:
                os.kill(n.proc.pid, signal.SIGCONT)
            n.ensure_dead()


async def test_bad_command_ids_are_refused(server: KibitzServer) -> None:
    a = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game="chess"))["room"]
    for bad in ("", "x" * 65, 7, None.__class__.__name__ * 20):
        with pytest.raises(KibitzError) as info:
            await a.request("take_seat", room=room, name="Ada", cid=bad)
        assert info.value.code == "bad_request"
    await a.close()
