"""Kamisado values: a move and the state."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import InvalidMove, Seat
from .board import COLOURS, N_FILES, N_RANKS, parse_square, square_name

_MOVE = re.compile(r"([a-z][0-9]+)-([a-z][0-9]+)")


@dataclass(frozen=True, slots=True)
class KamisadoMove:
    """A tower's move ``src -> dst``, or a pass (both ``None``): the seat whose tower must
    move cannot move it."""

    src: int | None = None
    dst: int | None = None

    @classmethod
    def from_text(cls, text: str) -> KamisadoMove:
        """Parse ``a1-a5`` or ``pass`` (the whole text); :class:`InvalidMove` otherwise."""
        if not isinstance(text, str):
            raise InvalidMove(f"{text!r} is not a Kamisado move")
        if text == "pass":
            return PASS
        m = _MOVE.fullmatch(text)
        if m is None:
            raise InvalidMove(f"{text!r} is not a Kamisado move (a1-a5, or pass)")
        src, dst = parse_square(m[1]), parse_square(m[2])
        if src == dst:
            raise InvalidMove(f"{text!r} does not move")
        return cls(src, dst)

    @property
    def is_pass(self) -> bool:
        return self.src is None

    def __str__(self) -> str:
        if self.src is None or self.dst is None:
            return "pass"
        return f"{square_name(self.src)}-{square_name(self.dst)}"

    def __repr__(self) -> str:
        return f"KamisadoMove.from_text({str(self)!r})"


#: the one pass
PASS = KamisadoMove()


@dataclass(frozen=True, slots=True)
class KamisadoState:
    """The position.

    Attributes:
        board: 64 chars, index ``rank * 8 + file`` (``a1 = 0``): a tower letter or ``.``.
        to_move: the seat to act.
        must: the colour (index into :data:`~.board.COLOURS`) of the tower ``to_move`` must
            move, ``None`` on the first move of the game (any tower).
        ply: turns played, passes included.
        last_move: the move that produced this state.
    """

    board: str
    to_move: Seat = 0
    must: int | None = None
    ply: int = 0
    last_move: KamisadoMove | None = None

    def __repr__(self) -> str:
        must = None if self.must is None else COLOURS[self.must]
        return f"KamisadoState({rows(self.board)!r}, to_move={self.to_move}, must={must!r})"


def rows(board: str) -> str:
    """The board as text: ranks 8 .. 1 separated by ``/``, 8 chars each."""
    return "/".join(board[r * N_FILES : (r + 1) * N_FILES] for r in reversed(range(N_RANKS)))
