"""Apocalypse values: a move, the events of a turn, the state (docs/GAMES.md 1.2-1.3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base import InvalidMove, Json, Seat
from .board import (
    START_BOARD,
    board_from_text,
    board_to_text,
    parse_square,
    square_name,
)


@dataclass(frozen=True, slots=True)
class ApocalypseMove:
    """One seat's simple move ``src -> dst`` (squares as indices, ``a1 = 0``)."""

    src: int
    dst: int

    @classmethod
    def from_text(cls, text: str) -> ApocalypseMove:
        """Parse ``a1b3`` (also ``a1-b3``, ``a1xb3``); :class:`InvalidMove` otherwise."""
        if not isinstance(text, str):
            raise InvalidMove(f"{text!r} is not an Apocalypse move")
        t = text.strip().lower()
        if len(t) == 5 and t[2] in "-x":
            t = t[:2] + t[3:]
        if len(t) != 4:
            raise InvalidMove(f"{text!r} is not an Apocalypse move (like a1b3)")
        src, dst = parse_square(t[:2]), parse_square(t[2:])
        if src == dst:
            raise InvalidMove(f"{text!r} does not move")
        return cls(src, dst)

    def __str__(self) -> str:
        return square_name(self.src) + square_name(self.dst)

    def __repr__(self) -> str:
        return f"ApocalypseMove.from_text({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Event:
    """Something the join did, for clients to animate (see :meth:`to_json`).

    ``kind``: ``capture`` (``pieces`` = the piece taken on ``square``), ``evaded`` (the piece
    that stood on a target moved away and survived), ``collision`` (both movers met on
    ``square``; ``pieces`` = the pieces removed), ``promotion`` / ``promotion_refused``
    (``seat``'s pawn on ``square``).
    """

    kind: str
    square: int
    pieces: str = ""
    seat: Seat | None = None

    def to_json(self) -> Json:
        out: Json = {"type": self.kind, "square": square_name(self.square)}
        if self.kind in ("capture", "evaded"):
            out["piece"] = self.pieces
        if self.kind == "collision":
            out["removed"] = list(self.pieces)
        if self.seat is not None:
            out["seat"] = self.seat
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        pieces = data.get("piece", "") or "".join(data.get("removed", []))
        return cls(str(data["type"]), parse_square(data["square"]), pieces, data.get("seat"))


@dataclass(frozen=True, slots=True)
class ApocalypseState:
    """A position between turns.

    Attributes:
        board: 25 chars, index ``rank * 5 + file`` (``a1 = 0``), ``.`` empty.
        ply: joint turns played.
        last_moves: the moves applied last turn, per seat (``None``: that seat did not move);
            they define the ko (1.2.6).
        events: what the last join did.
    """

    board: str
    ply: int = 0
    last_moves: tuple[ApocalypseMove | None, ApocalypseMove | None] = (None, None)
    events: tuple[Event, ...] = ()
    ruleset: str = "dagaz"
    max_turns: int = 0
    #: each seat's moves, generated once per state (states are values: a safe cache)
    moves: dict[Seat, list[ApocalypseMove]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def __repr__(self) -> str:
        return f"ApocalypseState({board_to_text(self.board)!r}, ply={self.ply})"


def position(
    text: str = START_BOARD,
    *,
    last_moves: tuple[str | None, str | None] = (None, None),
    ply: int = 0,
) -> ApocalypseState:
    """A state from a board text and the previous turn's moves (for tests and analysis)."""
    last = tuple(None if m is None else ApocalypseMove.from_text(m) for m in last_moves)
    return ApocalypseState(board_from_text(text), ply, (last[0], last[1]))
