"""Typing stub of the compiled generator (``_chess_moves.c``)."""

def gen(
    mode: int,
    turn: bool,
    pawns: int,
    knights: int,
    bishops: int,
    rooks: int,
    queens: int,
    kings: int,
    white: int,
    black: int,
    promoted: int,
    ep: int,
    castling: int,
    to_mask: int,
    /,
) -> list[int] | None: ...
