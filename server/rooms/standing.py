"""What a rated game is played for: the rating category, and what the game changed.

:class:`Standing` is the part of :class:`~server.rooms.room.Room` that knows whether its game
counts for ratings (``rated``: the category, e.g. ``"chess:blitz"``, fixed when the room is
created — a seek's pairing or its rematch; None: casual) and, once the game is over and
rated, each seat's rating before and after (the ``ratings`` event, appended by the shell's
rating service after it stored the result: log-first like any event, so a resync, a replay
and a restart all show the same numbers). The ratings themselves are computed outside the
room (:mod:`server.rooms.ratings`, :mod:`server.net.rating`); the room only records them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import BadRequest, NotFinished
from .values import Event

if TYPE_CHECKING:
    from ..engine import Outcome

Json = dict[str, Any]


@dataclass(slots=True)
class Rated:
    """A rated room: its rating ``category``, and per seat ``{"rating", "new_rating",
    "change"}`` (None for a seat that was not rated) once the result is in."""

    category: str
    changes: list[Json | None] | None = None

    def to_json(self) -> Json:
        return {"category": self.category, "changes": self.changes}


class Standing:
    """The rated flag of a room and the ratings its end changed."""

    if not TYPE_CHECKING:  # the room (room.py) holds every attribute in its slots
        __slots__ = ()

    n_seats: int
    outcome: Outcome | None
    rated: Rated | None

    def record_ratings(self, players: Sequence[Mapping[str, Any]], now: float) -> list[Event]:
        """The ``ratings`` event for a finished rated game: ``players`` as the rating service
        stored them (``seat``, ``rating``, ``new_rating``, ``change``). Once only: a second
        call (a node that took the room over rates it again) decides nothing."""
        if self.outcome is None:
            raise NotFinished("ratings change when the game is over")
        if self.rated is None:
            raise BadRequest("this game is not rated")
        if self.rated.changes is not None:
            return []
        changes: list[Json | None] = [None] * self.n_seats
        for p in players:
            seat = p.get("seat")
            if isinstance(seat, int) and 0 <= seat < self.n_seats and "new_rating" in p:
                keys = ("rating", "new_rating", "change")
                changes[seat] = {k: round(float(p[k]), 2) for k in keys}
        return [Event("ratings", {"changes": changes}, now)]

    def rated_json(self) -> Json | None:
        return None if self.rated is None else self.rated.to_json()

    def _apply_ratings(self, d: Mapping[str, Any], at: float) -> None:
        assert self.rated is not None
        self.rated.changes = list(d["changes"])


__all__ = ["Rated", "Standing"]
