"""Offers between the seats of a room: draws, aborts, rematches (decide + fold).

:class:`Offers` is the part of :class:`~server.rooms.room.Room` that handles what the seats
agree on rather than play: a draw offer (two-seat games; it lapses when the offerer's
opponent moves instead of answering), an abort before every seat has made its first move
(the game ends with no result — and, with ratings, unrated), and a rematch once the game is
over (when every person seated accepts, the shell creates the new room; bots accept by
policy). Like every command, each method only decides events; ``_apply_*`` folds them in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine import Outcome
from .errors import BadRequest, GameOver, NotFinished
from .values import Event

if TYPE_CHECKING:
    from ..engine import Game
    from .values import Actor, Seat, Turns

#: the reason of an aborted game's outcome (no result: ratings leave it alone)
ABORTED = "aborted"


class Offers:
    """Draw offers, aborts and rematch offers of a room."""

    if not TYPE_CHECKING:  # the room (room.py) holds every attribute in its slots
        __slots__ = ()

    game: Game[Any, Any]
    n_seats: int
    seats: list[Seat]
    turns: Turns
    outcome: Outcome | None
    started: bool
    pending: dict[int, Any]
    #: the seat whose draw offer is open, if any
    draw_offer: int | None
    #: the seats (people) that asked for a rematch; ``rematch`` once it was agreed
    rematch_votes: set[int]
    rematch: Mapping[str, Any] | None

    def _check_actor(self, seat: Any, actor: Actor) -> None:
        raise NotImplementedError

    def _playing(self) -> None:
        raise NotImplementedError

    if TYPE_CHECKING:  # the room's clocks (server/rooms/timing.py)

        def _stop_clocks(self, at: float) -> None: ...

    def _event(self, kind: str, data: Mapping[str, Any], now: float) -> Event:
        return Event(kind, data, now)

    # -- draws ------------------------------------------------------------------------------

    def offer_draw(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """Offer a draw; offering when the opponent's offer is open accepts it."""
        self._check_actor(seat, actor)
        self._playing()
        if self.n_seats != 2:
            raise BadRequest("draws are offered in two-seat games (resign to leave a race)")
        if self.draw_offer == seat:
            raise BadRequest("your draw offer is already open")
        if self.draw_offer is not None:
            return [
                self._event("draw_answer", {"seat": seat, "accept": True}, now),
                self._event("draw", {"reason": "agreement"}, now),
            ]
        return [self._event("draw_offer", {"seat": seat}, now)]

    def answer_draw(self, seat: int, actor: Actor, accept: Any, now: float) -> list[Event]:
        self._check_actor(seat, actor)
        self._playing()
        if not isinstance(accept, bool):
            raise BadRequest("accept must be true or false")
        if self.draw_offer is None or self.draw_offer == seat:
            raise BadRequest("there is no draw offer to answer")
        events = [self._event("draw_answer", {"seat": seat, "accept": accept}, now)]
        if accept:
            events.append(self._event("draw", {"reason": "agreement"}, now))
        return events

    # -- aborts -----------------------------------------------------------------------------

    def may_abort(self) -> bool:
        """Before every seat has made its first move (and while the game runs)."""
        moved = {int(s) for t in self.turns for s, _ in t.played}
        return self.started and self.outcome is None and len(moved) < self.n_seats

    def abort(self, seat: int, actor: Actor, now: float) -> list[Event]:
        self._check_actor(seat, actor)
        self._playing()
        if not self.may_abort():
            raise BadRequest("a game can be aborted only before every seat has moved: resign")
        return [self._event("abort", {"seat": seat}, now)]

    # -- rematches --------------------------------------------------------------------------

    def offer_rematch(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """Ask for a rematch once the game is over. When every person seated has asked,
        the answer says ``rematch_agreed`` and the shell creates the new room."""
        self._check_actor(seat, actor)
        if self.outcome is None:
            raise NotFinished("a rematch is offered once the game is over")
        if self.rematch is not None:
            raise GameOver("the rematch has been agreed already")
        if seat in self.rematch_votes:
            raise BadRequest("you asked for a rematch already")
        return [self._event("rematch_offer", {"seat": seat}, now)]

    def decline_rematch(self, seat: int, actor: Actor, now: float) -> list[Event]:
        self._check_actor(seat, actor)
        if not self.rematch_votes or self.rematch is not None:
            raise BadRequest("there is no rematch offer to decline")
        return [self._event("rematch_declined", {"seat": seat}, now)]

    def rematch_agreed(self) -> bool:
        """Every person seated asked for the rematch (bots accept by policy)."""
        people = {i for i, s in enumerate(self.seats) if s.kind == "person"}
        return bool(people) and people <= self.rematch_votes and self.rematch is None

    def settle_rematch(self, new_room: str, tokens: Mapping[int, str], now: float) -> Event:
        """The event recording the new room and each person's seat token there (seat ``s``
        of this room sits at ``(s + 1) % n`` in the new one: colours swap for two)."""
        return self._event(
            "rematch",
            {"new_room": new_room, "tokens": {str(s): t for s, t in tokens.items()}},
            now,
        )

    def rematch_seat(self, seat: int) -> int:
        return (seat + 1) % self.n_seats

    # -- fold -------------------------------------------------------------------------------

    def _apply_draw_offer(self, d: Mapping[str, Any], at: float) -> None:
        self.draw_offer = d["seat"]

    def _apply_draw_answer(self, d: Mapping[str, Any], at: float) -> None:
        self.draw_offer = None

    def _apply_draw(self, d: Mapping[str, Any], at: float) -> None:
        self._stop_clocks(at)
        self.outcome = Outcome.draw(self.n_seats, d["reason"])
        self.pending.clear()

    def _apply_abort(self, d: Mapping[str, Any], at: float) -> None:
        self._stop_clocks(at)
        self.outcome = Outcome.draw(self.n_seats, ABORTED)
        self.pending.clear()
        self.draw_offer = None

    def _apply_rematch_offer(self, d: Mapping[str, Any], at: float) -> None:
        self.rematch_votes.add(d["seat"])

    def _apply_rematch_declined(self, d: Mapping[str, Any], at: float) -> None:
        self.rematch_votes.clear()

    def _apply_rematch(self, d: Mapping[str, Any], at: float) -> None:
        self.rematch = dict(d)

    def lapse_draw_offer(self, movers: set[int]) -> None:
        """A move by anyone but the offerer declines the open draw offer."""
        if self.draw_offer is not None and movers - {self.draw_offer}:
            self.draw_offer = None


__all__ = ["ABORTED", "Offers"]
