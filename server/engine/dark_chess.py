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
"""

from __future__ import annotations

import functools
import io
import random
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import chess
import chess.pgn
from chess import BB_ALL, Bitboard

from .base import Game, IllegalMove, InvalidOptions, Json, Option, Outcome, Seat
from .chess_game import parse_uci_or_san, pgn_game, placement, seat_of

WHITE, BLACK = 0, 1

VISIBILITIES = ("openspiel", "dagaz")

#: the statuses python-chess reports that are fine in dark chess (a king may stand in check)
_CHECK_STATUSES = (
    chess.STATUS_OPPOSITE_CHECK | chess.STATUS_TOO_MANY_CHECKERS | chess.STATUS_IMPOSSIBLE_CHECK
)

_PIECE_TYPES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
_PIECE_LETTERS = [chess.piece_symbol(t) for t in _PIECE_TYPES]


# -- the board --------------------------------------------------------------------------------


class DarkBoard(chess.Board):
    """A python-chess board playing by dark-chess rules (docs/GAMES.md 2.2).

    ``legal_moves`` are the pseudo-legal moves with OpenSpiel's castling (no attack tests),
    the game ends when a king is gone, and check statuses are no error. SAN read and written
    on this board is disambiguated against these moves, so PGN round-trips.
    """

    aliases: ClassVar[list[str]] = ["Dark Chess", "Dark", "Fog of War"]
    uci_variant: ClassVar[str | None] = "darkchess"
    xboard_variant: ClassVar[str | None] = "darkchess"

    def generate_castling_moves(
        self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL
    ) -> Iterator[chess.Move]:
        if self.is_variant_end():
            return
        yield from castling_moves(self, self.turn, from_mask, to_mask)

    def generate_legal_moves(
        self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL
    ) -> Iterator[chess.Move]:
        if self.is_variant_end():
            return
        yield from self.generate_pseudo_legal_moves(from_mask, to_mask)

    def generate_legal_ep(
        self, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL
    ) -> Iterator[chess.Move]:
        if self.is_variant_end():
            return
        yield from self.generate_pseudo_legal_ep(from_mask, to_mask)

    def is_legal(self, move: chess.Move) -> bool:
        return not self.is_variant_end() and self.is_pseudo_legal(move)

    def is_variant_end(self) -> bool:
        return not (self.kings & self.occupied_co[chess.WHITE]) or not (
            self.kings & self.occupied_co[chess.BLACK]
        )

    def is_variant_loss(self) -> bool:
        return not self.kings & self.occupied_co[self.turn]

    def is_variant_win(self) -> bool:
        return bool(self.kings & self.occupied_co[self.turn]) and not (
            self.kings & self.occupied_co[not self.turn]
        )

    def is_insufficient_material(self) -> bool:
        return False

    def is_checkmate(self) -> bool:
        return False  # no checkmate: the king has to be taken

    def status(self) -> chess.Status:
        return chess.Status(super().status() & ~_CHECK_STATUSES)


def castling_moves(
    board: chess.Board, color: chess.Color, from_mask: Bitboard = BB_ALL, to_mask: Bitboard = BB_ALL
) -> Iterator[chess.Move]:
    """``color``'s castling moves, OpenSpiel style: rights intact and the squares between
    king and rook empty; attacked squares do not matter (docs/GAMES.md 2.2). ``to_mask`` filters by
    the rook's square, as python-chess does."""
    backrank = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
    king = board.occupied_co[color] & board.kings & ~board.promoted & backrank & from_mask
    king &= -king
    if not king:
        return
    king_sq = chess.msb(king)
    for rook_sq in chess.scan_reversed(board.clean_castling_rights() & backrank & to_mask):
        rook = chess.BB_SQUARES[rook_sq]
        a_side = rook < king
        king_to = (chess.BB_FILE_C if a_side else chess.BB_FILE_G) & backrank
        rook_to = (chess.BB_FILE_D if a_side else chess.BB_FILE_F) & backrank
        path = (
            chess.between(king_sq, chess.msb(king_to))
            | chess.between(rook_sq, chess.msb(rook_to))
            | king_to
            | rook_to
        )
        if not (board.occupied ^ king ^ rook) & path:
            to = rook_sq if board.chess960 else chess.msb(king_to)
            yield chess.Move(king_sq, to)


