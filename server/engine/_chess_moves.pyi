"""Typing stub of the compiled chess core (``_chess_moves.c``).

Every function reads a standard board as twelve positional fields (``Board``): turn, pawns,
knights, bishops, rooks, queens, kings, White's squares, Black's squares, promoted, the en
passant square (-1: none), castling rights — what ``chess_moves.standard_fields`` gives.
"""

Board = tuple[bool, int, int, int, int, int, int, int, int, int, int, int]

def gen(mode: int, *board_and_mask: *tuple[*Board, int]) -> list[int] | None: ...
def fen(*board_and_clocks: *tuple[*Board, int, int]) -> str: ...
def play(
    *board_clocks_code: *tuple[*Board, int, int, int],
) -> tuple[
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    int,
    bool,
    int,
    int | None,
    int,
    int,
    bool,
    int,
    int | None,
]: ...
def status(*board: *Board) -> int: ...
def san(
    *board_and_move: *tuple[*Board, int, list[int], bool, bool],
) -> str: ...
def texts(codes: list[int], /) -> list[str]: ...
