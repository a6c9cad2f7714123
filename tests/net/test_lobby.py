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


def story_errors(answer: dict[str, object]) -> list[str]:
    """What is wrong in one ``lobby`` answer: a room in both lists or twice in one, a room
    offered to join that has no open seat or has started, a game in progress still waiting."""
    errors: list[str] = []
    open_rooms = answer["open"]
    playing = answer["playing"]
    assert isinstance(open_rooms, list) and isinstance(playing, list)
    open_ids = [r["room"] for r in open_rooms]
    playing_ids = [r["room"] for r in playing]
    for ids, which in ((open_ids, "open"), (playing_ids, "playing")):
        if len(set(ids)) != len(ids):
            errors.append(f"a room twice in {which}")
    if both := set(open_ids) & set(playing_ids):
        errors.append(f"in both lists: {sorted(both)}")
    for r in open_rooms:
        if not r["open_seats"] or r["status"] != "waiting":
            errors.append(f"offered to join but full or started: {r['room']}")
    for r in playing:
        if r["status"] != "playing":
            errors.append(f"in progress but {r['status']}: {r['room']}")
    return errors


async def test_the_lobby_tells_one_story_while_rooms_fill_and_empty(server: KibitzServer) -> None:
    """Four clients create rooms (sitting down in the same request), fill them, leave them,
    as fast as they can, while a fifth reads the lobby: no answer lists a room in both lists
    or twice, none offers a full or started room, and none shows a room of theirs with its
    creator's seat open (the create-then-sit window is closed)."""
    players = [await KibitzClient.connect(server.ws_url) for _ in range(4)]
    reader = await KibitzClient.connect(server.ws_url)
    ours: set[str] = set()
    done = asyncio.Event()
    rounds = 12

    async def churn(me: KibitzClient, other: KibitzClient, n: int) -> None:
        for i in range(rounds):
            created = await me.request("create_room", game="chess", sit=0, name=f"P{n}")
            room = created["room"]
            assert created["seat"] == 0 and created["token"]
            ours.add(room)
            if i % 3 == 0:
                await me.request("leave", room=room)  # the seat back: the room is empty
            elif i % 3 == 1:
                await other.request("take_seat", room=room, seat=1, name=f"Q{n}")
            played.set()

    answers = 0
    bad: list[str] = []

    # the reader reads again once a round was played since its last read: as many reads as
    # rounds, within a connection's message budget (Limits.burst) however fast the server is
    played = asyncio.Event()

    async def read() -> None:
        nonlocal answers
        while not done.is_set():
            played.clear()
            answer = await reader.request("lobby")
            answers += 1
            bad.extend(story_errors(answer))
            for r in answer["open"]:
                if r["room"] in ours and r["version"] == 1:  # created, nobody seated
                    bad.append(f"room {r['room']} listed before its creator sat")
            if not done.is_set():
                await played.wait()

    reading = asyncio.create_task(read())
    await asyncio.gather(churn(players[0], players[1], 0), churn(players[2], players[3], 1))
    done.set()
    played.set()
    await reading
    assert answers >= 5 and len(ours) == 2 * rounds
    assert bad == []
    final = await reader.request("lobby")
    listed = {r["room"] for r in final["open"]} | {r["room"] for r in final["playing"]}
    assert listed <= ours and final["playing_total"] == len(final["playing"]) == 2 * 4
    for c in (*players, reader):
        await c.close()


async def test_the_story_check_catches_two_reads_and_the_create_then_sit_window(
    server: KibitzServer,
) -> None:
    """The broken twins the check above guards against, made to happen on purpose: the two
    lists read by two requests with a seat taken between them (the room is in both), and a
    room created without ``sit`` read before its creator sits (a full room's seat open)."""
    ada, bob, reader = [await KibitzClient.connect(server.ws_url) for _ in range(3)]
    room = (await ada.request("create_room", game="chess"))["room"]
    early = await reader.request("lobby")  # the create-then-sit window, caught
    assert [r["room"] for r in early["open"]] == [room]
    assert early["open"][0]["open_seats"] == [0, 1] and early["open"][0]["version"] == 1
    await ada.request("take_seat", room=room, seat=0, name="Ada")
    first = await reader.request("list_rooms", status="waiting", open=True)
    await bob.request("take_seat", room=room, seat=1, name="Bob")
    second = await reader.request("list_rooms", status="playing", attended=True)
    two_reads = {"open": first["rooms"], "playing": second["rooms"]}
    assert any("in both lists" in e for e in story_errors(two_reads))
    assert story_errors(await reader.request("lobby")) == []  # one read: one story
    for c in (ada, bob, reader):
        await c.close()


async def test_create_room_seats_its_creator_and_bots_in_one_append_or_creates_nothing(
    server: KibitzServer,
) -> None:
    ada = await KibitzClient.connect(server.ws_url)
    made = await ada.request(
        "create_room", game="chess", sit=1, name="Ada", bots=[{"seat": 0, "strength": "random"}]
    )
    summary = made["summary"]
    assert summary["status"] == "playing" and summary["version"] == 3  # created, seated, bot
    assert [s["kind"] for s in summary["seats"]] == ["bot", "person"] and made["seat"] == 1
    # the bot (White) moves: the creator's seat hears it, without a take_seat
    moved = await ada.wait_update(lambda u: bool(u.get("legal")), room=made["room"])
    assert moved["view"]["last_san"]  # Black to move: the seat's legal moves
    before = (await ada.request("lobby"))["open_total"]
    for bad, code in (
        ({"sit": 2}, "no_such_seat"),
        ({"sit": 0, "bots": [{"seat": 0, "strength": "random"}]}, "seat_taken"),
        ({"bots": [{"seat": 1, "strength": "grandmaster"}]}, "bad_request"),
        ({"bots": [{"seat": 1}] * 7}, "bad_request"),
        ({"bots": [{"seat": "1", "strength": "random"}]}, "bad_request"),
        ({"sit": True}, "bad_request"),
    ):
        with pytest.raises(KibitzError) as info:
            await ada.request("create_room", game="chess", name="Ada", **bad)
        assert info.value.code == code, (bad, info.value)
    assert (await ada.request("lobby"))["open_total"] == before  # refused: nothing created
    await ada.close()