def castling_rights(board: chess.Board) -> Bitboard:
    """The castling rights as OpenSpiel keeps them: taking a king leaves its side's rights
    alone (python-chess clears them), which shows in the last observation of a game."""
    rights = board.clean_castling_rights()
    if board.move_stack and not board.kings & board.occupied_co[board.turn]:
        before = board.copy(stack=1)
        before.pop()
        backrank = chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8
        rights = (rights & ~backrank) | (before.clean_castling_rights() & backrank)
    return rights


def ep_square(board: chess.Board) -> chess.Square | None:
    """The en-passant square as OpenSpiel keeps it: only if a pawn can take there now."""
    if board.ep_square is None or not any(board.generate_pseudo_legal_ep()):
        return None
    return board.ep_square


def position_key(board: chess.Board) -> Hashable:
    """What a repetition compares: placement, side to move, castling rights, e.p. square."""
    return (
        board.pawns,
        board.knights,
        board.bishops,
        board.rooks,
        board.queens,
        board.kings,
        board.occupied_co[chess.WHITE],
        board.occupied_co[chess.BLACK],
        board.turn,
        board.clean_castling_rights(),
        ep_square(board),
    )


# -- fog --------------------------------------------------------------------------------------


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


def dark_fen(board: chess.Board, color: chess.Color | None, seen: int) -> str:
    """OpenSpiel's ObservationString: a FEN with ``?`` on unseen squares, the observer's
    castling rights only and the e.p. square only if one of its pawns can take there.
    ``color=None`` (a spectator) shows no rights and no e.p. square.

    One known difference: OpenSpiel looks for the observer's pawn beside an a- or h-file e.p.
    square without a bounds check and reads the other edge of the next rank (so Black may be
    shown White's e.p. square a6 because of a black pawn on h6); we stay on the board."""
    board_part = placement(board, seen)
    castling = ""
    ep = "-"
    if color is not None:
        rights = castling_rights(board)
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
    return (
        f"{board_part} {turn} {castling or '-'} {ep} "
        f"{board.halfmove_clock} {board.fullmove_number}"
    )


# -- the game ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DarkChessState:
    """A position with its history. ``board`` is never mutated once the state exists.

    Attributes:
        board: the true position, with the moves that led to it.
        start_fen: the starting position.
        visibility: ``"openspiel"`` or ``"dagaz"`` (the fog rule, docs/GAMES.md 2.1/2.2).
        keys: the position keys since the last capture or pawn move, the current one last.
        captured: ``(color, piece_type)`` of every piece taken so far, in order.
        result: the outcome, once the game is over.
    """

    board: DarkBoard
    start_fen: str
    visibility: str
    keys: tuple[Hashable, ...]
    captured: tuple[tuple[bool, int], ...]
    result: Outcome | None

    def __repr__(self) -> str:
        return f"DarkChessState({self.board.fen()!r}, ply={len(self.board.move_stack)})"


def _outcome(board: DarkBoard, keys: tuple[Hashable, ...]) -> Outcome | None:
    """The end of the game in OpenSpiel's order of tests (MaybeFinalReturns)."""
    for color in (board.turn, not board.turn):
        if not board.kings & board.occupied_co[color]:
            return Outcome.win(seat_of(not color), 2, "king_captured")
    if keys.count(keys[-1]) >= 3:
        return Outcome.draw(2, "repetition")
    if not any(board.generate_legal_moves()):
        return Outcome.draw(2, "stalemate")
    if board.halfmove_clock >= 100:
        return Outcome.draw(2, "fifty_moves")
    return None


def _start(board: DarkBoard, start_fen: str, visibility: str) -> DarkChessState:
    keys = (position_key(board),)
    return DarkChessState(board, start_fen, visibility, keys, (), _outcome(board, keys))


def _advance(state: DarkChessState, move: chess.Move) -> DarkChessState:
    """``state`` after ``move`` (pseudo-legal, unchecked)."""
    before = state.board
    board = before.copy(stack=False)  # no stack of earlier positions: flat cost per move
    captured = state.captured
    if before.is_en_passant(move):
        captured += ((not before.turn, chess.PAWN),)
    elif not before.is_castling(move):
        victim = before.piece_type_at(move.to_square)
        if victim is not None:
            captured += ((not before.turn, victim),)
    zeroing = before.is_zeroing(move)
    board.push(move)
    board.move_stack = [*before.move_stack, move]
    key = position_key(board)
    keys = (key,) if zeroing else (*state.keys, key)
    return DarkChessState(
        board, state.start_fen, state.visibility, keys, captured, _outcome(board, keys)
    )


