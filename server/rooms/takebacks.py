"""Take-backs of a room (decide + fold).

:class:`TakeBacks` is the part of :class:`~server.rooms.room.Room` that takes moves back: a
seat asks to take back its last move (and whatever came after it), the other people seated
agree (bots by policy), and the room replays its turns up to that point from the seed. A
take-back never goes behind a seat's leaving a game that went on without it (a runner out of
a race). Like every command, each method only decides events; ``_apply_*`` folds them in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine import play_rng, turn_rng
from .errors import BadRequest, UndoUnavailable
from .values import Event, Recent, Turns, UndoRequest

if TYPE_CHECKING:
    from ..engine import Game
    from .clock import Clock
    from .policy import Policy
    from .values import Actor, Seat


class TakeBacks:
    """Take-back requests, answers and the replay that takes moves back."""

    if not TYPE_CHECKING:  # the room (room.py) holds every attribute in its slots
        __slots__ = ()

    game: Game[Any, Any]
    options: dict[str, Any]
    seed: str
    n_seats: int
    seats: list[Seat]
    policy: Policy
    state: Any
    turns: Turns
    past: Recent
    pending: dict[int, Any]
    clock: Clock | None
    undos: int
    #: a take-back never goes behind this turn (a seat left the game there)
    undo_floor: int
    undo_request: UndoRequest | None

    def _check_actor(self, seat: Any, actor: Actor) -> None:
        raise NotImplementedError

    def _playing(self) -> None:
        raise NotImplementedError

    def request_undo(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """Ask to take back this seat's last move (and whatever came after it)."""
        self._check_actor(seat, actor)
        self._playing()
        if not self.policy.undo:
            raise UndoUnavailable("take-backs are off in this room")
        if self.undo_request is not None:
            raise UndoUnavailable("a take-back request is already open")
        key = str(seat)
        own = [i for i, t in enumerate(self.turns) if any(s == key for s, _ in t.played)]
        if not own:
            raise UndoUnavailable("this seat has no move to take back")
        if own[-1] < self.undo_floor:
            raise UndoUnavailable("a seat has left the game since this seat's last move")
        bots = [i for i, s in enumerate(self.seats) if s.kind == "bot" and i != seat]
        if bots and not self.policy.bots_accept_undo:
            raise UndoUnavailable("the bots in this room do not accept take-backs")
        events = [Event("undo_request", {"seat": seat, "to_turn": own[-1]}, now)]
        if not self._undo_voters(seat):
            events.append(Event("undo", {"to_turn": own[-1]}, now))
        return events

    def answer_undo(self, seat: int, actor: Actor, accept: Any, now: float) -> list[Event]:
        self._check_actor(seat, actor)
        self._playing()
        req = self.undo_request
        if req is None:
            raise UndoUnavailable("there is no take-back request to answer")
        if not isinstance(accept, bool):
            raise BadRequest("accept must be true or false")
        if seat not in self._undo_voters(req.seat) or seat in req.accepted:
            raise BadRequest(f"seat {seat} has no vote on this take-back")
        events = [Event("undo_answer", {"seat": seat, "accept": accept}, now)]
        if accept and req.accepted | {seat} >= self._undo_voters(req.seat):
            events.append(Event("undo", {"to_turn": req.to_turn}, now))
        return events

    def _undo_voters(self, requester: int) -> set[int]:
        """Seats whose consent a take-back needs: the other people (bots agree by policy)."""
        return {i for i, s in enumerate(self.seats) if i != requester and s.kind == "person"}

    # -- fold ------------------------------------------------------------------------------

    def _apply_undo_request(self, d: Mapping[str, Any], at: float) -> None:
        self.undo_request = UndoRequest(d["seat"], d["to_turn"])

    def _apply_undo_answer(self, d: Mapping[str, Any], at: float) -> None:
        assert self.undo_request is not None
        if d["accept"]:
            self.undo_request.accepted.add(d["seat"])
        else:
            self.undo_request = None

    def _apply_undo(self, d: Mapping[str, Any], at: float) -> None:
        self.undos += 1
        keep = self.turns[: d["to_turn"]]
        self.state = self.game.new(self.options, self.n_seats, turn_rng(self.seed, 0))
        self.turns = Turns()
        self.past.clear()
        self.past.append(self.state)
        for turn in keep:
            moves = {int(s): self.game.parse_move(self.state, int(s), t) for s, t in turn.played}
            rng = play_rng(self.game, self.seed, len(self.turns) + 1)
            self.state = self.game.play(self.state, moves, rng, check=False)
            self.turns.append(turn)
            self.past.append(self.state)
        self.pending.clear()
        self.undo_request = None
        if self.clock:
            self.clock.start_turn(at)
