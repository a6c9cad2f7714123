"""A seat that resigns a game that goes on without it (a Hase und Igel runner): the room
keeps playing for the others, the leaving is a turn of the log, and nothing behind it can be
taken back."""

from __future__ import annotations

import pytest

from server.engine import Registry
from server.rooms import errors
from server.rooms.room import Room

from .test_room import NOW, run


def race(registry: Registry, **policy: object) -> Room:
    event = Room.create("r1", "hase_und_igel", None, 3, "seed", NOW, dict(policy), registry)
    room = Room.from_created(event, registry)
    for seat, who in enumerate(("Ada", "Bob", "Cy")):
        run(room, room.take_seat(seat, f"tok-{seat}", who, NOW))
    assert room.status == "playing"
    return room


def play_current(room: Room, at: float) -> None:
    [seat] = room.to_act()
    move = str(room.game.legal_moves(room.state, seat)[0])
    run(room, room.move(seat, f"tok-{seat}", move, at))


def test_a_runner_resigns_and_the_race_goes_on(registry: Registry) -> None:
    room = race(registry)
    assert room.to_act() == {0}
    outs = run(room, room.resign(1, "tok-1", NOW + 1))
    assert room.outcome is None and room.status == "playing"
    assert any(msg.get("type") in ("update", "delta") for _, msg in outs)
    play_current(room, NOW + 2)
    assert room.to_act() == {2}  # seat 1 is passed over
    with pytest.raises(errors.RoomError):
        room.resign(1, "tok-1", NOW + 3)  # it has left already
    with pytest.raises(errors.RoomError):
        room.move(1, "tok-1", "advance 1", NOW + 3)


def test_the_last_runner_left_wins_and_a_replay_agrees(registry: Registry) -> None:
    room = race(registry)
    log = []
    for events in (room.resign(2, "tok-2", NOW + 1), room.resign(0, "tok-0", NOW + 2)):
        log.extend(events)
        run(room, events)
    assert room.outcome is not None
    assert room.outcome.ranks == (2, 1, 3) and room.outcome.reason == "resignation"
    again = race(registry)
    for e in log:
        again.fold(e)
    assert again.outcome == room.outcome and again.state == room.state


def test_no_take_back_behind_a_runner_who_left(registry: Registry) -> None:
    room = race(registry, undo=True)
    play_current(room, NOW + 1)  # seat 0 moves
    run(room, room.resign(2, "tok-2", NOW + 2))
    with pytest.raises(errors.UndoUnavailable):
        room.request_undo(0, "tok-0", NOW + 3)


def test_the_leavers_clock_stops_and_the_next_one_runs(registry: Registry) -> None:
    room = race(registry, clock={"type": "fischer", "base": 60, "increment": 5})
    for _ in range(3):  # every runner's first move: the clocks run from the third
        play_current(room, NOW)
    assert room.clock is not None and room.clock.running
    [seat] = room.to_act()
    left = room.clock.left[seat]
    run(room, room.resign(seat, f"tok-{seat}", NOW + 10))  # to act for 10 s
    assert room.clock.left[seat] == pytest.approx(left - 10)  # charged, no increment
    assert seat not in room.to_act() and room.clock.since == NOW + 10


def test_a_runner_leaving_before_the_clocks_run_is_not_charged(registry: Registry) -> None:
    room = race(registry, clock={"type": "fischer", "base": 60, "increment": 5})
    run(room, room.resign(0, "tok-0", NOW + 10))  # no clock runs before every first move
    assert room.clock is not None and room.clock.left == [60.0, 60.0, 60.0]
    assert room.to_act() == {1} and room.clock.since == NOW + 10
    play_current(room, NOW + 11)
    play_current(room, NOW + 12)  # seat 0 left, 1 and 2 moved: the clocks run now
    assert room.clock.running
