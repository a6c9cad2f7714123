"""Dark Chess (fog of war): OpenSpiel ``dark_chess`` rules via python-chess (docs/GAMES.md 2.2).

Seat 0 is White, seat 1 is Black. Moves travel as UCI (``e2e4``, castling as the king's move
``e1g1``); SAN is accepted on input too, disambiguated against the dark-chess move list.

Rules (docs/GAMES.md 2.2, the "Decisions" table):

* the legal moves are the pseudo-legal moves: a king may move into or stay in check, and may
  castle out of or through check as long as the rights are intact and the squares between
  king and rook are empty;
* capturing the enemy king wins (``king_captured``); draws by threefold repetition of
  (placement, side to move, castling rights, en-passant square), by having no move
  (``stalemate``) and after 100 half-moves without capture or pawn move (``fifty_moves``),
  all automatic; no insufficient-material draw.

Fog (docs/GAMES.md 2.2, option ``visibility="openspiel"``): a colour sees its own pieces, the
destination of every move its pieces could make now (generated for that colour even when it is
not to move) and the pawn it could take en passant. ``visibility="dagaz"`` is Dagaz's wider
pawn sight (2.1): a pawn sees the square ahead when it is empty or enemy (and the square two
ahead from its start rank) and both forward diagonals; no castling or en-passant squares.

OpenSpiel keeps an en-passant square only when the side to move has a pawn beside the pawn
that just advanced two squares; :func:`ep_square` gives that square and everything here uses
it (repetitions, fog, the dark FEN), so the fog matches OpenSpiel's observation strings.

The package, each module importing only those above it:

* :mod:`.rules`: the board, the state with its history, the end of the game, perft;
* :mod:`.views`: the fog: visible squares, OpenSpiel's observation string, a seat's view;
* :mod:`.pgn`: PGN out and back in;
* :mod:`.observations`: what one seat has seen, read from its views (for the samplers);
* :mod:`.worlds`: true states consistent with everything one seat has seen (the bots' hook);
* :mod:`.game`: the :class:`~server.engine.base.Game` the rooms play.
"""

from __future__ import annotations

from .game import DarkChess
from .pgn import read_pgn, to_pgn
from .rules import (
    BLACK,
    VISIBILITIES,
    WHITE,
    DarkBoard,
    DarkChessState,
    castling_moves,
    castling_rights,
    ep_square,
    position_key,
)
from .views import dark_fen, seat_view, visible_squares

GAMES = (DarkChess(),)

__all__ = [
    "BLACK",
    "GAMES",
    "VISIBILITIES",
    "WHITE",
    "DarkBoard",
    "DarkChess",
    "DarkChessState",
    "castling_moves",
    "castling_rights",
    "dark_fen",
    "ep_square",
    "position_key",
    "read_pgn",
    "seat_view",
    "to_pgn",
    "visible_squares",
]
