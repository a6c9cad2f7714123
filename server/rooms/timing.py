"""The clocks of a room: when the next flag falls, and what happens when it does.

:class:`Timing` is the part of :class:`~server.rooms.room.Room` that the shell asks for the
next deadline (it arms one timer per room) and calls back with :meth:`Timing.tick`; the
timeout becomes an event of the log like any command, so a replay gives the same result.

As on lichess, no clock runs until every seat has made its first move; until then the
deadline is the first-move rule's (``Policy.first_move``): a person whose first turn began
that long ago without a move has the game aborted — an ``abort`` event with the reason
``no_first_move``, logged before anybody hears of it, and unrated like any abort.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..engine import turn_rng
from .values import Event

Json = dict[str, Any]

if TYPE_CHECKING:
    from ..engine import Game
    from .clock import Clock
    from .policy import Policy
    from .values import Seat, Turns


class Timing:
    """Flag falls: deadlines, ticks and the timeout event."""

    if not TYPE_CHECKING:  # the room (room.py) holds every attribute in its slots
        __slots__ = ()

    game: Game[Any, Any]
    seed: str
    version: int
    state: Any
    policy: Policy
    pending: dict[int, Any]
    clock: Clock | None
    n_seats: int
    seats: list[Seat]
    turns: Turns
    gone: set[int]

    if TYPE_CHECKING:  # provided by the room (declared here for the type checker only)

        @property
        def status(self) -> str: ...

        def to_act(self) -> frozenset[int]: ...

        def _move_events(
            self, seat: int, wire: str, acting: frozenset[int], now: float
        ) -> list[Event]: ...

        def _apply_resign(self, d: Mapping[str, Any], at: float) -> None: ...

    def deadline(self) -> float | None:
        """When the next flag falls, or the first-move wait ends (the shell arms a timer and
        calls :meth:`tick`)."""
        if self.clock is None or self.status != "playing":
            return None
        if not self.clock.running:
            first = self.first_move_due()
            return first[0] if first else None
        due = self.clock.deadline(s for s in self.to_act() if s not in self.pending)
        return due[0] if due else None

    def moved_seats(self) -> set[int]:
        """The seats that have made a move (or left the game) so far."""
        return {int(s) for t in self.turns for s, _ in t.played} | self.gone

    def first_move_due(self) -> tuple[float, int] | None:
        """Before the clocks run: when the game is aborted unless the person to move makes
        their first move (``policy.first_move`` after their turn began), and that seat."""
        clock = self.clock
        if clock is None or clock.running or clock.since is None or not self.policy.first_move:
            return None
        if self.status != "playing":
            return None
        moved = self.moved_seats()
        waiting = [
            s
            for s in self.to_act()
            if s not in moved and s not in self.pending and self.seats[s].kind == "person"
        ]
        return (clock.since + self.policy.first_move, min(waiting)) if waiting else None

    def clock_json(self, running: frozenset[int] | set[int]) -> Json:
        """The clock as the snapshot shows it, with ``abort_at``: when the game is aborted
        if the first move does not come (None once the clocks run, or with nobody waited
        for)."""
        assert self.clock is not None
        first = self.first_move_due()
        return {**self.clock.to_json(running), "abort_at": first[0] if first else None}

    def _clocks_after(self, movers: Iterable[int], at: float) -> None:
        """A turn was played at ``at`` by ``movers``: charge them, start the clocks once
        every seat has moved, and begin the next turn's time."""
        clock = self.clock
        if clock is None:
            return
        for seat in movers:
            clock.stop(seat, at)
        if not clock.running and len(self.moved_seats()) >= self.n_seats:
            clock.running = True
        clock.start_turn(at)

    def flag_fallen(self, seat: int, now: float) -> bool:
        if self.clock is None or self.status != "playing" or seat in self.pending:
            return False
        due = self.clock.deadline([seat])
        return due is not None and due[0] <= now

    def tick(self, now: float) -> list[Event]:
        """Apply the timeout rule to the first seat whose flag has fallen by ``now``.

        Turn-based games: that seat loses. A simultaneous turn: the seat forfeits, or with
        ``on_timeout: random`` a random legal move is played for it (the move is in the
        event, so a replay plays the same one).
        """
        if self.clock is None or self.status != "playing":
            return []
        if not self.clock.running:
            first = self.first_move_due()
            if first is None or first[0] > now:
                return []
            return [Event("abort", {"seat": first[1], "reason": "no_first_move"}, now)]
        acting = self.to_act()
        due = self.clock.deadline(s for s in acting if s not in self.pending)
        if due is None or due[0] > now:
            return []
        seat = due[1]
        if len(acting) > 1 and self.policy.on_timeout == "random":
            legal = self.game.legal_moves(self.state, seat)
            rng = turn_rng(f"{self.seed}/timeout", self.version)
            return self._move_events(seat, str(rng.choice(legal)), acting, now)
        return [Event("timeout", {"seat": seat}, now)]

    def _apply_timeout(self, d: Mapping[str, Any], at: float) -> None:
        if self.clock:  # the flag fell: no time left, and no increment for a move not made
            self.clock.left[d["seat"]] = 0.0
            self.clock.stopped.add(d["seat"])
        self._apply_resign({"seat": d["seat"], "reason": "timeout"}, at)

    def _stop_clocks(self, at: float) -> None:
        """The game ends at ``at`` (a resignation, a draw, an abort): the clocks that ran
        are charged up to then, with no increment, so the final times are what was left —
        not what a clock showed when its turn began."""
        clock = self.clock
        if clock is None or clock.since is None or not clock.running:
            return
        for seat in self.to_act():
            if seat not in clock.stopped:
                clock.left[seat] = max(0.0, clock.left[seat] - (at - clock.since))
                clock.stopped.add(seat)
