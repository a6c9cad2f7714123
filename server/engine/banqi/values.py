"""BanQi values: a move, the state, the public board and positions built for tests."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base import InvalidMove, Seat
from .board import HIDDEN, N_FILES, N_RANKS, SQUARES

#: the two action forms, each matched as the whole text
_FLIP = re.compile(r"flip ([a-h][1-4])")
_STEP = re.compile(r"([a-h][1-4])([-x])([a-h][1-4])")


@dataclass(frozen=True, slots=True)
class BanqiMove:
    """One action: flip ``src`` (``dst is None``), or move ``src -> dst`` (capturing or not)."""

    src: int
    dst: int | None = None
    capture: bool = False

    @classmethod
    def from_text(cls, text: str) -> BanqiMove:
        """Parse ``flip c3``, ``b1-c1`` or ``a1xa4``; :class:`InvalidMove` otherwise."""
        if not isinstance(text, str):
            raise InvalidMove(f"{text!r} is not a BanQi action")
        if m := _FLIP.fullmatch(text):
            return cls(SQUARES.parse(m[1]))
        if m := _STEP.fullmatch(text):
            src, dst = SQUARES.parse(m[1]), SQUARES.parse(m[3])
            if src == dst:
                raise InvalidMove(f"{text!r} does not move")
            return cls(src, dst, m[2] == "x")
        raise InvalidMove(f"{text!r} is not a BanQi action (flip c3, b1-c1, a1xa4)")

    @property
    def is_flip(self) -> bool:
        return self.dst is None

    def __str__(self) -> str:
        if self.dst is None:
            return f"flip {SQUARES.name(self.src)}"
        return SQUARES.name(self.src) + ("x" if self.capture else "-") + SQUARES.name(self.dst)

    def __repr__(self) -> str:
        return f"BanqiMove.from_text({str(self)!r})"


@dataclass(frozen=True, slots=True)
class BanqiState:
    """The true position.

    Attributes:
        board: 32 chars, index ``rank * 8 + file`` (``a1 = 0``): the true piece letter, also
            for a face-down piece, or ``.``.
        hidden: the squares whose piece is face-down.
        to_move: the seat to act.
        colours: the colour (0 Red, 1 Black) of seat 0 and seat 1, ``None`` before the first
            flip.
        captured: the captured pieces' letters, in order.
        quiet: consecutive actions without capture or flip.
        history: public position keys since the last flip or capture, the current one last
            (for threefold repetition).
        last_move: the action that produced this state.
    """

    board: str
    hidden: frozenset[int]
    to_move: Seat = 0
    colours: tuple[int, int] | None = None
    captured: str = ""
    quiet: int = 0
    history: tuple[str, ...] = field(default=())
    ply: int = 0
    last_move: BanqiMove | None = None
    variant: str = "taiwanese"
    cannon_quiet: str = "slide"
    draw_plies: int = 50

    def __repr__(self) -> str:
        return f"BanqiState({public_board(self)!r}, to_move={self.to_move}, ply={self.ply})"


def public_board(state: BanqiState) -> str:
    """The board as everyone sees it: rows rank 4 .. rank 1, ``?`` face-down, ``.`` empty."""
    rows = []
    for r in reversed(range(N_RANKS)):
        rows.append(
            "".join(
                HIDDEN if sq in state.hidden else state.board[sq]
                for sq in range(r * N_FILES, (r + 1) * N_FILES)
            )
        )
    return "/".join(rows)


def position_key(state: BanqiState) -> str:
    """What threefold repetition compares: the public board and the seat to act."""
    return f"{public_board(state)} {state.to_move}"
