"""XiangQi moves in WXF notation, the notation players write (``C2=5``, ``H8+7``, ``R9+1``),
as the World XiangQi Federation and Fairy-Stockfish (``NOTATION_XIANGQI_WXF``) write it;
``tests/engine/test_xiangqi_wxf.py`` compares moves of many games with pyffish.

A move is the piece's letter (K general, A advisor, E elephant, H horse, R chariot, C cannon,
P soldier), the file it leaves, counted 1-9 from the mover's own right (Red's ``i`` file is 1,
Black's ``a`` file is 1), an operator (``+`` forward, ``-`` back, ``=`` along its rank) and a
number: the ranks it moves when it stays on its file, else the file it reaches.

Two like pieces on one file: when the other one could make the same move (the square it would
reach lies where such a piece may stand), the front one is written ``+`` and the rear one
``-`` in place of the file: ``C+-2``, ``R-=6``. Three or more on a file, or two or more on
each of two files (soldiers): a number counting from the front replaces the letter, and the
file is kept: ``15+1`` is the front soldier of file 5, ``25=6`` the one behind it.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..grid import EMPTY
from .board import N_FILES, RED
from .values import XiangqiMove

LETTERS = {"k": "K", "a": "A", "b": "E", "n": "H", "r": "R", "c": "C", "p": "P"}
N_RANKS = 10


def file_number(file: int, seat: int) -> int:
    """A file as the player of ``seat`` counts it: 1 at their own right."""
    return N_FILES - file if seat == RED else file + 1


def may_stand(kind: str, seat: int, file: int, rank: int) -> bool:
    """Whether a piece of ``kind`` of ``seat`` may ever stand on (file, rank): the general and
    the advisors in their palace, the elephants on their side of the river, others anywhere."""
    if not (0 <= file < N_FILES and 0 <= rank < N_RANKS):
        return False
    own = rank if seat == RED else N_RANKS - 1 - rank  # 0 = the seat's own back rank
    if kind in "ka":
        return 3 <= file <= 5 and own <= 2
    return own <= 4 if kind == "b" else True


def wxf(board: str, move: XiangqiMove) -> str:
    """``move`` in WXF, ``board`` the position it is played from (``XiangqiState.board``)."""
    piece = board[move.src]
    seat = RED if piece.isupper() else 1 - RED
    kind = piece.lower()
    file, rank = move.src % N_FILES, move.src // N_FILES
    to_file, to_rank = move.dst % N_FILES, move.dst // N_FILES
    ahead = 1 if seat == RED else -1  # "forward" in ranks
    column = _front_first(board, piece, file, seat)  # like pieces on the file, front first
    tandems = sum(len(_front_first(board, piece, f, seat)) >= 2 for f in range(N_FILES))
    origin = str(file_number(file, seat))
    if len(column) >= (2 if tandems >= 2 else 3):
        head = str(column.index(rank) + 1)  # counted from the front; the file kept
    else:
        head = LETTERS[kind]
        if len(column) == 2 and tandems < 2:
            other = column[1] if column[0] == rank else column[0]
            if may_stand(kind, seat, to_file, other + to_rank - rank):
                origin = "+" if column[0] == rank else "-"
    forward = (to_rank - rank) * ahead
    op = "=" if forward == 0 else "+" if forward > 0 else "-"
    number = abs(to_rank - rank) if to_file == file else file_number(to_file, seat)
    return f"{head}{origin}{op}{number}"


def _front_first(board: str, piece: str, file: int, seat: int) -> list[int]:
    """The ranks of ``piece`` on ``file``, the one furthest forward (for ``seat``) first."""
    ranks = [r for r in range(N_RANKS) if board[r * N_FILES + file] == piece]
    return sorted(ranks, reverse=seat == RED)


def wxf_moves(board: str, moves: Iterable[XiangqiMove]) -> list[str]:
    """Each move in WXF, played in turn from ``board`` (moves assumed legal)."""
    out = []
    for move in moves:
        out.append(wxf(board, move))
        cells = list(board)
        cells[move.dst], cells[move.src] = cells[move.src], EMPTY
        board = "".join(cells)
    return out
