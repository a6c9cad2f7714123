"""The Dark Chess game: options, turns, moves, views and snapshots for the rooms."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import chess

from ..base import Game, IllegalMove, Json, Option, Outcome, Seat
from ..chess_game import parse_uci_or_san, seat_of
from ..chess_moves import to_moves
from .pgn import to_pgn
from .rules import (
    VISIBILITIES,
    DarkBoard,
    DarkChessState,
    advance,
    board_from_fen,
    perft_board,
    start,
)
from .views import seat_view
from .worlds import determinize as sample_world


class DarkChess(Game[DarkChessState, chess.Move]):
    name = "dark_chess"
    title = "Dark Chess"
    board = "chess"
    description = (
        "Chess in the fog of war: you see only your own pieces and the squares they can "
        "move to. No check: capture the king to win."
    )
    how_to_play = (
        "The pieces move as in chess, but you see only your own pieces and the squares they can "
        "move to; everything else is fog.",
        "There is no check: a king may move into danger or stay there, and castling through an "
        "attacked square is allowed. The game is won by capturing the enemy king.",
        "A pawn reaching the last rank promotes as in chess, and en passant is allowed (the "
        "capturing side sees the pawn it may take).",
        "A side with no legal move draws, as do threefold repetition and a hundred plies without "
        "a capture or a pawn move.",
    )
    min_seats = max_seats = 2
    play_draws = False
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
        board_from_fen(opts["fen"])
        return opts

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> DarkChessState:
        fen = options.get("fen", chess.STARTING_FEN)
        board = board_from_fen(fen)
        return start(board, board.fen(en_passant="fen"), options.get("visibility", "openspiel"))

    # -- playing -------------------------------------------------------------------------

    def to_act(self, state: DarkChessState) -> frozenset[Seat]:
        if state.result is not None:
            return frozenset()
        return frozenset({seat_of(state.board.turn)})

    def legal_moves(self, state: DarkChessState, seat: Seat) -> list[chess.Move]:
        if seat not in self.to_act(state):
            return []
        return to_moves(state.codes())

    def legal_texts(self, state: DarkChessState, seat: Seat) -> list[str]:
        if seat not in self.to_act(state):
            return []
        return state.legal_texts()

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
        return advance(state, moves[seat])

    def outcome(self, state: DarkChessState) -> Outcome | None:
        return state.result

    def ply(self, state: DarkChessState) -> int:
        return len(state.moves)

    def view(self, state: DarkChessState, seat: Seat | None) -> Json:
        """What ``seat`` sees: :func:`~server.engine.dark_chess.views.seat_view`."""
        return seat_view(state, seat)

    def final_view(self, state: DarkChessState, seat: Seat | None) -> Json:
        """The view once the game is over, however it ended: the fog lifted from the board."""
        return seat_view(state, seat, over=True)

    def perft(self, state: DarkChessState, depth: int) -> int:
        """Fast perft straight on the board; game ends (king taken, repetition, no move,
        fifty moves) are leaves with no children, as in the generic perft."""
        return perft_board(state.board.copy(), depth, list(state.keys))

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
        equals ``views[-1]``): see :mod:`server.engine.dark_chess.worlds`. ``hint``: a world
        sampled earlier in the same game, extended cheaply when it still fits;
        ``max_seconds``: a time bound for the search of a history."""
        return sample_world(views, seat, rng, hint=hint, max_seconds=max_seconds)

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: DarkChessState) -> Json:
        return {
            "start": state.start_fen,
            "visibility": state.visibility,
            "moves": [m.uci() for m in state.moves],
        }

    def decode_state(self, data: Mapping[str, Any]) -> DarkChessState:
        board = DarkBoard(data["start"])
        state = start(board, data["start"], data.get("visibility", "openspiel"))
        for uci in data["moves"]:
            state = advance(state, chess.Move.from_uci(uci))
        return state

    # -- exports -------------------------------------------------------------------------

    def export(self, record: Mapping[str, Any]) -> dict[str, str]:
        return {"pgn": to_pgn(record)}
