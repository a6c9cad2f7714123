"""Room errors: a client asked for something the room refuses. Nothing changes when raised.

Every class carries the stable wire ``code`` the protocol sends::

    RoomError                                   (client faults; the engine's errors pass
    ├── BadRequest          bad_request          through with their own codes:
    ├── NoSuchSeat          no_such_seat         bad_options, bad_move, illegal_move)
    ├── SeatTaken           seat_taken
    ├── BadToken            bad_token
    ├── NotSeated           not_seated
    ├── NotYourTurn         not_your_turn
    ├── NotStarted          not_started
    ├── GameOver            game_over
    ├── StaleVersion        stale_version
    ├── UndoUnavailable     undo_unavailable
    ├── NotFinished         not_finished
    ├── TimeUp              time_up
    └── Forbidden           forbidden
"""

from __future__ import annotations

from typing import ClassVar


class RoomError(Exception):
    code: ClassVar[str] = "room_error"


class BadRequest(RoomError):
    code = "bad_request"


class NoSuchSeat(RoomError):
    code = "no_such_seat"


class SeatTaken(RoomError):
    code = "seat_taken"


class BadToken(RoomError):
    code = "bad_token"


class NotSeated(RoomError):
    code = "not_seated"


class NotYourTurn(RoomError):
    code = "not_your_turn"


class NotStarted(RoomError):
    code = "not_started"


class GameOver(RoomError):
    code = "game_over"


class StaleVersion(RoomError):
    code = "stale_version"


class UndoUnavailable(RoomError):
    code = "undo_unavailable"


class NotFinished(RoomError):
    code = "not_finished"


class Forbidden(RoomError):
    code = "forbidden"


class TimeUp(RoomError):
    code = "time_up"
