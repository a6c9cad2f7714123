"""A room made with ``rematch: false`` (a tournament's game: the tournament pairs the next)
refuses a rematch and changes nothing; the setting is a room setting like the others."""

from __future__ import annotations

import pytest

from server.engine import REGISTRY, InvalidOptions
from server.rooms.errors import Forbidden
from server.rooms.policy import Policy
from server.rooms.room import Room

NOW = 1_700_000_000.0


def finished(settings: dict[str, object] | None) -> Room:
    room = Room.from_created(Room.create("r", "chess", None, 2, "s", NOW, settings, REGISTRY))
    for seat, token in ((0, "tok-a"), (1, "tok-b")):
        room.apply_all(room.take_seat(seat, token, f"P{seat}", NOW + 1))
    room.apply_all(room.resign(0, "tok-a", NOW + 2))
    return room


def test_a_game_without_rematch_refuses_one_and_changes_nothing() -> None:
    room = finished({"rematch": False})
    before = room.version
    with pytest.raises(Forbidden, match="tournament pairs the next game"):
        room.offer_rematch(1, "tok-b", NOW + 3)
    assert room.version == before and not room.rematch_agreed()
    # the same game with the default: a rematch is asked for
    room = finished(None)
    assert room.offer_rematch(1, "tok-b", NOW + 3)


def test_the_setting_is_a_plain_room_setting() -> None:
    chess = REGISTRY.get("chess")
    assert Policy.parse(None, chess).rematch is True
    assert Policy.parse({"rematch": False}, chess).to_json()["rematch"] is False
    with pytest.raises(InvalidOptions, match="rematch"):
        Policy.parse({"rematch": "no"}, chess)
