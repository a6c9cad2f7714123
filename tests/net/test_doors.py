"""Every door honours what a caller may see: a delay never reveals hidden information, and
no read path (record, PGN, lobby, resync) runs ahead of the spectator delay."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from typing import Any

import pytest

from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError


async def seated(server: KibitzServer, game: str, settings: dict[str, Any]) -> Any:
    a = await KibitzClient.connect(server.ws_url)
    b = await KibitzClient.connect(server.ws_url)
    room = (await a.request("create_room", game=game, settings=settings))["room"]
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await b.request("take_seat", room=room, seat=1, name="Bob")
    return a, b, room


async def test_a_players_second_connection_sees_only_the_public_view(
    server: KibitzServer,
) -> None:
    """Dark chess with ``spectator_delay: 1``: a seated player opens a second connection
    and watches. It used to get the true position one turn late (the opponent's pieces
    included); it gets the public view now."""
    a, b, room = await seated(server, "dark_chess", {"spectator_delay": 1})
    for mv, who in (("e2e4", a), ("e7e5", b), ("g1f3", a)):
        await who.request("move", room=room, move=mv)
    second = await KibitzClient.connect(server.ws_url)  # Ada's second browser
    await second.request("watch", room=room)
    got = await second.next_update(room)
    view = got["view"]
    assert view["delayed"] == 1 and "seats" not in view
    assert view["public"] == server.hub.rooms[room].room.game.view(  # type: ignore[union-attr]
        server.hub.rooms[room].room.past[0],
        None,  # type: ignore[union-attr]
    )
    board = view["public"]["fen"].split()[0]
    assert set(board) <= set("?/12345678")  # not one piece of either side is shown
    for c in (a, b, second):
        await c.close()


async def test_see_all_needs_an_explicit_setting_and_a_delay_of_two(
    server: KibitzServer,
) -> None:
    c = await KibitzClient.connect(server.ws_url)
    with pytest.raises(KibitzError) as info:
        await c.request(
            "create_room",
            game="dark_chess",
            settings={"spectator_delay": 1, "spectators_see_all": True},
        )
    assert info.value.code == "bad_options"
    await c.close()


async def test_every_read_path_honours_the_delay(server: KibitzServer) -> None:
    """Chess with ``spectator_delay: 3`` after six moves: a spectator's update, record and
    the HTTP record and PGN show three moves; the lobby says turn 3; a seat sees all six."""
    a, b, room = await seated(server, "chess", {"spectator_delay": 3})
    for mv, who in zip(("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"), (a, b) * 3, strict=True):
        await who.request("move", room=room, move=mv)
    spec = await KibitzClient.connect(server.ws_url)
    await spec.request("watch", room=room)
    update = await spec.next_update(room)
    assert update["turn"] == 3 and update["view"]["turn"] == 3
    record = (await spec.request("record", room=room))["record"]
    assert len(record["moves"]) == 3 and record["delayed"] == 3 and "version" not in record
    assert len((await a.request("record", room=room))["record"]["moves"]) == 6

    def fetch(path: str) -> str:
        with urllib.request.urlopen(f"{server.url}api/rooms/{room}/{path}") as resp:
            return str(resp.read().decode())

    http_record = json.loads(await asyncio.to_thread(fetch, "record"))
    assert len(http_record["moves"]) == 3
    pgn = await asyncio.to_thread(fetch, "pgn")
    assert "2. Nf3" in pgn and "Nc6" not in pgn and "Bc4" not in pgn
    lobby = (await spec.request("list_rooms"))["rooms"]
    entry = next(r for r in lobby if r["room"] == room)
    assert entry["turn"] <= 3
    # resync from an early version renders nothing beyond the delay either
    await spec.request("resync", room=room, since=1)
    again = await spec.next_update(room)
    assert again["turn"] == 3 and again["view"]["turn"] == 3
    for c in (a, b, spec):
        await c.close()


async def test_the_lobby_turn_counter_follows_the_game(server: KibitzServer) -> None:
    """It used to stay at 0 (``turn: 0`` with ``version: 3`` after three moves): entries
    are refreshed in one batch every two seconds (flushed by hand here)."""
    a, b, room = await seated(server, "chess", {})
    for mv, who in zip(("e2e4", "e7e5", "g1f3"), (a, b, a), strict=True):
        await who.request("move", room=room, move=mv)
    assert server.hub is not None
    assert await server.hub.lobby.flush() == 1
    entry = next(r for r in (await a.request("list_rooms"))["rooms"] if r["room"] == room)
    assert entry["turn"] == 3 and entry["version"] == 6
    assert await server.hub.lobby.flush() == 0  # nothing changed since
    for c in (a, b):
        await c.close()
