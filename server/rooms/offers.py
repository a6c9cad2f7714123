"""Offers between the seats of a room: draws and rematches (decide + fold).

:class:`Offers` is the part of a room (:class:`~server.rooms.table.Table`) that holds what
the seats are agreeing on rather than playing: an open draw offer (two-seat games; it lapses
when the offerer's opponent moves instead of answering) and, once the game is over, the
rematch asked for (when every person seated asks, the shell creates the new room; bots accept
by policy). The room checks who is asking and that the game is in the right phase; the part
decides the events from its own state and folds them in. Ending the game — an agreed draw,
an abort (:data:`ABORTED`) — is the room's: it ends the clocks and the game too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .errors import BadRequest, GameOver
from .values import Event

Json = dict[str, Any]

#: the reason of an aborted game's outcome (no result: ratings leave it alone)
ABORTED = "aborted"


class Offers:
    """The open draw offer and the rematch of a room with ``n_seats`` seats."""

    __slots__ = ("draw_offer", "n_seats", "rematch", "rematch_votes")

    def __init__(self, n_seats: int) -> None:
        self.n_seats = n_seats
        #: the seat whose draw offer is open, if any
        self.draw_offer: int | None = None
        #: the seats (people) that asked for a rematch; ``rematch`` once it was agreed
        self.rematch_votes: set[int] = set()
        self.rematch: Json | None = None

    # -- draws (the game is on, the seat's actor checked) ----------------------------------

    def offer_draw(self, seat: int, now: float) -> list[Event]:
        """Offer a draw; offering when the opponent's offer is open accepts it."""
        if self.n_seats != 2:
            raise BadRequest("draws are offered in two-seat games (resign to leave a race)")
        if self.draw_offer == seat:
            raise BadRequest("your draw offer is already open")
        if self.draw_offer is not None:
            return [
                Event("draw_answer", {"seat": seat, "accept": True}, now),
                Event("draw", {"reason": "agreement"}, now),
            ]
        return [Event("draw_offer", {"seat": seat}, now)]

    def answer_draw(self, seat: int, accept: Any, now: float) -> list[Event]:
        if not isinstance(accept, bool):
            raise BadRequest("accept must be true or false")
        if self.draw_offer is None or self.draw_offer == seat:
            raise BadRequest("there is no draw offer to answer")
        events = [Event("draw_answer", {"seat": seat, "accept": accept}, now)]
        if accept:
            events.append(Event("draw", {"reason": "agreement"}, now))
        return events

    # -- rematches (the game is over, the seat's actor checked) ----------------------------

    def offer_rematch(self, seat: int, now: float) -> list[Event]:
        if self.rematch is not None:
            raise GameOver("the rematch has been agreed already")
        if seat in self.rematch_votes:
            raise BadRequest("you asked for a rematch already")
        return [Event("rematch_offer", {"seat": seat}, now)]

    def decline_rematch(self, seat: int, now: float) -> list[Event]:
        if not self.rematch_votes or self.rematch is not None:
            raise BadRequest("there is no rematch offer to decline")
        return [Event("rematch_declined", {"seat": seat}, now)]

    def rematch_agreed(self, people: set[int]) -> bool:
        """Every one of ``people`` (the seats held by persons) asked for the rematch."""
        return bool(people) and people <= self.rematch_votes and self.rematch is None

    @staticmethod
    def settle_rematch(new_room: str, tokens: Mapping[int, str], now: float) -> Event:
        """The event recording the new room and each person's seat token there."""
        data = {"new_room": new_room, "tokens": {str(s): t for s, t in tokens.items()}}
        return Event("rematch", data, now)

    def rematch_seat(self, seat: int) -> int:
        """Seat ``seat`` of this room sits at ``(seat + 1) % n`` in the rematch: colours swap
        for two."""
        return (seat + 1) % self.n_seats

    def rematch_json(self) -> Json | None:
        """The rematch as a snapshot shows it: who asked, and the new room once agreed."""
        if self.rematch:
            return {"asked": sorted(self.rematch_votes), "new_room": self.rematch["new_room"]}
        if self.rematch_votes:
            return {"asked": sorted(self.rematch_votes), "new_room": None}
        return None

    # -- fold ------------------------------------------------------------------------------

    def offered_draw(self, seat: int) -> None:
        self.draw_offer = seat

    def close_draw_offer(self) -> None:
        """The draw offer was answered, or the game ended."""
        self.draw_offer = None

    def lapse_draw_offer(self, movers: Iterable[int]) -> None:
        """A move by anyone but the offerer declines the open draw offer."""
        if self.draw_offer is not None and set(movers) - {self.draw_offer}:
            self.draw_offer = None

    def asked_rematch(self, seat: int) -> None:
        self.rematch_votes.add(seat)

    def declined_rematch(self) -> None:
        self.rematch_votes.clear()

    def settled_rematch(self, d: Mapping[str, Any]) -> None:
        self.rematch = dict(d)


__all__ = ["ABORTED", "Offers"]
