"""XiangQi values: a move, the state and the position key (docs/GAMES.md 8.3)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import grid
from ..base import Seat
from .board import SQUARES


class XiangqiMove(grid.Step):
    """One move ``src -> dst``, taking what stands on ``dst`` if ``capture``."""

    __slots__ = ()
    squares, game, forms = SQUARES, "XiangQi", "h3-e3, or h3xh10 to capture"


@dataclass(frozen=True, slots=True)
class XiangqiState:
    """The position (all of it public).

    Attributes:
        board: 90 chars, index ``rank * 9 + file`` (``a1 = 0``): a piece letter or ``.``.
        to_move: the seat to move.
        quiet: plies in a row without a capture.
        history: position keys since the last capture, the current one last (repetition and
            perpetual check: each key ends with ``+`` when its side to move is in check).
        ply: turns played.
        last_move: the move that produced this state.
        draw_plies: that many plies without a capture draw (0: never).
        first_ply: the plies before the game's first position by its FEN's move number
            (2 x (number - 1), + 1 with Black to move: :mod:`.fen`); 0 from the start.
        cache: the legal moves once generated (not part of the value).
    """

    board: str
    to_move: Seat = 0
    quiet: int = 0
    history: tuple[str, ...] = field(default=())
    ply: int = 0
    last_move: XiangqiMove | None = None
    draw_plies: int = 120
    first_ply: int = 0
    cache: list[Any] | None = field(default=None, compare=False, repr=False, hash=False)

    @property
    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        return bool(self.history) and self.history[-1].endswith("+")

    def __repr__(self) -> str:
        return f"XiangqiState({rows(self.board)!r}, to_move={self.to_move}, ply={self.ply})"


#: the board as text: rows rank 10 .. rank 1 separated by ``/``
rows = SQUARES.rows


def position_key(board: str, to_move: Seat, check: bool) -> str:
    """What repetition compares (the board and the side to move), and whether that side is
    in check (a function of the two, kept for the perpetual check rule)."""
    return f"{board}{to_move}{'+' if check else '-'}"
