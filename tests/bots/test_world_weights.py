"""Dark Chess worlds weighed by how likely the opponent's moves are in them
(``server/bots/particles.py``: :func:`likelihood`), and the leaf term that counts the side to
move's best capture (``server/bots/chess_eval.py``: :func:`best_capture`)."""

from __future__ import annotations

import math
import random

import chess
import pytest

from server.bots.bot import Ask, Deadline
from server.bots.chess_eval import ChessEvaluator, best_capture, loose_pieces
from server.bots.ismcts import ISMCTSBot
from server.bots.particles import GREED, likelihood
from server.engine import get_game
from server.engine.dark_chess.rules import DarkBoard, DarkChessState, advance, start

# White: king e1, queen d4 (nothing guards it), pawn a2; Black: king e8, knight b8, pawn h7
FEN = "1n2k3/7p/8/8/3Q4/8/P7/4K3 b - - 0 1"


def played(*moves: str) -> DarkChessState:
    state = start(DarkBoard(FEN), FEN, "openspiel")
    for text in moves:
        state = advance(state, chess.Move.from_uci(text))
    return state


def n_legal(state: DarkChessState, *moves: str) -> list[int]:
    """How many legal moves the side to move had before each of ``moves``."""
    counts = []
    for text in moves:
        counts.append(len(list(state.board.generate_legal_moves())))
        state = advance(state, chess.Move.from_uci(text))
    return counts


# two histories that look alike to White (its pawn and queen move, Black's knight and pawn
# move in the fog): in the first Black's knight could take the free queen and did not
PASSED_UP = ("b8c6", "a2a3", "h7h6")
NOTHING_TO_TAKE = ("b8a6", "a2a3", "h7h6")


def test_likelihood_is_the_policy_of_a_greedy_opponent() -> None:
    # no capture anywhere: each of Black's moves is one of its legal moves, alike
    state = played(*NOTHING_TO_TAKE)
    black = n_legal(played(), *NOTHING_TO_TAKE)[0::2]
    expected = math.prod(1.0 / n for n in black)
    assert likelihood(state, chess.WHITE) == pytest.approx(expected)
    # the knight on c6 could take the queen (9 pawns, unguarded) and did not
    counts = n_legal(played(), *PASSED_UP)
    quiet_after_c6 = counts[2] - 1  # every legal move but Nxd4
    expected = (1.0 / counts[0]) * (1.0 / (quiet_after_c6 + math.exp(GREED * 9)))
    assert likelihood(played(*PASSED_UP), chess.WHITE) == pytest.approx(expected)
    assert likelihood(played(*PASSED_UP), chess.WHITE) < 1e-3 * expected * math.exp(GREED * 9)
    assert likelihood("not a dark chess state", chess.WHITE) == 1.0


def test_the_search_visits_worlds_as_often_as_they_are_likely() -> None:
    worlds = [played(*PASSED_UP), played(*NOTHING_TO_TAKE)]
    game = get_game("dark_chess")
    ask = Ask(game, 0, [], [], Deadline(1.0), random.Random(1))
    order = ISMCTSBot(greed=GREED)._schedule(ask, worlds)
    assert order.count(worlds[1]) >= 0.9 * len(order)
    # the deliberately broken version (no weights): the world where the queen was passed
    # up is searched as often as the other, and the check above would fail
    flat = ISMCTSBot(greed=0)._schedule(ask, worlds)
    assert flat.count(worlds[1]) < 0.9 * len(flat)


@pytest.mark.parametrize(
    ("fen", "gain"),
    [
        ("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", 900),  # a free queen
        ("4k3/8/4p3/3r4/4P3/8/8/4K3 w - - 0 1", 400),  # a guarded rook, taken by a pawn
        ("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1", 0),  # a guarded pawn, taken by the queen
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),  # nothing to take
        ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", 0),  # nothing for Black either
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", None),  # the king en prise
    ],
)
def test_best_capture(fen: str, gain: int | None) -> None:
    assert best_capture(DarkBoard(fen)) == gain


def test_leaf_values_count_the_capture_to_come() -> None:
    game = get_game("dark_chess")
    # White to move wins Black's queen: the leaf term says so, the plain evaluation not
    state = start(DarkBoard("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"), "", "openspiel")
    plain = ChessEvaluator(game).values(state)[0]
    with_captures = ChessEvaluator(game, captures=1.0).values(state)[0]
    assert plain < 0.5 < with_captures
    king = start(DarkBoard("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"), "", "openspiel")
    assert ChessEvaluator(game, captures=1.0).values(king) == [1.0, 0.0]


def test_loose_pieces() -> None:
    # White: a knight on c3 guarded by the b2 pawn, a loose bishop on h5 and a loose rook on
    # a8 (kings and pawns never count); Black: a queen guarded by its king
    board = DarkBoard("R3k3/3q4/8/7B/8/2N5/1P6/4K3 w - - 0 1")
    assert loose_pieces(board, chess.WHITE) == 330 + 500
    assert loose_pieces(board, chess.BLACK) == 0
    game = get_game("dark_chess")
    state = start(board, "", "openspiel")
    plain = ChessEvaluator(game).values(state)[0]
    assert ChessEvaluator(game, loose=0.5).values(state)[0] < plain
