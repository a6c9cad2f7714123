"""Jungle values: a move, the state and the position key (docs/GAMES.md 5.1)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base import InvalidMove, Seat
from .board import N_FILES, N_RANKS, parse_square, square_name

_MOVE = re.compile(r"([a-z][0-9]+)([-x])([a-z][0-9]+)")


@dataclass(frozen=True, slots=True)
class JungleMove:
    """One move ``src -> dst``: a step or a leap, taking what stands on ``dst`` if ``capture``."""

    src: int
    dst: int
    capture: bool = False

    @classmethod
    def from_text(cls, text: str) -> JungleMove:
        """Parse ``a1-a2`` (quiet) or ``a1xa2`` (capture); :class:`InvalidMove` otherwise."""
        if not isinstance(text, str):
            raise InvalidMove(f"{text!r} is not a Jungle move")
        m = _MOVE.fullmatch(text)
        if m is None:
            raise InvalidMove(f"{text!r} is not a Jungle move (a1-a2, or a1xa2 to capture)")
        src, dst = parse_square(m[1]), parse_square(m[3])
        if src == dst:
            raise InvalidMove(f"{text!r} does not move")
        return cls(src, dst, m[2] == "x")

    def __str__(self) -> str:
        return square_name(self.src) + ("x" if self.capture else "-") + square_name(self.dst)

    def __repr__(self) -> str:
        return f"JungleMove.from_text({str(self)!r})"


@dataclass(frozen=True, slots=True)
class JungleState:
    """The position (all of it public).

    Attributes:
        board: 63 chars, index ``rank * 7 + file`` (``a1 = 0``): a piece letter or ``.``.
        to_move: the seat to move.
        captured: the letters of the captured pieces, in order.
        quiet: plies in a row without a capture.
        history: position keys since the last capture, the current one last (threefold
            repetition; Dagaz's ko in the ``dagaz`` variant).
        last_move: the move that produced this state.
        variant: ``"standard"`` or ``"dagaz"``.
        draw_plies: that many plies without capture draw (0: never).
    """

    board: str
    to_move: Seat = 0
    captured: str = ""
    quiet: int = 0
    history: tuple[str, ...] = field(default=())
    ply: int = 0
    last_move: JungleMove | None = None
    variant: str = "standard"
    draw_plies: int = 100

    def __repr__(self) -> str:
        return f"JungleState({rows(self.board)!r}, to_move={self.to_move}, ply={self.ply})"


def rows(board: str) -> str:
    """The board as text: rows rank 9 .. rank 1 separated by ``/``."""
    return "/".join(board[r * N_FILES : (r + 1) * N_FILES] for r in reversed(range(N_RANKS)))


def position_key(board: str, to_move: Seat) -> str:
    """What repetition and ko compare: the board and the seat to move."""
    return f"{board}{to_move}"
