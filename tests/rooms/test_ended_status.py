"""The status line under a described board after the room ended the game (issue 48, round
3): the engine's line ("White to move") knows nothing of a resignation, a flag, an agreed
draw or an abort, so the room's rendering says the result instead."""

from __future__ import annotations

import pytest

from server.engine import Registry
from server.engine.base import Json
from server.engine.dark_chess.game import DarkChess
from server.engine.dark_chess.rules import DarkChessState
from server.rooms.room import Event, Room

NOW = 1_700_000_000.0


def seated(registry: Registry, game: str = "kono") -> Room:
    event = Room.create("r1", game, None, None, "seed", NOW, {}, registry)
    room = Room.from_created(event, registry)
    for seat, (tok, name) in enumerate((("tok-a", "Ada"), ("tok-b", "Bob"))):
        for e in room.take_seat(seat, tok, name, NOW):
            room.apply(e)
    return room


def line(room: Room, r: int | None) -> str:
    return str(room.view_for(r)["grid"]["status"])


def names(room: Room) -> list[str]:
    return [s["name"] for s in room.view_for(None)["grid"]["seats"]]


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (Event("resign", {"seat": 0, "reason": "resignation"}, NOW), "{0} resigned — {1} wins"),
        (Event("timeout", {"seat": 1}, NOW), "{1} ran out of time — {0} wins"),
        (Event("draw", {"reason": "agreement"}, NOW), "Draw by agreement"),
        (Event("abort", {"seat": 0}, NOW), "Game aborted — no result"),
    ],
)
def test_the_status_line_says_how_the_room_ended_the_game(
    registry: Registry, event: Event, expected: str
) -> None:
    room = seated(registry)
    a, b = names(room)
    assert line(room, 0).endswith("to move")
    room.apply(event)
    text = expected.format(a, b)
    assert [line(room, r) for r in (0, 1, None)] == [text, text, text]


def test_a_game_the_engine_ended_keeps_the_engines_line(registry: Registry) -> None:
    """The twin: the replacement is for the room's endings only — an ending the engine
    decided keeps its own words (and a running game its "to move")."""
    room = seated(registry)
    engine_line = line(room, 0)
    room.apply(Event("draw", {"reason": "repetition"}, NOW))  # not one of the room's
    assert line(room, 0) == engine_line


class FoggedForEver(DarkChess):
    """A broken Dark Chess for the twin: no view of its own once the game is over."""

    def final_view(self, state: DarkChessState, seat: int | None) -> Json:
        return self.view(state, seat)


def _dark_room(game: DarkChess) -> Room:
    registry = Registry()
    registry.add(game)
    return seated(registry, "dark_chess")


def _fogged(room: Room, r: int | None) -> int:
    return len(room.view_for(r)["grid"].get("fog", []))


@pytest.mark.parametrize("game", [DarkChess(), FoggedForEver()], ids=["dark_chess", "broken"])
def test_the_fog_lifts_when_the_room_ends_a_hidden_game(game: DarkChess) -> None:
    """A Dark Chess game resigned at once (the rules did not end it): from then on every
    seat and the spectator see the whole board, as when a king is taken (the record, open
    from the end, tells it anyway); the twin that keeps the fog is caught."""
    room = _dark_room(game)
    assert all(_fogged(room, r) > 0 for r in (0, 1, None))  # the fog while it runs
    room.apply(Event("resign", {"seat": 0, "reason": "resignation"}, NOW))
    fogged = [_fogged(room, r) for r in (0, 1, None)]
    if isinstance(game, FoggedForEver):
        assert all(fogged), "the broken twin lifted the fog: the check could not fail"
        return
    assert fogged == [0, 0, 0]
    pieces = room.view_for(None)["grid"]["pieces"]
    assert len(pieces) == 32 and pieces["e8"]["kind"] == "king"
