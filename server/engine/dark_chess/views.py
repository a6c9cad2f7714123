"""Dark Chess fog: what a colour sees, OpenSpiel's observation string, and a seat's view."""

from __future__ import annotations

import chess

from .. import chess_board
from ..base import Json, Seat
from ..chess_fen import placement
from .rules import (
    BLACK,
    PIECE_LETTERS,
    WHITE,
    DarkChessState,
    castling_moves,
    castling_rights,
    ep_square,
)

# -- fog --------------------------------------------------------------------------------------

#: the names of the squares of a rank's byte, a1 first: ``_NAMES[rank][byte]``
_NAMES = [
    [
        [chess.square_name(chess.square(f, rank)) for f in range(8) if byte >> f & 1]
        for byte in range(256)
    ]
    for rank in range(8)
]


def square_names(bb: int) -> list[str]:
    """``[chess.square_name(s) for s in chess.scan_forward(bb)]``, a rank at a time."""
    out: list[str] = []
    rank = 0
    while bb:
        byte = bb & 255
        if byte:
            out += _NAMES[rank][byte]
        bb >>= 8
        rank += 1
    return out


def visible_squares(board: chess.Board, color: chess.Color, visibility: str = "openspiel") -> int:
    """The squares ``color`` sees, as a bitboard (docs/GAMES.md 2.2, or 2.1 for ``"dagaz"``)."""
    own = board.occupied_co[color]
    enemy = board.occupied_co[not color]
    occupied = board.occupied
    seen = own
    for square in chess.scan_reversed(own & ~board.pawns):
        seen |= board.attacks_mask(square) & ~own
    pawns = own & board.pawns
    forward = chess.shift_up if color == chess.WHITE else chess.shift_down
    third_rank = chess.BB_RANK_3 if color == chess.WHITE else chess.BB_RANK_6
    diagonals = 0
    for square in chess.scan_reversed(pawns):
        diagonals |= chess.BB_PAWN_ATTACKS[color][square]
    if visibility == "dagaz":
        one = forward(pawns)
        seen |= one & ~own
        seen |= forward(one & ~occupied & third_rank) & ~own
        seen |= diagonals & ~own
        return seen
    one = forward(pawns) & ~occupied
    seen |= one | (forward(one & third_rank) & ~occupied)
    seen |= diagonals & enemy
    ep = ep_square(board)
    if ep is not None and diagonals & chess.BB_SQUARES[ep]:
        # OpenSpiel tests "a pawn move ends on the e.p. square" for either colour
        seen |= chess.BB_SQUARES[ep]
        seen |= chess.BB_SQUARES[ep - 8 if color == chess.WHITE else ep + 8]
    for move in castling_moves(board, color):
        seen |= chess.BB_SQUARES[move.to_square]
    return seen


def dark_fen(
    board: chess.Board, color: chess.Color | None, seen: int, before: chess.Board | None = None
) -> str:
    """OpenSpiel's ObservationString: a FEN with ``?`` on unseen squares, the observer's
    castling rights only and the e.p. square only if one of its pawns can take there.
    ``color=None`` (a spectator) shows no rights and no e.p. square.

    One known difference: OpenSpiel looks for the observer's pawn beside an a- or h-file e.p.
    square without a bounds check and reads the other edge of the next rank (so Black may be
    shown White's e.p. square a6 because of a black pawn on h6); we stay on the board.

    ``before``: the board before the last move (:func:`.rules.castling_rights`)."""
    return f"{placement(board, seen)} {dark_fen_tail(board, color, before)}"


def dark_fen_tail(
    board: chess.Board, color: chess.Color | None, before: chess.Board | None = None
) -> str:
    """:func:`dark_fen` after its placement: turn, the observer's castling rights, the e.p.
    square it may take on, the clocks. ``before``: as for :func:`dark_fen`."""
    castling = ""
    ep = "-"
    if color is not None:
        rights = castling_rights(board, before)
        backrank = 0 if color == chess.WHITE else 7
        if rights & chess.BB_SQUARES[chess.square(7, backrank)]:
            castling += "K" if color == chess.WHITE else "k"
        if rights & chess.BB_SQUARES[chess.square(0, backrank)]:
            castling += "Q" if color == chess.WHITE else "q"
        target = ep_square(board)
        if target is not None:
            behind = target - 8 if color == chess.WHITE else target + 8
            for file in (chess.square_file(target) + 1, chess.square_file(target) - 1):
                if 0 <= file < 8:
                    piece = board.piece_at(chess.square(file, chess.square_rank(behind)))
                    if piece == chess.Piece(chess.PAWN, color):
                        ep = chess.square_name(target)
                        break
    turn = "w" if board.turn == chess.WHITE else "b"
    return f"{turn} {castling or '-'} {ep} {board.halfmove_clock} {board.fullmove_number}"


