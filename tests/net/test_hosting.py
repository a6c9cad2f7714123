"""Hosting's claims: a room whose log could not be read when its lease was claimed is let go,
not kept leased and unloaded for good (the lease keeper would renew it with nobody hosting
the room, and a game of bots, that nobody touches, would stand still)."""

from __future__ import annotations

from server.engine import Registry
from server.net.app import KibitzServer
from server.net.node.hosting import Hosting
from server.sdk import KibitzClient

from ..conftest import serving


async def unreadable_room(srv: KibitzServer) -> str:
    """A room Ada sits in whose host let it go (as if it had died) and whose log turned
    unreadable: a key of the wrong type answers every read with an error, as a failing Redis
    would. :func:`readable_again` puts the log back."""
    assert srv.hub is not None and srv.store is not None
    c = await KibitzClient.connect(srv.ws_url)
    room = (await c.request("create_room", game="chess"))["room"]
    await c.request("take_seat", room=room, seat=0, name="Ada")
    await c.close()
    srv.hub.hosting.drop(room)
    await srv.store.release(room, srv.hub.node)
    key = srv.store.rk("room", room)
    await srv.store.redis.rename(key, key + ":aside")
    await srv.store.redis.set(key, b"not a stream")
    return room


async def readable_again(srv: KibitzServer, room: str) -> None:
    assert srv.store is not None
    key = srv.store.rk("room", room)
    await srv.store.redis.delete(key)
    await srv.store.redis.rename(key + ":aside", key)


async def test_a_claim_whose_log_cannot_be_read_is_let_go_and_claimed_again(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with serving(redis_url, prefix, registry, node_id="n1", bot_workers=0) as srv:
        assert srv.hub is not None and srv.store is not None
        hub, store = srv.hub, srv.store
        room = await unreadable_room(srv)
        assert await hub.adopt(include_own=False) == 0  # claimed, but not loaded
        assert room not in hub.rooms
        assert room not in hub.hosting.claimed  # let go: the keeper does not renew it
        assert await store.holders([room]) == [None]
        await readable_again(srv, room)  # the next sweep takes the room over
        assert await hub.adopt(include_own=False) == 1
        assert room in hub.rooms and hub.rooms[room].room.seats[0].name == "Ada"


async def test_the_claim_kept_by_the_old_code_is_what_this_catches(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    """The broken twin: loading without letting go keeps the claim, and the next sweep
    never loads the room (the test above fails on it)."""

    async def keep_claims(self: Hosting, room_ids: list[str]) -> None:
        return None  # the code before the fix: the claims stay

    async with serving(redis_url, prefix, registry, node_id="n1", bot_workers=0) as srv:
        assert srv.hub is not None
        hub = srv.hub
        hub.hosting._let_go = keep_claims.__get__(hub.hosting)  # type: ignore[method-assign]
        room = await unreadable_room(srv)
        assert await hub.adopt(include_own=False) == 0
        await readable_again(srv, room)
        assert await hub.adopt(include_own=False) == 0  # stuck: claimed, never loaded
        assert room in hub.hosting.claimed and room not in hub.rooms
