"""Take-backs of a room: requests, answers, and how far back a take-back may go.

:class:`TakeBacks` is the part of a room (:class:`~server.rooms.table.Table`) that decides
take-backs: a seat asks to take back its last move (and whatever came after it), the other
people seated agree (bots by policy), and the room then replays its turns up to that point
from the seed (the ``undo`` event's fold, the room's: it rebuilds the game). A take-back
never goes behind a seat's leaving a game that went on without it (a runner out of a race).
The room checks who is asking and that the game is on; the part decides from its own state,
the turns and the seats it is handed.
"""

from __future__ import annotations

from typing import Any

from .errors import BadRequest, UndoUnavailable
from .policy import Policy
from .seating import Seats
from .values import Event, Turns, UndoRequest

Json = dict[str, Any]


class TakeBacks:
    """The open take-back request, how many take-backs there were, and how far back one may
    go."""

    __slots__ = ("bots_accept", "floor", "on", "request", "undos")

    def __init__(self, policy: Policy) -> None:
        self.on = policy.undo
        self.bots_accept = policy.bots_accept_undo
        self.request: UndoRequest | None = None
        #: take-backs so far (bots re-read the game after one)
        self.undos = 0
        #: a take-back never goes behind this turn (a seat left the game there)
        self.floor = 0

    def request_undo(self, seat: int, turns: Turns, seats: Seats, now: float) -> list[Event]:
        """Ask to take back ``seat``'s last move (and whatever came after it)."""
        if not self.on:
            raise UndoUnavailable("take-backs are off in this room")
        if self.request is not None:
            raise UndoUnavailable("a take-back request is already open")
        key = str(seat)
        own = [i for i, t in enumerate(turns) if any(s == key for s, _ in t.played)]
        if not own:
            raise UndoUnavailable("this seat has no move to take back")
        if own[-1] < self.floor:
            raise UndoUnavailable("a seat has left the game since this seat's last move")
        if seats.bots() - {seat} and not self.bots_accept:
            raise UndoUnavailable("the bots in this room do not accept take-backs")
        events = [Event("undo_request", {"seat": seat, "to_turn": own[-1]}, now)]
        if not self.voters(seat, seats):
            events.append(Event("undo", {"to_turn": own[-1]}, now))
        return events

    def answer_undo(self, seat: int, accept: Any, seats: Seats, now: float) -> list[Event]:
        req = self.request
        if req is None:
            raise UndoUnavailable("there is no take-back request to answer")
        if not isinstance(accept, bool):
            raise BadRequest("accept must be true or false")
        voters = self.voters(req.seat, seats)
        if seat not in voters or seat in req.accepted:
            raise BadRequest(f"seat {seat} has no vote on this take-back")
        events = [Event("undo_answer", {"seat": seat, "accept": accept}, now)]
        if accept and req.accepted | {seat} >= voters:
            events.append(Event("undo", {"to_turn": req.to_turn}, now))
        return events

    @staticmethod
    def voters(requester: int, seats: Seats) -> set[int]:
        """Seats whose consent a take-back needs: the other people (bots agree by policy)."""
        return seats.people() - {requester}

    def request_json(self) -> Json | None:
        """The open request as a snapshot shows it."""
        req = self.request
        return {"seat": req.seat, "accepted": sorted(req.accepted)} if req else None

    # -- fold ------------------------------------------------------------------------------

    def asked(self, seat: int, to_turn: int) -> None:
        self.request = UndoRequest(seat, to_turn)

    def answered(self, seat: int, accept: bool) -> None:
        assert self.request is not None
        if accept:
            self.request.accepted.add(seat)
        else:
            self.request = None

    def taken_back(self) -> None:
        self.undos += 1
        self.request = None

    def lapse(self) -> None:
        """The position moved on (a turn, a resignation): an open request is gone."""
        self.request = None

    def left_at(self, turn: int) -> None:
        """A seat left the game at ``turn``: no take-back goes behind it."""
        self.floor = turn


__all__ = ["TakeBacks"]