def _board_from_fen(fen: str) -> DarkBoard:
    try:
        board = DarkBoard(fen)
    except ValueError as exc:
        raise InvalidOptions(f"option 'fen' is not a valid FEN: {exc}") from None
    if not board.is_valid():
        raise InvalidOptions(f"option 'fen' is not a legal dark chess position: {fen}")
    return board


class DarkChess(Game[DarkChessState, chess.Move]):
    name = "dark_chess"
    title = "Dark Chess"
    description = (
        "Chess in the fog of war: you see only your own pieces and the squares they can "
        "move to. No check: capture the king to win."
    )
    min_seats = max_seats = 2
    seat_names = ("White", "Black")
    hidden_information = True
    options = {
        "fen": Option("str", chess.STARTING_FEN, "Starting position (FEN)", max_length=100),
        "visibility": Option(
            "str",
            "openspiel",
            "What a side sees: 'openspiel' (chess.com Fog of War) or 'dagaz' (wider pawn sight)",
            choices=VISIBILITIES,
        ),
    }

    # -- setup ---------------------------------------------------------------------------

    def check_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        opts = super().check_options(raw)
        _board_from_fen(opts["fen"])
        return opts

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> DarkChessState:
        fen = options.get("fen", chess.STARTING_FEN)
        board = _board_from_fen(fen)
        return _start(board, board.fen(en_passant="fen"), options.get("visibility", "openspiel"))

    # -- playing -------------------------------------------------------------------------

    def to_act(self, state: DarkChessState) -> frozenset[Seat]:
        if state.result is not None:
            return frozenset()
        return frozenset({seat_of(state.board.turn)})

    def legal_moves(self, state: DarkChessState, seat: Seat) -> list[chess.Move]:
        if seat not in self.to_act(state):
            return []
        return list(state.board.generate_legal_moves())

    def is_legal(self, state: DarkChessState, seat: Seat, move: chess.Move) -> bool:
        return seat in self.to_act(state) and state.board.is_legal(move)

    def parse_move(self, state: DarkChessState, seat: Seat, text: str) -> chess.Move:
        try:
            return parse_uci_or_san(state.board, text)
        except IllegalMove:
            # parse_uci_or_san names the position, which is hidden here
            raise IllegalMove(f"{text} is not legal now") from None

    def play(
        self,
        state: DarkChessState,
        moves: Mapping[Seat, chess.Move],
        rng: random.Random,
        *,
        check: bool = True,
    ) -> DarkChessState:
        seat = seat_of(state.board.turn)
        if check:
            if state.result is not None:
                raise IllegalMove("the game is over")
            if set(moves) != {seat}:
                raise IllegalMove(f"it is {self.seat_names[seat]}'s turn")
            if moves[seat] not in self.legal_moves(state, seat):
                # no position in the message: it would show the hidden board
                raise IllegalMove(f"{moves[seat]} is not legal now")
        return _advance(state, moves[seat])

    def outcome(self, state: DarkChessState) -> Outcome | None:
        return state.result

    def ply(self, state: DarkChessState) -> int:
        return len(state.board.move_stack)

    def view(self, state: DarkChessState, seat: Seat | None) -> Json:
        """What ``seat`` sees (docs/GAMES.md 2.2); ``None``: a spectator, who sees no square.

        ``fen`` is OpenSpiel's observation string (``?`` = unseen), ``visible`` the seen
        squares, ``last_move`` the seat's own last move (the opponent's stays hidden), and
        ``captured`` the pieces of each colour taken so far: a capture is known to both
        sides (the taker saw the piece, the loser lost it). Material still on the board is
        not shown because it would reveal an unseen promotion.
        """
        board = state.board
        color = {WHITE: chess.WHITE, BLACK: chess.BLACK}.get(seat) if seat is not None else None
        seen = 0 if color is None else visible_squares(board, color, state.visibility)
        last = board.move_stack[-1] if board.move_stack else None
        own_last = last is not None and color is not None and board.turn != color
        captured: dict[str, dict[str, int]] = {
            side_name: dict.fromkeys(_PIECE_LETTERS, 0) for side_name in ("white", "black")
        }
        for side, piece_type in state.captured:
            captured["white" if side == chess.WHITE else "black"][
                chess.piece_symbol(piece_type)
            ] += 1
        return {
            "fen": dark_fen(board, color, seen),
            "visible": [chess.square_name(s) for s in chess.scan_forward(seen)],
            "turn": "white" if board.turn == chess.WHITE else "black",
            "ply": len(board.move_stack),
            "last_move": last.uci() if own_last and last is not None else None,
            "captured": captured,
            "visibility": state.visibility,
        }

    def perft(self, state: DarkChessState, depth: int) -> int:
        """Fast perft straight on the board; game ends (king taken, repetition, no move,
        fifty moves) are leaves with no children, as in the generic perft."""
        return _perft(state.board.copy(), depth, list(state.keys))

    # -- bot hooks -----------------------------------------------------------------------

    def determinize(
        self,
        views: Sequence[Json],
        seat: Seat,
        rng: random.Random,
        *,
        hint: DarkChessState | None = None,
        max_seconds: float | None = None,
    ) -> DarkChessState:
        """A true state consistent with every view ``seat`` has had (its view of the result
        equals ``views[-1]``): see :mod:`server.engine.dark_chess_worlds`. ``hint``: a world
        sampled earlier in the same game, extended cheaply when it still fits;
        ``max_seconds``: a time bound for the search of a history."""
        from .dark_chess_worlds import determinize

        return determinize(views, seat, rng, hint=hint, max_seconds=max_seconds)

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: DarkChessState) -> Json:
        return {
            "start": state.start_fen,
            "visibility": state.visibility,
            "moves": [m.uci() for m in state.board.move_stack],
        }

    def decode_state(self, data: Mapping[str, Any]) -> DarkChessState:
        board = DarkBoard(data["start"])
        state = _start(board, data["start"], data.get("visibility", "openspiel"))
        for uci in data["moves"]:
            state = _advance(state, chess.Move.from_uci(uci))
        return state

    # -- exports -------------------------------------------------------------------------

    def export(self, record: Mapping[str, Any]) -> dict[str, str]:
        return {"pgn": to_pgn(record)}


