"""Clocks and spectator policy in the pure room, driven by event times."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import InvalidOptions, Registry
from server.rooms import errors
from server.rooms.room import BOT, Event, Room

T0 = 1_000.0


def room_with(registry: Registry, game: str, settings: dict[str, Any], **options: Any) -> Room:
    event = Room.create("r", game, options or None, None, "seed", T0, settings, registry)
    room = Room.from_created(event, registry)
    for e in room.take_seat(0, "a", "Ada", T0):
        room.apply(e)
    for e in room.take_seat(1, "b", "Bob", T0 + 1):
        room.apply(e)
    return room


def step(room: Room, events: list[Event]) -> None:
    for e in events:
        room.apply(e)


def opened(room: Room, at: float) -> None:
    """Both sides make their first move at ``at`` (1.e4 e5): the clocks start then."""
    step(room, room.move(0, "a", "e2e4", at))
    step(room, room.move(1, "b", "e7e5", at))


def test_no_clock_runs_until_each_side_has_moved(registry: Registry) -> None:
    """As on lichess: White's first move and Black's are free; the clocks start when Black
    has made theirs (issue 34, item 3)."""
    room = room_with(registry, "chess", {"clock": {"type": "fischer", "base": 60, "increment": 2}})
    assert room.clock is not None and not room.clock.running
    assert room.snapshot(None)["clock"]["running"] == []
    # 60 + 40 x 2 = 140 s: bullet, 20 s for the first move (lichess's)
    assert room.policy.first_move == 20 and room.deadline() == T0 + 1 + 20
    step(room, room.move(0, "a", "e2e4", T0 + 11))
    assert room.clock.left == [60.0, 60.0] and not room.clock.running  # nothing charged
    assert room.deadline() == T0 + 11 + 20  # Black's first move, from White's
    step(room, room.move(1, "b", "e7e5", T0 + 21))
    assert room.clock.running and room.clock.left == [60.0, 60.0]
    assert room.deadline() == T0 + 21 + 60  # now White's clock runs
    step(room, room.move(0, "a", "g1f3", T0 + 31))
    assert room.clock.left == [52.0, 60.0]
    step(room, room.move(1, "b", "b8c6", T0 + 61))
    assert room.clock.left == [52.0, 32.0]
    snap = room.snapshot(None)["clock"]
    assert snap == {
        "type": "fischer",
        "base": 60.0,
        "increment": 2.0,
        "left": [52.0, 32.0],
        "running": [0],
        "since": T0 + 61,
        "started": True,
        "abort_at": None,
    }


@pytest.mark.parametrize("mover", [0, 1])
def test_a_first_move_that_does_not_come_aborts_the_game_unrated(
    registry: Registry, mover: int
) -> None:
    """No first move within the time (per move 5 s: blitz, 25 s): the game is aborted — an
    ``abort`` event with its reason, in the log, naming the seat that did not move; White's
    (``mover`` 0) or Black's after White's (``mover`` 1). A per-move clock never flags a
    player who has not moved (it did before)."""
    room = room_with(registry, "chess", {"clock": {"type": "per_move", "seconds": 5}})
    began = T0 + 1
    if mover == 1:
        step(room, room.move(0, "a", "e2e4", T0 + 3))
        began = T0 + 3
    assert room.snapshot(None)["clock"]["abort_at"] == began + 25
    assert room.tick(began + 24.9) == []  # five per-move clocks' worth: nobody flagged
    events = room.tick(began + 25.1)
    assert [(e.kind, dict(e.data)) for e in events] == [
        ("abort", {"seat": mover, "reason": "no_first_move"})
    ]
    outs = dict(room.apply(events[0]))
    assert outs[None]["events"] == [{"kind": "abort", "seat": mover, "reason": "no_first_move"}]
    assert room.outcome is not None and room.outcome.reason == "aborted"
    assert room.outcome.winner is None and room.deadline() is None
    again = Room.replay(room.events, registry)  # the abort is an event of the log
    assert again.outcome == room.outcome and again.version == room.version


def test_the_first_move_time_is_a_setting(registry: Registry) -> None:
    clock = {"type": "fischer", "base": 180, "increment": 2}  # blitz: 25 s by default
    assert room_with(registry, "chess", {"clock": clock}).deadline() == T0 + 1 + 25
    assert room_with(registry, "chess", {"clock": clock, "first_move": 60}).deadline() == T0 + 61
    never = room_with(registry, "chess", {"clock": clock, "first_move": 0})
    assert never.deadline() is None and never.tick(T0 + 10_000) == []
    assert room_with(registry, "chess", {}).policy.first_move == 0  # untimed: never
    for bad in (3, -1, True, "30", 4000):
        with pytest.raises(InvalidOptions):
            Room.create(
                "r", "chess", None, None, "s", T0, {"clock": clock, "first_move": bad}, registry
            )


def test_flag_fall_loses_a_turn_based_game(registry: Registry) -> None:
    room = room_with(registry, "chess", {"clock": {"type": "per_move", "seconds": 5}})
    opened(room, T0 + 1)
    assert room.tick(T0 + 5.9) == []
    with pytest.raises(errors.TimeUp):
        room.move(0, "a", "g1f3", T0 + 6.5)
    events = room.tick(T0 + 6.5)
    assert [(e.kind, dict(e.data)) for e in events] == [("timeout", {"seat": 0})]
    step(room, events)
    assert room.outcome is not None and room.outcome.winner == 1
    assert room.outcome.reason == "timeout"
    assert room.deadline() is None and room.tick(T0 + 100) == []


def test_a_fallen_fischer_flag_shows_no_time_left(registry: Registry) -> None:
    room = room_with(registry, "chess", {"clock": {"type": "fischer", "base": 5, "increment": 3}})
    opened(room, T0 + 1)
    step(room, room.tick(T0 + 7))
    assert room.clock is not None and room.clock.left == [0.0, 5.0]
    assert room.snapshot(None)["clock"]["running"] == []


def test_per_move_clock_resets_each_turn(registry: Registry) -> None:
    room = room_with(registry, "chess", {"clock": {"type": "per_move", "seconds": 5}})
    opened(room, T0 + 1)
    step(room, room.move(0, "a", "g1f3", T0 + 5))
    step(room, room.move(1, "b", "b8c6", T0 + 9.5))
    assert room.deadline() == T0 + 9.5 + 5


def test_the_clock_replays_from_event_times(registry: Registry) -> None:
    """A restart rebuilds the clock from the log: downtime counts, nothing resets."""
    room = room_with(registry, "chess", {"clock": {"type": "fischer", "base": 30, "increment": 0}})
    opened(room, T0 + 1)
    step(room, room.move(0, "a", "g1f3", T0 + 10))
    again = Room.replay(room.events, registry)
    assert again.clock is not None and room.clock is not None
    assert again.clock.left == room.clock.left and again.deadline() == room.deadline()
    # the server was down for a minute: Black's flag has fallen when it comes back
    assert [e.kind for e in again.tick(T0 + 70)] == ["timeout"]


def test_simultaneous_forfeit_hits_only_the_seat_that_did_not_move(registry: Registry) -> None:
    room = room_with(registry, "rps", {"clock": {"type": "per_move", "seconds": 10}}, rounds=3)
    step(room, room.move(0, "a", "rock", T0 + 1))
    step(room, room.move(1, "b", "rock", T0 + 1))  # both moved: the clocks run
    step(room, room.move(1, "b", "rock", T0 + 3))
    assert room.deadline() == T0 + 11  # only seat 0's clock still runs
    events = room.tick(T0 + 12)
    assert [(e.kind, dict(e.data)) for e in events] == [("timeout", {"seat": 0})]
    step(room, events)
    assert room.outcome is not None and room.outcome.winner == 1


def test_simultaneous_random_move_on_timeout(registry: Registry) -> None:
    settings = {"clock": {"type": "per_move", "seconds": 10}, "on_timeout": "random"}
    room = room_with(registry, "rps", settings, rounds=3)
    step(room, room.move(0, "a", "rock", T0 + 1))
    step(room, room.move(1, "b", "rock", T0 + 1))  # both moved: the clocks run
    step(room, room.move(1, "b", "rock", T0 + 3))
    events = room.tick(T0 + 12)
    assert [e.kind for e in events] == ["move"]
    assert events[0].data["moves"]["1"] == "rock"
    assert events[0].data["moves"]["0"] in ("rock", "paper", "scissors")
    step(room, events)
    assert room.status == "playing" and len(room.turns) == 2
    # a replay plays the same random move
    assert Room.replay(room.events, registry).turns == room.turns


def test_bad_clock_settings(registry: Registry) -> None:
    for bad in (
        {"clock": {"type": "sandglass"}},
        {"clock": {"type": "fischer", "base": -1}},
        {"clock": {"type": "fischer", "base": 60, "increment": "2"}},
        {"clock": {"type": "per_move", "seconds": 5, "colour": 1}},
        {"clock": 5},
        {"on_timeout": "sulk"},
        {"spectator_delay": -1},
        {"spectator_delay": 1.5},
    ):
        with pytest.raises(InvalidOptions):
            Room.create("r", "chess", None, None, "s", T0, bad, registry)


def test_spectators_see_everything_n_turns_late(registry: Registry) -> None:
    room = room_with(registry, "dark_chess", {"spectator_delay": 2, "spectators_see_all": True})
    view = room.snapshot(None)["view"]
    assert view["delayed"] == 2 and view["turn"] == 0
    assert [v for v in view["seats"]] == [room.game.view(room.state, s) for s in (0, 1)]
    moves = [(0, "a", "e2e4"), (1, "b", "e7e5"), (0, "a", "g1f3")]
    states = [room.state]
    for seat, tok, mv in moves:
        step(room, room.move(seat, tok, mv, T0 + 5))
        states.append(room.state)
    view = room.snapshot(None)["view"]
    assert view["turn"] == 1  # three turns played, shown two late
    assert view["seats"] == [room.game.view(states[1], s) for s in (0, 1)]
    # seats still get their own live view
    assert room.snapshot(0)["view"] == room.game.view(room.state, 0)
    step(room, room.resign(1, "b", T0 + 6))
    assert room.snapshot(None)["view"]["turn"] == 3  # over: no delay any more


def test_public_spectator_view_by_default(registry: Registry) -> None:
    room = room_with(registry, "dark_chess", {})
    assert room.snapshot(None)["view"] == room.game.view(room.state, None)
    assert room.policy.spectator_delay == 0


def test_bot_seats_have_clocks_too(registry: Registry) -> None:
    event = Room.create(
        "r", "chess", None, None, "s", T0, {"clock": {"type": "per_move", "seconds": 1}}, registry
    )
    room = Room.from_created(event, registry)
    step(room, room.add_bot(0, "random", "Bot", T0))
    step(room, room.take_seat(1, "b", "Bob", T0))
    assert room.bot_seats_to_act() == [0]
    assert room.deadline() is None  # a bot owes its first move: no first-move wait
    step(room, room.move(0, BOT, "e2e4", T0 + 0.5))
    assert room.deadline() == T0 + 0.5 + 20  # Bob's first move (per move 1 s: bullet)
    step(room, room.move(1, "b", "e7e5", T0 + 2))
    step(room, room.move(0, BOT, "g1f3", T0 + 2.5))
    assert room.deadline() == T0 + 3.5


@pytest.mark.parametrize("end", ["resign", "draw", "abort"])
def test_the_clock_that_ran_is_charged_when_the_game_ends(registry: Registry, end: str) -> None:
    """Fischer 3+2, after 1.e4 e5 2.Nf3: Black thinks 9 s, then White resigns (or they
    agree a draw): Black's clock shows 171 s, not the 180 its turn began with (it jumped
    back up when the game ended). An abort comes before the clocks ran: nothing charged."""
    room = room_with(registry, "chess", {"clock": {"type": "fischer", "base": 180, "increment": 2}})
    if end != "abort":
        opened(room, T0 + 1)
        step(room, room.move(0, "a", "g1f3", T0 + 1))  # White's move: +2
        assert room.clock is not None and room.clock.left == [182.0, 180.0]
    else:  # before Black's first move no clock ran: nothing to charge
        step(room, room.move(0, "a", "e2e4", T0 + 1))
    later = T0 + 10
    if end == "resign":
        step(room, room.resign(0, "a", later))
    elif end == "draw":
        step(room, room.offer_draw(0, "a", later - 1))
        step(room, room.answer_draw(1, "b", True, later))
    else:
        step(room, room.abort(1, "b", later))
    assert room.outcome is not None and room.clock is not None
    if end == "abort":
        assert room.clock.left == [180.0, 180.0]
    else:
        assert room.clock.left == [182.0, 171.0]  # Black ran 9 s; nobody got an increment
    assert room.snapshot(None)["clock"]["running"] == []
