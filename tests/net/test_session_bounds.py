"""A session does not grow with every game its player has played: leaving a finished game
forgets its seat, and a session keeps the seats of its latest MAX_ROOMS_HELD rooms only."""

from __future__ import annotations

import pytest

from server.net.app import KibitzServer
from server.net.protocol import seating
from server.sdk import KibitzClient

from .test_protocol import play, seated_pair


async def held_rooms(server: KibitzServer, session: str | None) -> list[str]:
    """The rooms a session holds, as a client resuming it is told."""
    again = await KibitzClient.connect(server.ws_url, session=session)
    rooms = sorted(entry["room"] for entry in again.welcome["rooms"])
    await again.close()
    return rooms


async def test_leaving_a_finished_game_forgets_its_seat(server: KibitzServer) -> None:
    a, b, room = await seated_pair(server)
    for mover, move in ((a, "f2f3"), (b, "e7e5"), (a, "g2g4"), (b, "d8h4")):  # Fool's mate
        await play(mover, room, move)
    await a.wait_update(lambda m: m["status"] == "over", room=room)
    other = (await a.request("create_room", game="chess"))["room"]
    await a.request("take_seat", room=other, seat=0, name="Ada")
    await a.request("leave", room=other)  # a game not over: the seat is kept (or given back)
    assert room in await held_rooms(server, a.session)
    await a.request("leave", room=room)
    assert room not in await held_rooms(server, a.session)
    with pytest.raises(Exception, match="hold no seat"):
        await a.request("rematch", room=room)
    for c in (a, b):
        await c.close()


@pytest.mark.parametrize("bound", [3, 1000])
async def test_a_session_keeps_the_seats_of_its_latest_rooms_only(
    server: KibitzServer, monkeypatch: pytest.MonkeyPatch, bound: int
) -> None:
    """Four rooms taken one after another: with a bound of three the first is forgotten
    (the broken twin, no bound to speak of, keeps all four)."""
    monkeypatch.setattr(seating, "MAX_ROOMS_HELD", bound)
    c = await KibitzClient.connect(server.ws_url)
    rooms = []
    for _ in range(4):
        room = (await c.request("create_room", game="chess"))["room"]
        await c.request("take_seat", room=room, seat=0, name="Ada")
        rooms.append(room)
    held = await held_rooms(server, c.session)
    if bound == 3:
        assert held == sorted(rooms[1:])
    else:
        assert held == sorted(rooms)
    await c.close()
