"""Dark Chess leaf values (``server/bots/dark_eval.py``): a king's blind approaches are counted
from the board alone and priced for both sides alike."""

from __future__ import annotations

import random

import chess

from server.bots import make_bot
from server.bots.chess_eval import ChessEvaluator
from server.bots.dark_eval import DarkChessEvaluator, approaches, blind_approaches
from server.engine import get_game
from server.engine.dark_chess.rules import board_from_fen, start
from server.engine.dark_chess.views import visible_squares

GAME = get_game("dark_chess")


def brute_approaches(board: chess.Board, square: chess.Square) -> int:
    """Every square a queen or a knight (or a king) standing there would strike ``square``
    from, with the board as it is."""
    out = 0
    for sq in chess.SQUARES:
        if sq == square:
            continue
        dist = chess.square_distance(sq, square)
        f = chess.square_file(sq) - chess.square_file(square)
        r = chess.square_rank(sq) - chess.square_rank(square)
        if dist == 1 or {abs(f), abs(r)} == {1, 2}:
            out |= chess.BB_SQUARES[sq]
            continue
        if f and r and abs(f) != abs(r):
            continue
        step_f, step_r = (f > 0) - (f < 0), (r > 0) - (r < 0)
        between = [
            chess.square(
                chess.square_file(square) + i * step_f, chess.square_rank(square) + i * step_r
            )
            for i in range(1, dist)
        ]
        if not any(board.piece_at(b) for b in between):
            out |= chess.BB_SQUARES[sq]
    return out


def test_approaches_agree_with_a_brute_force_count() -> None:
    rng = random.Random(7)
    board = chess.Board()
    for _ in range(300):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            board = chess.Board()
            continue
        board.push(rng.choice(moves))
        for color in (chess.WHITE, chess.BLACK):
            king = board.king(color)
            assert king is not None
            assert approaches(board, king) == brute_approaches(board, king)


def test_a_bare_king_in_the_open_is_blind_on_every_approach_its_pieces_miss() -> None:
    # White: Kd4 alone with a pawn on h2; Black: Ke8, Ra8. White sees its pawn's squares and
    # what its king attacks, so only the king steps around d4 are in sight
    board = board_from_fen("r3k3/8/8/8/3K4/8/7P/8 w - - 0 1")
    king = board.king(chess.WHITE)
    assert king is not None
    seen = visible_squares(board, chess.WHITE, "openspiel")
    expected = chess.popcount(approaches(board, king) & ~seen)
    assert blind_approaches(board, chess.WHITE, "openspiel") == expected > 10
    # at the start every approach to either king is blocked by its own pieces, or seen
    assert blind_approaches(chess.Board(), chess.WHITE, "openspiel") == 0
    assert blind_approaches(chess.Board(), chess.BLACK, "openspiel") == 0
    # no king (captured): nothing to approach
    assert (
        blind_approaches(chess.Board("r7/8/8/8/3K4/8/8/8 w - - 0 1"), chess.BLACK, "openspiel") == 0
    )


def test_fog_zero_is_the_chess_evaluation_and_fog_prices_the_blind_side() -> None:
    fen = "r3k3/pppp4/8/8/3K4/8/7P/8 w - - 0 1"  # White's king stands in the open
    state = start(board_from_fen(fen), fen, "openspiel")
    plain = ChessEvaluator(GAME).values(state)
    assert DarkChessEvaluator(GAME, fog=0).values(state) == plain
    priced = DarkChessEvaluator(GAME, fog=20).values(state)
    assert priced[0] < plain[0] and priced[1] > plain[1]  # White is the blinder side
    assert abs(sum(priced) - 1.0) < 1e-9


def test_the_fog_option_reaches_the_search() -> None:
    bot = make_bot("dark_chess", "ismcts", fog=15)
    evaluator = bot.evaluator_for(GAME)
    assert isinstance(evaluator, DarkChessEvaluator) and evaluator.fog == 15
    assert not isinstance(
        make_bot("dark_chess", "ismcts", fog=0).evaluator_for(GAME), DarkChessEvaluator
    )
