"""The room state machine, without sockets: decide -> events -> apply."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.engine import IllegalMove, InvalidMove, InvalidOptions, Registry
from server.rooms import errors
from server.rooms.room import BOT, Event, Room
from server.rooms.seating import Seats

NOW = 1_700_000_000.0


def make(registry: Registry, game: str = "chess", **kw: Any) -> Room:
    event = Room.create("r1", game, kw.pop("options", None), None, "seed", NOW, kw, registry)
    return Room.from_created(event, registry)


def run(room: Room, events: list[Event]) -> list[tuple[int | None, dict[str, Any]]]:
    outs = []
    for e in events:
        outs.extend(room.apply(e))
    return outs


def seated(registry: Registry, game: str = "chess", **kw: Any) -> Room:
    room = make(registry, game, **kw)
    run(room, room.take_seat(0, "tok-a", "Ada", NOW))
    run(room, room.take_seat(1, "tok-b", "Bob", NOW))
    return room


def test_seats_then_start(registry: Registry) -> None:
    room = make(registry)
    assert room.status == "waiting"
    run(room, room.take_seat(None, "tok-a", "Ada", NOW))
    assert room.seats[0].name == "Ada" and room.status == "waiting"
    with pytest.raises(errors.SeatTaken):
        room.take_seat(0, "tok-x", "Eve", NOW)
    run(room, room.take_seat(None, "tok-b", "Bob", NOW))
    assert room.status == "playing" and room.to_act() == {0}
    with pytest.raises(errors.SeatTaken):
        room.take_seat(None, "tok-c", "Cy", NOW)


def test_refused_commands_change_nothing(registry: Registry) -> None:
    room = seated(registry)
    before = (room.version, room.state.board.fen())
    for bad in (
        lambda: room.move(1, "tok-b", "e7e5", NOW),  # not Black's turn
        lambda: room.move(0, "tok-b", "e2e4", NOW),  # wrong token
        lambda: room.move(0, "tok-a", "e2e5", NOW),  # illegal
        lambda: room.move(0, "tok-a", "zz", NOW),  # does not parse
        lambda: room.move(5, "tok-a", "e2e4", NOW),  # no such seat
        lambda: room.move(0, "tok-a", "e2e4", NOW, expect_version=1),  # stale
        lambda: room.take_seat(0, "t", "", NOW),  # bad name
    ):
        with pytest.raises((errors.RoomError, IllegalMove, InvalidMove)):
            bad()
    assert (room.version, room.state.board.fen()) == before


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda r: r.move(1, "tok-b", "e7e5", NOW), "not_your_turn"),
        (lambda r: r.move(0, "tok-b", "e2e4", NOW), "bad_token"),
        (lambda r: r.move(0, "tok-a", "e2e5", NOW), "illegal_move"),
        (lambda r: r.move(0, "tok-a", "hello", NOW), "bad_move"),
        (lambda r: r.move(7, "tok-a", "e2e4", NOW), "no_such_seat"),
        (lambda r: r.move(0, "tok-a", "e2e4", NOW, 99), "stale_version"),
        (lambda r: r.move(0, BOT, "e2e4", NOW), "not_seated"),
    ],
)
def test_error_codes(registry: Registry, call: Any, code: str) -> None:
    room = seated(registry)
    with pytest.raises(Exception) as info:
        call(room)
    assert info.value.code == code  # type: ignore[attr-defined]


def test_fools_mate_ends_the_game_and_records(registry: Registry) -> None:
    room = seated(registry)
    for seat, tok, mv in [
        (0, "tok-a", "f2f3"),
        (1, "tok-b", "e7e5"),
        (0, "tok-a", "g2g4"),
        (1, "tok-b", "d8h4"),
    ]:
        run(room, room.move(seat, tok, mv, NOW))
    assert room.status == "over"
    assert room.outcome is not None and room.outcome.winner == 1
    assert room.outcome.reason == "checkmate"
    with pytest.raises(errors.GameOver):
        room.move(0, "tok-a", "a2a3", NOW)
    rec = room.record()
    assert [t["moves"] for t in rec["moves"]][-1] == {"1": "d8h4"}
    assert "0-1" in rec["exports"]["pgn"] and "Qh4#" in rec["exports"]["pgn"]


def test_replay_rebuilds_the_same_room(registry: Registry) -> None:
    room = seated(registry)
    for seat, tok, mv in [(0, "tok-a", "e2e4"), (1, "tok-b", "c7c5"), (0, "tok-a", "g1f3")]:
        run(room, room.move(seat, tok, mv, NOW))
    again = Room.replay([Event.from_record(e.to_record()) for e in room.events], registry)
    assert again.version == room.version
    assert again.state.board.fen() == room.state.board.fen()
    assert again.snapshot(0) == room.snapshot(0)
    assert again.snapshot(None) == room.snapshot(None)


def test_sealed_simultaneous_turn_reveals_nothing_early(registry: Registry) -> None:
    room = seated(registry, "rps")
    assert room.to_act() == {0, 1}
    events = room.move(0, "tok-a", "rock", NOW)
    assert [e.kind for e in events] == ["sealed"]
    outs = dict(run(room, events))
    assert "rock" in json.dumps(outs[0])  # the submitter sees its own sealed move
    for r in (1, None):  # the opponent and spectators learn only that seat 0 moved
        assert "your_move" not in outs[r]
        assert outs[r]["events"] == [{"kind": "sealed", "seat": 0}]
        assert outs[r]["sealed"] == [0]
    # the same bytes whatever seat 0 threw: nothing depends on the sealed move
    other = seated(registry, "rps")
    outs2 = dict(run(other, other.move(0, "tok-a", "paper", NOW)))
    assert json.dumps(outs2[1]) == json.dumps(outs[1])
    assert json.dumps(outs2[None]) == json.dumps(outs[None])
    # a seat may change its sealed move until the turn resolves
    outs = dict(run(room, room.move(0, "tok-a", "scissors", NOW)))
    assert outs[0]["your_move"] == "scissors"
    events = room.move(1, "tok-b", "paper", NOW)
    assert [e.kind for e in events] == ["move"]
    outs = dict(run(room, events))
    assert outs[None]["view"]["history"] == [["scissors", "paper"]]
    assert room.outcome is not None and room.outcome.winner == 0


def _remembered_tokens_still_checked(room: Room) -> None:
    """A token that proved right once (remembered, so not hashed again) is still right only
    for its own seat, and only while that seat's holder is the same."""
    run(room, room.take_seat(0, "tok-a", "Ada", NOW))
    room.check_token(0, "tok-a")
    room.check_token(0, "tok-a")  # remembered now
    run(room, room.leave_seat(0, "tok-a", NOW))
    run(room, room.take_seat(0, "tok-c", "Cy", NOW))
    with pytest.raises(errors.BadToken):  # the old holder's token, remembered
        room.check_token(0, "tok-a")
    run(room, room.take_seat(1, "tok-b", "Bob", NOW))
    room.check_token(0, "tok-c")
    room.check_token(1, "tok-b")
    for seat, token in ((1, "tok-c"), (0, "tok-b"), (0, "tok-x")):
        with pytest.raises(errors.BadToken):  # right for the other seat only, or never
            room.check_token(seat, token)


