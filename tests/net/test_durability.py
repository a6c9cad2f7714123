"""``--durability replica``: a move is acknowledged only once a replica has it. With no
replica to confirm, the mover is told ``not_replicated`` — the move is in the game (it is
in the primary's log, and everybody sees it), but it is not claimed to be safe."""

from __future__ import annotations

import pytest

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.sdk import KibitzClient, KibitzError
from server.store import Store
from server.tools.cluster_failover import Player, acked_moves_kept


async def test_without_a_replica_a_move_is_shown_but_not_acknowledged(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    config = Config(
        port=0,
        redis_url=redis_url,
        prefix=prefix,
        registry=registry,
        bot_workers=0,
        durability="replica",
        wait_ms=50,
    )
    async with KibitzServer(config) as srv:
        a = await KibitzClient.connect(srv.ws_url)
        b = await KibitzClient.connect(srv.ws_url)
        # an empty room is not held to it; seating is a room command: in, not confirmed
        room = (await a.request("create_room", game="chess"))["room"]
        for c, seat in ((a, 0), (b, 1)):
            cid = f"sit-{seat}"
            with pytest.raises(KibitzError) as info:
                await c.request("take_seat", room=room, seat=seat, name=f"P{seat}", cid=cid)
            assert info.value.code == "not_replicated"
            # the seat is taken all the same: the same cid gets its token (from memory)
            again = await c.request("take_seat", room=room, seat=seat, name=f"P{seat}", cid=cid)
            assert again["type"] == "seated" and again["seat"] == seat
        assert srv.hub is not None and srv.hub.rooms[room].room.status == "playing"
        with pytest.raises(KibitzError) as info:
            await a.request("move", room=room, move="e2e4")
        assert info.value.code == "not_replicated"
        seen = await b.wait_update(lambda m: m["turn"] == 1, room=room)
        assert seen["view"]["last_move"] == "e2e4"  # in the game, shown to everybody
        store = Store.from_url(redis_url, prefix=prefix)
        assert await store.version(room) == srv.hub.rooms[room].room.version
        await store.close()
        await a.close()
        await b.close()


async def test_the_loss_check_finds_a_missing_move(redis_url: str, prefix: str) -> None:
    """The failover trials' check can fail: an acknowledged move not in the log is lost."""
    store = Store.from_url(redis_url, prefix=prefix)
    player = Player({}, rng=None)  # type: ignore[arg-type]
    player.acked = [("no-such-room", 1, "e2e4")]
    assert await acked_moves_kept(store, player) == [("no-such-room", 1, "e2e4")]  # type: ignore[arg-type]
    await store.close()
