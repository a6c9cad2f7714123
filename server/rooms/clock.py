"""Game clocks: Fischer (base + increment) or a fixed time per move.

A clock is driven only by the times of the room's events (``Event.at``), never by reading a
clock itself, so replaying the log rebuilds it exactly; time that passed while a server was
down counts like any other time (a restart neither resets nor freezes a clock).

In a simultaneous turn every acting seat's clock runs at once; a seat's clock stops when it
seals its move (and a Fischer increment is added then).

As on lichess, no clock runs until every seat has made its first move (``running`` false):
until then ``since`` is when the current turn began, which the room's first-move rule counts
from (``Policy.first_move``, :meth:`Clock.first_move_due`), and nobody is charged.

A game that ends (a resignation, a draw, an abort) or a seat that leaves a game going on
charges the time used up to then, with no increment (:meth:`Clock.charge`), so the final
times are what was left — not what a clock showed when its turn began.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine import InvalidOptions

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """``kind`` ``fischer``: ``base`` seconds + ``increment`` per move; ``per_move``: ``base``
    seconds for every move (unused time is not kept)."""

    kind: str
    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, raw: Any) -> ClockSpec | None:
        if raw is None:
            return None
        if not isinstance(raw, Mapping):
            raise InvalidOptions('clock must be an object like {"type": "fischer", ...}')
        kind = raw.get("type")
        unknown = sorted(set(raw) - {"type", "base", "increment", "seconds"})
        if unknown:
            raise InvalidOptions(f"unknown clock field(s): {', '.join(unknown)}")
        if kind == "fischer":
            base, inc = raw.get("base"), raw.get("increment", 0)
        elif kind == "per_move":
            base, inc = raw.get("seconds"), 0
        else:
            raise InvalidOptions("clock type must be 'fischer' or 'per_move'")
        for name, value in (("base/seconds", base), ("increment", inc)):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InvalidOptions(f"clock {name} must be a number of seconds")
        assert isinstance(base, int | float) and isinstance(inc, int | float)
        if not 0.1 <= base <= 24 * 3600 or not 0 <= inc <= 3600:
            raise InvalidOptions("clock base must be 0.1 s to 24 h, increment 0 to 1 h")
        return cls(kind, float(base), float(inc))

    def to_json(self) -> Json:
        if self.kind == "fischer":
            return {"type": "fischer", "base": self.base, "increment": self.increment}
        return {"type": "per_move", "seconds": self.base}


@dataclass(slots=True)
class Clock:
    """Time left per seat, and when the running clocks started running."""

    spec: ClockSpec
    left: list[float]
    since: float | None = None  # when the current turn began (None: not started)
    stopped: set[int] = field(default_factory=set)  # seats that sealed this turn
    running: bool = False  # every seat has made its first move: the clocks run
    halved: set[int] = field(default_factory=set)  # seats that went berserk (tournaments)

    @classmethod
    def new(cls, spec: ClockSpec, n_seats: int) -> Clock:
        return cls(spec, [spec.base] * n_seats)

    def start_turn(self, at: float) -> None:
        self.since = at
        self.stopped.clear()
        if self.spec.kind == "per_move":
            self.left = [self.spec.base] * len(self.left)

    def stop(self, seat: int, at: float) -> None:
        """``seat`` has moved (or sealed) at ``at``: charge its time, add the increment."""
        if seat in self.stopped or self.since is None or not self.running:
            return
        self.left[seat] -= at - self.since
        if self.spec.kind == "fischer":
            self.left[seat] += self.spec.increment
        self.stopped.add(seat)

    def charge(self, seat: int, at: float) -> None:
        """``seat`` stops playing at ``at`` without moving (it leaves, or the game ends):
        charge the time it used, with no increment."""
        if self.running and self.since is not None and seat not in self.stopped:
            self.left[seat] = max(0.0, self.left[seat] - (at - self.since))

    def end(self, acting: Iterable[int], at: float) -> None:
        """The game ends at ``at``: the ``acting`` seats' running clocks are charged and stop."""
        if not self.running or self.since is None:
            return
        for seat in acting:
            self.charge(seat, at)
            self.stopped.add(seat)

    def halve(self, seat: int) -> None:
        """``seat`` went berserk before its first move: half its time, once."""
        if seat not in self.halved:
            self.halved.add(seat)
            self.left[seat] /= 2

    def flag(self, seat: int) -> None:
        """``seat``'s flag fell: no time left, and no increment for a move not made."""
        self.left[seat] = 0.0
        self.stopped.add(seat)

    def after_turn(self, movers: Iterable[int], everyone_moved: bool, at: float) -> None:
        """A turn was played at ``at`` by ``movers``: charge them, start the clocks once
        ``everyone_moved`` (every seat has made a move), and begin the next turn's time."""
        for seat in movers:
            self.stop(seat, at)
        if everyone_moved:
            self.running = True
        self.start_turn(at)

    def fallen(self, seat: int, now: float) -> bool:
        """``seat``'s flag has fallen by ``now`` (it has not sealed its move)."""
        due = self.deadline([seat])
        return due is not None and due[0] <= now

    def first_move_due(self, first_move: float, waiting: Iterable[int]) -> tuple[float, int] | None:
        """Before the clocks run: when the game is aborted unless a person to move makes
        their first move (``first_move`` seconds after their turn began; 0: never), and the
        seat, of the ``waiting`` ones (none: nothing is due)."""
        if self.running or self.since is None or not first_move:
            return None
        seats = list(waiting)
        return (self.since + first_move, min(seats)) if seats else None

    def deadline(self, running: Iterable[int]) -> tuple[float, int] | None:
        """The earliest flag fall ``(time, seat)`` among ``running`` seats, if any."""
        if self.since is None or not self.running:
            return None
        since = self.since
        best = [(since + self.left[s], s) for s in running if s not in self.stopped]
        return min(best) if best else None

    def to_json(self, running: Iterable[int]) -> Json:
        return {
            **self.spec.to_json(),
            "left": [round(x, 3) for x in self.left],
            "running": sorted(s for s in running if s not in self.stopped) if self.running else [],
            "since": self.since,
            "started": self.running,
        }