# -- PGN ----------------------------------------------------------------------------------


class DarkHeaders(chess.pgn.Headers):
    """PGN headers that know the ``Variant "Dark Chess"`` tag."""

    def variant(self) -> type[chess.Board]:
        if self.get("Variant", "").lower() in (a.lower() for a in DarkBoard.aliases):
            return DarkBoard
        return super().variant()


class DarkPgnGame(chess.pgn.Game):
    """A PGN game whose ``Variant "Dark Chess"`` header gives a :class:`DarkBoard`."""

    def __init__(self, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(headers)
        self.headers = DarkHeaders(self.headers)


def to_pgn(record: Mapping[str, Any]) -> str:
    """PGN of a finished room record, tagged ``[Variant "Dark Chess"]`` and always with a
    ``FEN`` tag; the SAN is disambiguated against dark-chess moves (:func:`read_pgn`)."""
    game = pgn_game(record, board_cls=DarkBoard, game_cls=DarkPgnGame)
    visibility = record.get("options", {}).get("visibility")
    if visibility:
        game.headers["Visibility"] = visibility
    out = io.StringIO()
    print(game, file=out, end="\n")
    return out.getvalue()


def read_pgn(text: str) -> chess.pgn.Game | None:
    """Parse a PGN written by :func:`to_pgn` (plain ``chess.pgn.read_game`` does not know the
    variant and would reject moves into check)."""
    builder = functools.partial(chess.pgn.GameBuilder, Game=DarkPgnGame)
    return chess.pgn.read_game(io.StringIO(text), Visitor=builder)


# -- perft ------------------------------------------------------------------------------------


def _perft(board: DarkBoard, depth: int, keys: list[Hashable]) -> int:
    if depth == 0:
        return 1
    if board.is_variant_end() or keys.count(keys[-1]) >= 3:
        return 0
    moves = list(board.generate_legal_moves())
    if moves and board.halfmove_clock >= 100:
        return 0
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        zeroing = board.is_zeroing(move)
        board.push(move)
        key = position_key(board)
        total += _perft(board, depth - 1, [key] if zeroing else [*keys, key])
        board.pop()
    return total


GAMES = (DarkChess(),)
