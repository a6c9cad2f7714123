"""What a rated game is played for: the rating category, and what the game changed.

:class:`Rated` is the part of a rated room (:class:`~server.rooms.table.Table`; None in a
casual one) that knows the rating category it counts for (e.g. ``"chess:blitz"``, fixed when
the room is created — a seek's pairing or its rematch) and, once the game is over, each
seat's rating before and after (the ``ratings`` event, appended by the shell's rating service
after it stored the result: log-first like any event, so a resync, a replay and a restart all
show the same numbers). The ratings themselves are computed outside the room
(:mod:`server.rooms.ratings`, :mod:`server.net.services.matchmaking.rating`); the room only records
them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .values import Event

Json = dict[str, Any]


@dataclass(slots=True)
class Rated:
    """A rated room: its rating ``category``, and per seat ``{"rating", "new_rating",
    "change"}`` (None for a seat that was not rated) once the result is in."""

    category: str
    changes: list[Json | None] | None = None

    def decide(self, players: Iterable[Mapping[str, Any]], n_seats: int, now: float) -> list[Event]:
        """The ``ratings`` event of the finished game: ``players`` as the rating service
        stored them (``seat``, ``rating``, ``new_rating``, ``change``). Once only: a second
        call (a node that took the room over rates it again) decides nothing."""
        if self.changes is not None:
            return []
        changes: list[Json | None] = [None] * n_seats
        for p in players:
            seat = p.get("seat")
            if isinstance(seat, int) and 0 <= seat < n_seats and "new_rating" in p:
                keys = ("rating", "new_rating", "change")
                changes[seat] = {k: round(float(p[k]), 2) for k in keys}
        return [Event("ratings", {"changes": changes}, now)]

    def fold(self, changes: Iterable[Json | None]) -> None:
        """Fold the ``ratings`` event in."""
        self.changes = list(changes)

    def to_json(self) -> Json:
        return {"category": self.category, "changes": self.changes}


__all__ = ["Rated"]
