"""The clocks of a room: when the next flag falls, and what happens when it does.

:class:`Timing` is the part of :class:`~server.rooms.room.Room` that the shell asks for the
next deadline (it arms one timer per room) and calls back with :meth:`Timing.tick`; the
timeout becomes an event of the log like any command, so a replay gives the same result.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..engine import turn_rng
from .values import Event

if TYPE_CHECKING:
    from ..engine import Game
    from .clock import Clock
    from .policy import Policy


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

    if TYPE_CHECKING:  # provided by the room (declared here for the type checker only)

        @property
        def status(self) -> str: ...

        def to_act(self) -> frozenset[int]: ...

        def _move_events(
            self, seat: int, wire: str, acting: frozenset[int], now: float
        ) -> list[Event]: ...

        def _apply_resign(self, d: Mapping[str, Any], at: float) -> None: ...

    def deadline(self) -> float | None:
        """When the next flag falls (the shell arms a timer and calls :meth:`tick`)."""
        if self.clock is None or self.status != "playing":
            return None
        due = self.clock.deadline(s for s in self.to_act() if s not in self.pending)
        return due[0] if due else None

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
        if clock is None or clock.since is None:
            return
        for seat in self.to_act():
            if seat not in clock.stopped:
                clock.left[seat] = max(0.0, clock.left[seat] - (at - clock.since))
                clock.stopped.add(seat)