def test_remembered_tokens_are_still_checked(registry: Registry) -> None:
    _remembered_tokens_still_checked(make(registry))


def test_the_token_check_catches_a_memo_that_trusts_what_it_saw(registry: Registry) -> None:
    class Trusting(Seats):
        """Broken on purpose: a token seen right once passes for any seat, any holder."""

        __slots__ = ()

        def check_token(self, seat: int, token: Any) -> None:
            if token in self._tokens:
                return
            super().check_token(seat, token)

    broken = make(registry)
    broken.seats = Trusting(broken.n_seats)  # the room's seats, before anybody sat down
    with pytest.raises(pytest.fail.Exception):
        _remembered_tokens_still_checked(broken)


def test_resign(registry: Registry) -> None:
    room = seated(registry)
    with pytest.raises(errors.BadToken):
        room.resign(1, "tok-a", NOW)
    run(room, room.resign(1, "tok-b", NOW))
    assert room.outcome is not None and room.outcome.winner == 0
    assert room.outcome.reason == "resignation"


def test_undo_needs_the_opponent(registry: Registry) -> None:
    room = seated(registry)
    run(room, room.move(0, "tok-a", "e2e4", NOW))
    run(room, room.move(1, "tok-b", "e7e5", NOW))
    with pytest.raises(errors.UndoUnavailable):
        room.answer_undo(1, "tok-b", True, NOW)
    events = room.request_undo(0, "tok-a", NOW)
    assert [e.kind for e in events] == ["undo_request"]
    run(room, events)
    with pytest.raises(errors.BadRequest):
        room.answer_undo(0, "tok-a", True, NOW)  # the requester has no vote
    events = room.answer_undo(1, "tok-b", True, NOW)
    assert [e.kind for e in events] == ["undo_answer", "undo"]
    run(room, events)
    # White's e2e4 is taken back, and Black's reply with it
    assert room.state.board.fen().startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP")
    assert room.to_act() == {0}


