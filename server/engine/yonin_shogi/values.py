"""Yonin Shogi values: a move and the state."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import InvalidMove, Seat
from .board import HAND_KINDS, N_SQUARES, SQUARE_NAMES, layout, parse_square

_TEXT = re.compile(r"pass|([PSGR])\*([a-z][0-9]+)|([a-z][0-9]+)([-x])([a-z][0-9]+)(=\+)?")
_FORMS = "a move c1-b2, a capture c1xb2, a promotion d7-d8=+, a drop P*e5 (P S G R), pass"


@dataclass(frozen=True, slots=True)
class YoninMove:
    """A board move ``src -> dst`` (``capture`` when it takes, ``promote`` when the piece
    turns over), a drop of the hand kind ``drop`` on ``dst``, or a pass (``dst`` is ``-1``:
    only when the seat has no other move)."""

    src: int | None
    dst: int
    capture: bool = False
    promote: bool = False
    drop: str | None = None

    @classmethod
    def from_text(cls, text: str) -> YoninMove:
        """Parse the whole string; :class:`InvalidMove` with the expected forms otherwise."""
        m = _TEXT.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            raise InvalidMove(f"{text!r} is not a Yonin Shogi move ({_FORMS})")
        if text == "pass":
            return PASS
        if m[1]:
            return cls(None, parse_square(m[2]), drop=m[1])
        src, dst = parse_square(m[3]), parse_square(m[5])
        if src == dst:
            raise InvalidMove(f"{text!r}: a move goes to another square")
        return cls(src, dst, m[4] == "x", bool(m[6]))

    @property
    def is_pass(self) -> bool:
        return self.dst < 0

    def __str__(self) -> str:
        if self.dst < 0:
            return "pass"
        if self.src is None:
            return f"{self.drop}*{SQUARE_NAMES[self.dst]}"
        sep = "x" if self.capture else "-"
        return (
            SQUARE_NAMES[self.src] + sep + SQUARE_NAMES[self.dst] + ("=+" if self.promote else "")
        )

    def __repr__(self) -> str:
        return f"YoninMove.from_text({str(self)!r})"


PASS = YoninMove(None, -1)
#: DROPS[kind][square]: the drop moves, made once (moves are values)
DROPS = {k: tuple(YoninMove(None, sq, drop=k) for sq in range(N_SQUARES)) for k in HAND_KINDS}

#: a hand: counts of the kinds P, S, G, R
Hand = tuple[int, int, int, int]
EMPTY_HAND: Hand = (0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class YoninState:
    """The position.

    Attributes:
        board: 81 cells, index ``rank * 9 + file`` (``a1 = 0``): ``""`` or ``"<seat><kind>"``.
        hands: per seat, its hand as counts of P, S, G, R.
        to_move: the seat to move (0 South, 1 West, 2 North, 3 East).
        ply: plies played.
        last_move: the move that produced this state.
        king_taken: ``(taker, loser)`` once a King is taken (the game is over).
        ply_limit: the option: the game is drawn when this many plies have been played.
    """

    board: tuple[str, ...]
    hands: tuple[Hand, Hand, Hand, Hand] = (EMPTY_HAND,) * 4
    to_move: Seat = 0
    ply: int = 0
    last_move: YoninMove | None = None
    king_taken: tuple[Seat, Seat] | None = None
    ply_limit: int = 800

    def __repr__(self) -> str:
        hands = " ".join(hand_text(h) or "-" for h in self.hands)
        return (
            f"YoninState({layout(self.board)!r}, hands={hands}, "
            f"to_move={self.to_move}, ply={self.ply})"
        )


def hand_text(hand: Hand) -> str:
    """``(2, 0, 1, 0) -> "PPG"``: the hand as letters."""
    return "".join(k * n for k, n in zip(HAND_KINDS, hand, strict=True))


def parse_hand(text: str) -> Hand:
    """``"PPG" -> (2, 0, 1, 0)``."""
    if set(text) - set(HAND_KINDS):
        raise ValueError(f"{text!r}: a hand holds the letters P S G R")
    p, s, g, r = (text.count(k) for k in HAND_KINDS)
    return (p, s, g, r)
