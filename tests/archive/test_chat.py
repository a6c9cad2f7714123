"""A finished game's chat is archived with it: once the game has left Redis, the chat history
a player or a spectator asks for (and the one a new spectator is sent) is what it was live,
through the same door (``chat_history``). A message that lands while the game is being
archived keeps the keys and is archived on the next pass; an archiver that deletes the keys
looking at the log only loses it (the guard's broken twin, caught)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.engine import Registry
from server.net.app import KibitzServer
from server.net.services.archive.archiving import Archiver
from server.sdk import KibitzClient

from ..net.test_seeks import FOOLS_MATE, next_of, play
from .helpers import archived_server, where

#: the archiver's deletion before chat was archived: the log's version checked, not the chat
LOG_ONLY = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return -1 end
if last[1][1] ~= ARGV[1] .. '-0' then return 0 end
redis.call('DEL', unpack(KEYS))
return 1
"""


async def history(c: KibitzClient, room: str) -> list[dict[str, Any]]:
    c.drain()
    await c.request("chat_history", room=room)
    return list((await next_of(c, "chat_history"))["messages"])


async def chatted_game(srv: KibitzServer) -> tuple[str, dict[int, KibitzClient], KibitzClient]:
    """A chess game with chat from both seats and a spectator, during the game and after
    its end (fool's mate), marked for the archive."""
    players = {s: await KibitzClient.connect(srv.ws_url) for s in (0, 1)}
    watcher = await KibitzClient.connect(srv.ws_url)
    room = (await players[0].request("create_room", game="chess", seats=2))["room"]
    for s, c in players.items():
        await c.request("take_seat", room=room, seat=s, name=f"P{s}")
    await watcher.request("watch", room=room)
    await players[0].request("chat", room=room, text="good luck")
    await watcher.request("chat", room=room, text="white is lost")  # spectators only, live
    await play(players, room, FOOLS_MATE)
    await players[0].wait_update(lambda m: m["status"] == "over", room=room)
    await players[1].request("chat", room=room, text="gg")
    assert srv.archiver is not None
    for _ in range(200):
        if room in await srv.archiver.pending():
            break
        await asyncio.sleep(0.02)
    return room, players, watcher


async def test_chat_reads_back_from_the_archive_as_it_read_live(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None
        room, players, watcher = await chatted_game(srv)
        live = {"spectator": await history(watcher, room), "seat": await history(players[1], room)}
        assert [m["text"] for m in live["spectator"]] == ["good luck", "white is lost", "gg"]
        assert live["seat"] == live["spectator"]  # the game is over: both channels for all
        assert await srv.archiver.sweep(everything=True) == 1
        assert await where(srv.store, srv.archiver.archive, room) == (False, True)
        assert await srv.archiver.archive.chat(room) == live["spectator"]
        assert await history(watcher, room) == live["spectator"]
        assert await history(players[1], room) == live["seat"]
        late = await KibitzClient.connect(srv.ws_url)  # a new spectator is sent it on watch
        await late.request("watch", room=room)
        assert (await next_of(late, "chat_history"))["messages"] == live["spectator"]
        for c in (*players.values(), watcher, late):
            await c.close()


class DropsLookingAtTheLogOnly(Archiver):
    """A broken archiver: it deletes the room's keys once the log is at the version it
    archived, whatever the chat did meanwhile."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._drop = self.store.redis.register_script(LOG_ONLY)


@pytest.mark.parametrize("broken", [False, True])
async def test_a_message_that_lands_during_archiving_is_archived_too(
    redis_url: str,
    prefix: str,
    registry: Registry,
    archive_url: str,
    broken: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None and srv.hub is not None
        room, players, watcher = await chatted_game(srv)
        kind = DropsLookingAtTheLogOnly if broken else Archiver
        archiver = kind(srv.store, srv.archiver.archive, registry, node=srv.hub.node, grace=0)
        archive = srv.archiver.archive
        read_back = archive.versions
        landed: list[bool] = []

        async def message_as_it_reads_back(ids: list[str]) -> dict[str, int]:
            found = await read_back(ids)  # step 3, then a message lands in the chat
            if not landed:
                await watcher.request("chat", room=room, text="well played")
                landed.append(True)
            return found

        monkeypatch.setattr(archive, "versions", message_as_it_reads_back)
        moved = await archiver.archive_one(room)
        assert moved is broken  # the guard keeps the keys: the chat moved since the write
        if not broken:  # the next pass writes the game again, with the message
            assert await archiver.archive_one(room)
        texts = [m["text"] for m in await archive.chat(room)]
        assert await where(srv.store, archive, room) == (False, True)
        if broken:
            assert "well played" not in texts  # lost: what the guard prevents
        else:
            assert texts == ["good luck", "white is lost", "gg", "well played"]
        for c in (*players.values(), watcher):
            await c.close()
