"""XiangQi values: a move, the state and the position key (docs/GAMES.md 5.6)."""

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
    """A XiangQi position, all of it public.

    ``board`` holds a piece letter or ``.`` for each of the 90 points, ``a1`` first
    (:class:`~server.engine.grid.Squares`); ``to_move``, ``ply`` and ``last_move`` are the
    turn's (:class:`~server.engine.turns.TurnGame`); ``quiet``, ``history`` and
    ``draw_plies`` the draw counters and option (:mod:`server.engine.draws`), each key of
    ``history`` ending in ``+`` when its side to move is in check (perpetual check).
    ``first_ply`` counts the plies before the game's first position by its FEN's move
    number (2 x (number - 1), + 1 with Black to move: :mod:`.fen`; 0 from the start), and
    ``cache`` keeps the legal moves once generated (not part of the value).
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
