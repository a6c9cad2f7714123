"""The lobby's lists: open rooms one can join, and games in progress somebody plays in.

A game in progress stays in the lobby's "games in progress" only while a player is connected
to one of its seats (here, or on another node: ``seated:{room}``); a game everybody left,
or that only spectators watch, drops out of it (issue 34, item 5).
"""

from __future__ import annotations

import asyncio

import pytest
import redis

from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError


async def rooms(c: KibitzClient, **query: object) -> set[str]:
    return {r["room"] for r in (await c.request("list_rooms", **query))["rooms"]}


async def test_games_nobody_attends_leave_the_lobby(server: KibitzServer, redis_url: str) -> None:
    hub = server.hub
    assert hub is not None
    ada, bob, cy, di, eve = [await KibitzClient.connect(server.ws_url) for _ in range(5)]
    # a game both players are at
    played = (await ada.request("create_room", game="chess"))["room"]
    await ada.request("take_seat", room=played, seat=0, name="Ada")
    await bob.request("take_seat", room=played, seat=1, name="Bob")
    # a game both players left, that only a spectator watches
    left = (await cy.request("create_room", game="chess"))["room"]
    await cy.request("take_seat", room=left, seat=0, name="Cy")
    await di.request("take_seat", room=left, seat=1, name="Di")
    await eve.request("watch", room=left)
    # a room waiting for a second player
    waiting = (await ada.request("create_room", game="chess"))["room"]
    await ada.request("take_seat", room=waiting, seat=0, name="Ada")
    await cy.close()
    await di.close()
    for _ in range(200):
        if all(seat is None for seat in hub.listeners.get(left, {})):
            break
        await asyncio.sleep(0.02)

    # everything still listed as before when nothing is asked for
    assert {played, left, waiting} <= await rooms(ada)
    # rooms one can join: waiting, with an open seat
    assert await rooms(ada, status="waiting", open=True) == {waiting}
    # games in progress somebody plays in: the abandoned one is not among them
    assert await rooms(ada, status="playing", attended=True) == {played}

    # a node marks the rooms its connections sit in, for every node to read
    await hub.lobby.touch_presence(ttl_s=30)
    r = redis.Redis.from_url(redis_url)
    prefix = server.config.prefix
    assert r.exists(f"{prefix}seated:{played}") and r.exists(f"{prefix}present:{left}")
    assert not r.exists(f"{prefix}seated:{left}")  # watched, but nobody plays
    # a player of the abandoned game connected to another node brings it back
    r.set(f"{prefix}seated:{left}", 1, ex=30)
    assert await rooms(eve, status="playing", attended=True) == {played, left}
    r.close()

    with pytest.raises(KibitzError) as info:
        await ada.request("list_rooms", attended="yes")
    assert info.value.code == "bad_request"
    for c in (ada, bob, eve):
        await c.close()


@pytest.mark.parametrize("broken", [False, True], ids=["as-built", "broken-blind"])
async def test_a_game_everybody_left_ends_and_one_a_player_is_at_goes_on(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch, broken: bool
) -> None:
    """A game in progress that no player is connected to (on any node) and that saw no
    event for ``Lobby.idle_game_ttl`` (a day) is ended, no result (``abort``, reason
    ``idle``, unrated): else every game two people walk away from stays in Redis and on its
    node for good. A game a player is still at goes on however long they think. Broken: a
    sweep blind to who is connected ends that one too."""
    hub = server.hub
    assert hub is not None
    if broken:

        async def nobody(room_ids: list[str]) -> list[bool]:
            return [False] * len(room_ids)

        monkeypatch.setattr(hub.lobby, "attended", nobody)
    ada, bob, cy, di = [await KibitzClient.connect(server.ws_url) for _ in range(4)]
    rooms: dict[str, str] = {}
    for name, (a, b) in {"left": (cy, di), "thinking": (ada, bob)}.items():
        room = rooms[name] = (await a.request("create_room", game="chess"))["room"]
        await a.request("take_seat", room=room, seat=0, name="A")
        await b.request("take_seat", room=room, seat=1, name="B")
        await a.request("move", room=room, move="e2e4")
    await cy.close()
    await di.close()
    for _ in range(200):
        if not hub.listeners.get(rooms["left"]):
            break
        await asyncio.sleep(0.02)
    idle = 0.5
    assert await hub.clocks.end_idle(await hub.lobby.idle_games(idle), idle) == 0  # too soon
    await asyncio.sleep(idle + 0.1)
    ended = await hub.clocks.end_idle(await hub.lobby.idle_games(idle), idle)
    assert ended == (2 if broken else 1)
    left = hub.rooms[rooms["left"]].room
    assert left.status == "over" and left.outcome is not None
    assert left.outcome.reason == "aborted"  # no result: ratings and tournaments skip it
    last = left.events[-1]
    assert (last.kind, last.data) == ("abort", {"seat": 1, "reason": "idle"})
    assert (hub.rooms[rooms["thinking"]].room.status == "playing") is not broken
    for c in (ada, bob):
        await c.close()