def test_undo_declined(registry: Registry) -> None:
    room = seated(registry)
    run(room, room.move(0, "tok-a", "e2e4", NOW))
    run(room, room.request_undo(0, "tok-a", NOW))
    run(room, room.answer_undo(1, "tok-b", False, NOW))
    assert room.undo_request is None and len(room.turns) == 1


def test_undo_against_a_bot_is_accepted_by_policy(registry: Registry) -> None:
    room = make(registry)
    run(room, room.take_seat(0, "tok-a", "Ada", NOW))
    run(room, room.add_bot(1, "random", "Bot", NOW))
    run(room, room.move(0, "tok-a", "e2e4", NOW))
    run(room, room.move(1, BOT, "e7e5", NOW))
    events = room.request_undo(0, "tok-a", NOW)
    assert [e.kind for e in events] == ["undo_request", "undo"]
    run(room, events)
    assert room.turns == []


def test_undo_off_by_default_in_hidden_games(registry: Registry) -> None:
    room = seated(registry, "dark_chess")
    assert room.policy.undo is False
    run(room, room.move(0, "tok-a", "e2e4", NOW))
    with pytest.raises(errors.UndoUnavailable):
        room.request_undo(0, "tok-a", NOW)
    assert seated(registry, "dark_chess", undo=True).policy.undo is True


def test_hidden_record_opens_at_the_end(registry: Registry) -> None:
    room = seated(registry, "dark_chess")
    with pytest.raises(errors.NotFinished):
        room.record()
    run(room, room.resign(0, "tok-a", NOW))
    assert room.record()["seed"] == "seed"


def test_create_refuses_bad_options(registry: Registry) -> None:
    with pytest.raises(InvalidOptions):
        Room.create("r", "chess", {"fen": "nonsense"}, None, "s", NOW, None, registry)
    with pytest.raises(InvalidOptions):
        Room.create("r", "chess", {"colour": "red"}, None, "s", NOW, None, registry)
    with pytest.raises(InvalidOptions):
        Room.create("r", "chess", None, 3, "s", NOW, None, registry)
    with pytest.raises(InvalidOptions):
        Room.create("r", "chess", None, None, "s", NOW, {"undo": "yes"}, registry)
    with pytest.raises(KeyError):
        Room.create("r", "go", None, None, "s", NOW, None, registry)