def own_san(before: chess.Board, move: chess.Move) -> str:
    """``move``, played on ``before``, in SAN as its mover knew it: disambiguated against the
    mover's own legal moves (which the mover was shown), a capture marked where the mover
    saw the piece taken — and no ``+`` or ``#``, which would tell whether the king (perhaps
    unseen) stands attacked; dark chess has no check (a king is captured). ``before`` is
    not changed: python-chess writes SAN by pushing the move, here on a copy."""
    return before.copy(stack=False).san(move).rstrip("+#")


def seat_view(state: DarkChessState, seat: Seat | None, *, over: bool = False) -> Json:
    """What ``seat`` sees (docs/GAMES.md 2.2); ``None``: a spectator, who sees no square.

    ``fen`` is OpenSpiel's observation string (``?`` = unseen), ``visible`` the seen
    squares, ``last_move`` the seat's own last move (the opponent's stays hidden) and
    ``last_san`` the same in standard notation (:func:`own_san`), and
    ``captured`` the pieces of each colour taken so far: a capture is known to both
    sides (the taker saw the piece, the loser lost it). Material still on the board is
    not shown because it would reveal an unseen promotion.

    ``over``: the room has ended the game (a resignation, the clock, an agreement): the
    described board shows the whole position, as when the rules end it (the record, public
    from then on, tells it anyway).
    """
    board = state.board
    color = {WHITE: chess.WHITE, BLACK: chess.BLACK}.get(seat) if seat is not None else None
    seen = 0 if color is None else visible_squares(board, color, state.visibility)
    moves = state.moves
    last = moves[-1] if moves else None
    own_last = last is not None and color is not None and board.turn != color
    captured: dict[str, dict[str, int]] = {
        side_name: dict.fromkeys(PIECE_LETTERS, 0) for side_name in ("white", "black")
    }
    for side, piece_type in state.captured:
        captured["white" if side == chess.WHITE else "black"][chess.piece_symbol(piece_type)] += 1
    view: Json = {
        "fen": dark_fen(board, color, seen, state.prev),
        "visible": square_names(seen),
        "turn": "white" if board.turn == chess.WHITE else "black",
        "ply": len(moves),
        "last_move": last.uci() if own_last and last is not None else None,
        "last_san": (state.last_san or _last_san(state)) if own_last else None,
        "captured": captured,
        "visibility": state.visibility,
    }
    view["grid"] = _grid(state, color, view, over or state.result is not None)
    return view


def _grid(state: DarkChessState, color: chess.Color | None, view: Json, over: bool) -> Json:
    """The board described (:mod:`..chess_board`) from the rest of ``view``: the fog over what
    the seat does not see, its own last move marked apart, its premoves while it waits — and
    the whole board once the game is over (the fog lifts: the record opens then too)."""
    board = state.board
    squares = chess_board.placement(board.fen() if over else view["fen"])
    to_move = 0 if board.turn == chess.WHITE else 1
    said = view["last_san"] or view["last_move"] or ("a move in the fog" if state.moves else "")
    facts = [{"label": "Ply", "text": str(view["ply"]), "name": "ply"}]
    if over:
        seen = "the whole board (game over)"
    elif color is None:
        seen = "nothing: spectators watch the fog"
    else:
        seen = f"{len(view['visible'])} of 64 squares"
    facts.append({"label": "You see", "text": seen, "name": "seen"})
    if view["last_move"]:
        facts.append({"label": "Your last move", "text": said, "name": "last-san"})
    for side, taken in view["captured"].items():
        lost = [chess_board.NAMES[t] + (f" x{n}" if n > 1 else "") for t, n in taken.items() if n]
        facts.append({"label": f"{side.capitalize()} lost", "text": ", ".join(lost) or "nothing"})
    if over:
        last = state.moves[-1].uci() if state.moves else None
        text = "Game over — the fog has lifted: this is the final position."
        facts.append({"label": "", "text": text, "name": "lifted"})
        return chess_board.describe(
            squares,
            last=chess_board.move_squares(last),
            status=chess_board.status(to_move, state.result),
            facts=facts,
            said=said,
        )
    # the seat's premoves whether or not it waits (the client takes them only while it waits):
    # from move to move only the moved figures' change, and the update carries only those
    own = chess_board.premoves(squares, color == chess.WHITE) if color is not None else {}
    return chess_board.describe(
        squares,
        status=chess_board.status(to_move, None),
        fog=[sq for sq, ch in squares.items() if ch == chess_board.UNSEEN],
        own_last=chess_board.move_squares(view["last_move"]),
        premoves=own,
        facts=facts,
        said=said,
    )


def _last_san(state: DarkChessState) -> str:
    """The SAN of ``state``'s last move (:func:`own_san`), from the board before it."""
    if state.prev is None:  # a placed world: no earlier position (its ``last_san`` is given)
        raise ValueError("the last move's notation is unknown here: no position before it")
    return own_san(state.prev, state.moves[-1])
