"""A game's end goes through even when a game-end hook fails once (a rating, a tournament
result, the archive's mark): the hooks run again on the node that hosts the room, a few
seconds later, until they all pass and the room leaves the live set. Without the retry, the
room stayed live with its hooks half run until another node happened to take it over — a
tournament game's result was never stored, and the tournament never finished."""

from __future__ import annotations

import asyncio

import pytest

from server.net.app import KibitzServer
from server.rooms.room import Room
from server.sdk import KibitzClient

from .test_seeks import FOOLS_MATE, play


@pytest.mark.parametrize("broken", [False, True], ids=["retried", "broken_twin"])
async def test_a_failing_game_end_hook_runs_again(server: KibitzServer, broken: bool) -> None:
    assert server.hub is not None and server.store is not None
    hub, store = server.hub, server.store
    calls: list[str] = []

    async def flaky(room: Room) -> None:
        calls.append(room.id)
        if len(calls) == 1:
            raise ConnectionError("the rating store is away for a moment")

    hub.on_over.append(flaky)
    if broken:  # the code before: a failed end waits for another node to take the room

        async def never() -> None:
            return None

        hub.lobby.finish_pending = never  # type: ignore[method-assign]
    players = {s: await KibitzClient.connect(server.ws_url) for s in (0, 1)}
    room = (await players[0].request("create_room", game="chess"))["room"]
    for s, c in players.items():
        await c.request("take_seat", room=room, seat=s, name=f"P{s}")
    await play(players, room, FOOLS_MATE)
    for _ in range(60):  # the lobby's upkeep runs every 2 s
        if len(calls) >= 2 and room not in await store.live_rooms():
            break
        await asyncio.sleep(0.1)
    if broken:
        assert calls == [room] and room in await store.live_rooms()
    else:
        assert calls == [room, room] and room not in await store.live_rooms()
        assert room not in hub.lobby.unfinished
    for c in players.values():
        await c.close()