def test_resync_lists_missed_events_for_that_recipient(registry: Registry) -> None:
    room = seated(registry, "rps", options={"rounds": 2})
    v = room.version
    run(room, room.move(0, "tok-a", "rock", NOW))
    msg = room.resync(1, v)
    assert msg["events"] == [{"kind": "sealed", "seat": 0}]
    assert "your_move" not in msg
    assert room.resync(0, v)["events"] == [{"kind": "sealed", "seat": 0, "move": "rock"}]
    assert room.resync(None, None)["events"] is None
    assert room.resync(None, room.version)["events"] == []


def test_leave_before_start_frees_the_seat(registry: Registry) -> None:
    room = make(registry)
    run(room, room.take_seat(0, "tok-a", "Ada", NOW))
    run(room, room.leave_seat(0, "tok-a", NOW))
    assert room.seats[0].kind == "empty"
    room = seated(registry)
    with pytest.raises(errors.BadRequest):
        room.leave_seat(0, "tok-a", NOW)


def test_a_running_game_that_hides_a_chance_draw_shows_its_moves_not_its_seed(
    registry: Registry,
) -> None:
    """BanQi (face-down pieces) and Hase und Igel (the deck): every move is public, the
    seed would tell the draw. Dark Chess's moves are not public: refused until the end."""
    room = seated(registry, "banqi")
    run(room, room.move(0, "tok-a", str(room.game.legal_moves(room.state, 0)[0]), NOW))
    rec = room.record()
    assert "seed" not in rec and len(rec["moves"]) == 1
    run(room, room.resign(0, "tok-a", NOW))
    assert room.record()["seed"] == "seed"  # over: the whole record
    with pytest.raises(errors.NotFinished):
        seated(registry, "dark_chess").record()


def test_history_is_what_each_recipient_was_shown(registry: Registry) -> None:
    """Seat by seat and for spectators (here with a delay of 2), the history rebuilt from
    the seed is exactly the views the room sent live, turn after turn."""
    room = make(registry, "banqi", spectator_delay=2)
    live: dict[Any, list[Any]] = {0: [], 1: [], None: []}
    run(room, room.take_seat(0, "tok-a", "Ada", NOW))
    run(room, room.take_seat(1, "tok-b", "Bob", NOW))
    for r in live:
        live[r].append(room.view_for(r))
    for i in range(6):
        seat = min(room.to_act())
        move = str(room.game.legal_moves(room.state, seat)[i % 3])
        run(room, room.move(seat, f"tok-{'ab'[seat]}", move, NOW + i))
        for r in live:
            live[r].append(room.view_for(r))
    for r in (0, 1):
        assert [t["view"] for t in room.history(r)["turns"]] == live[r]
    spectator = room.history(None)["turns"]
    assert len(spectator) == 7 - 2  # two turns late
    # what a delayed spectator sees at turn T is what it was shown when the game was 2 on
    assert [t["view"] for t in spectator] == live[None][2:]


def test_a_room_nobody_saw_is_seated_before_its_first_append(registry: Registry) -> None:
    """``seat_unseen``: the seats a room is created with, decided in turn and folded, their
    records for the one append; replaying ``created`` + those records gives the same room."""
    room = make(registry)
    created = room.events[0].to_record()
    sit = [
        ("take_seat", {"seat": 1, "token": "t" * 24, "name": "Ada"}),
        ("add_bot", {"seat": 0, "bot": "random", "name": "Random bot"}),
    ]
    records = room.seat_unseen(sit, NOW)
    assert len(records) >= 2  # the two seats (and the start, if the table makes one)
    assert room.status == "playing" and room.version == 1 + len(records)
    again = Room.replay([Event.from_record(r) for r in (created, *records)], registry)
    assert again.summary() == room.summary()
    with pytest.raises(errors.RoomError):  # the seat is taken: refused, as take_seat is
        taken = ("take_seat", {"seat": 1, "token": "u" * 24, "name": "B"})
        make(registry).seat_unseen([*sit, taken], NOW)
    with pytest.raises(ValueError):
        make(registry).seat_unseen([("move", {"seat": 0, "move": "e2e4"})], NOW)
