"""XiangQi positions as text: our layouts and Fairy-Stockfish's FEN (docs/GAMES.md 5.6.6).

A layout is the board alone, rows rank 10 .. rank 1 separated by ``/``, 9 chars each, ``.``
empty (:func:`.values.rows` writes it). A FEN, as Fairy-Stockfish and pychess-variants write
XiangQi (``pyffish.get_fen``), is six fields::

    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1

the rows with a digit for each run of empty points; ``w`` (Red) or ``b`` (Black) to move;
``-`` and ``-`` (no castling, no en passant); the plies since the last capture (our
``quiet``: Fairy-Stockfish's XiangQi counts no other progress); the move number, from 1, one
more after each Black move. :func:`read_fen` takes the first two fields alone too (the
others then ``- - 0 1``) and refuses anything else with a :class:`ValueError` saying what is
wrong; :func:`write_fen` writes all six.
"""

from __future__ import annotations

import re
from collections import Counter

from ..base import Seat
from ..grid import EMPTY
from .board import BLACK, KINDS, N_FILES, N_RANKS, PALACES, RED, SEAT_NAMES
from .rules import in_check
from .values import XiangqiState, position_key, rows

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
SIDES = {"w": RED, "b": BLACK}
_LETTERS = "".join(KINDS).upper() + "".join(KINDS)
#: a FEN rank: pieces with at most one digit (a run of empty points) before, between, after
_ROW = re.compile(f"(?:[1-9]?[{_LETTERS}])*[1-9]?")
_RUN = re.compile(r"[1-9]")
_COUNT = re.compile(r"[0-9]+")


def board_of(layout: str) -> str:
    """A board string from a layout; ``ValueError`` unless it has 10 rows of 9 points, only
    the piece letters of :mod:`.board` and one general for each side, inside its palace."""
    lines = layout.split("/")
    if len(lines) != N_RANKS or any(len(line) != N_FILES for line in lines):
        raise ValueError(f"{layout!r}: expected {N_RANKS} rows of {N_FILES} points")
    board = "".join(reversed(lines))
    counts = Counter(ch for ch in board if ch != EMPTY)
    if any(ch.lower() not in KINDS for ch in counts):
        raise ValueError(f"{layout!r}: pieces are K A B N R C P (Red) or lower case (Black)")
    if counts["K"] != 1 or counts["k"] != 1:
        raise ValueError(
            f"Red has {counts['K']} generals and Black {counts['k']}: each side needs exactly "
            "one general"
        )
    for seat, general in ((RED, "K"), (BLACK, "k")):
        if board.index(general) not in PALACES[seat]:
            raise ValueError(f"{SEAT_NAMES[seat]}'s general stands outside its palace")
    return board


def placement(board: str) -> str:
    """The FEN's first field: the layout with each run of empty points as its length."""
    return re.sub(r"\.+", lambda m: str(len(m[0])), rows(board))


def write_fen(state: XiangqiState) -> str:
    """The position as Fairy-Stockfish's FEN (the move number counts on from the game's
    first position, ``state.first_ply``)."""
    side = "w" if state.to_move == RED else "b"
    number = 1 + (state.first_ply + state.ply) // 2
    return f"{placement(state.board)} {side} - - {state.quiet} {number}"


def read_fen(text: str) -> tuple[str, Seat, int, int]:
    """(board, side to move, quiet plies, plies before: 2 x (move number - 1), + 1 with Black
    to move) from a FEN; ``ValueError`` saying what is wrong unless it is a XiangQi position
    that could be played on: the board as :func:`board_of` wants it, and the side that is
    not to move not in check (its general would be taken) nor facing the other general."""
    fields = text.split()
    if not 2 <= len(fields) <= 6 or len(fields) == 3:
        raise ValueError(
            f"{text!r}: expected 'placement side - - quiet move' (or 'placement side'), "
            "e.g. " + START_FEN
        )
    fields += ["-", "-", "0", "1"][len(fields) - 2 :]
    ranks = fields[0].split("/")
    if len(ranks) != N_RANKS:
        raise ValueError(f"{fields[0]!r}: expected {N_RANKS} ranks separated by '/'")
    for i, rank in enumerate(ranks):
        name = f"rank {N_RANKS - i} ({rank!r})"
        if _ROW.fullmatch(rank) is None:
            bad = [ch for ch in rank if not ch.isdigit() and ch.lower() not in KINDS]
            if bad:
                raise ValueError(
                    f"{name}: {bad[0]!r} is no piece (K A B N R C P for Red, lower case Black)"
                )
            raise ValueError(f"{name}: a run of empty points is one digit, 1 to 9")
        width = len(rank) + sum(int(d) - 1 for d in _RUN.findall(rank))
        if width != N_FILES:
            raise ValueError(f"{name}: {width} points, expected {N_FILES}")
    side, castling, en_passant, quiet, number = fields[1:]
    if side not in SIDES:
        raise ValueError(f"side to move {side!r}: expected 'w' (Red) or 'b' (Black)")
    if castling != "-" or en_passant != "-":
        raise ValueError(f"{castling} {en_passant}: XiangQi has no castling or en passant ('- -')")
    if not _COUNT.fullmatch(quiet) or not _COUNT.fullmatch(number) or int(number) < 1:
        raise ValueError(
            f"{quiet} {number}: expected plies without a capture (0 or more) and "
            "the move number (1 or more)"
        )
    layout = _RUN.sub(lambda m: EMPTY * int(m[0]), fields[0])
    board = board_of(layout)
    to_move = SIDES[side]
    if in_check(board, 1 - to_move):
        raise ValueError(
            f"{SEAT_NAMES[1 - to_move]}, not to move, is in check or its general faces "
            f"the other on an open file ({SEAT_NAMES[to_move]} to move would take it)"
        )
    return board, to_move, int(quiet), 2 * (int(number) - 1) + to_move


def from_fen(text: str, *, draw_plies: int = 120) -> XiangqiState:
    """The state a FEN describes (:func:`read_fen`; ``ValueError`` if it is no position)."""
    board, to_move, quiet, before = read_fen(text)
    key = position_key(board, to_move, in_check(board, to_move))
    return XiangqiState(board, to_move, quiet, (key,), draw_plies=draw_plies, first_ply=before)


__all__ = ["START_FEN", "board_of", "from_fen", "placement", "read_fen", "write_fen"]
