"""Alpha-beta: finds mates and tactics (the chess bot in C, and the Python search on the
test reference's chess position), stops at its budget, and works on any two-seat turn-based
game of the contract; without the compiled search chess's ``alphabeta`` plays MCTS."""

from __future__ import annotations

import random
import time
from typing import Any

import chess
import pytest

from server.bots import alphabeta, compiled, make_bot
from server.bots.alphabeta import EXACT, AlphaBeta, AlphaBetaBot, GamePosition, trimmed
from server.bots.bot import Deadline
from server.bots.chess_eval import MATE, evaluate_board

from .chess_reference import ChessPosition, reference_position, reference_search
from .play import random_game, start

#: the chess bot searches in C; without it (KIBITZ_PURE_PYTHON=1) it plays MCTS. The C
#: search's own tests carry the ``compiled`` mark, which .ci/run's pure-Python pass leaves
#: out (``-k "not compiled"``) rather than skipping them
C_ONLY = [
    pytest.mark.compiled,
    pytest.mark.skipif(compiled.SEARCH is None, reason="the compiled search is off"),
]


def needs_c(test: Any) -> Any:
    for mark in C_ONLY:
        test = mark(test)
    return test


MATE_IN_2 = "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1"  # 1...Rg1+ 2.Kxg1 Rxf1#


def choose(
    fen: str, seat: int, budget: float = 1.0, *, bot: str, max_depth: int = 64
) -> tuple[str, int]:
    """The move and score of the chess bot (``bot="c"``) or of the Python search on the
    reference position (``"reference"``) in the position ``fen``."""
    p = start("chess", options={"fen": fen})
    if bot == "reference":  # to depth 4 whatever the time (tens of times slower than C)
        board = chess.Board(fen)
        search = reference_search(reference_position(board, fen))
        depth = min(max_depth, 4)
        found = search.search(list(board.legal_moves), Deadline(600), max_depth=depth)
        return found.move.uci(), found.score
    searcher = make_bot("chess", "alphabeta", max_depth=max_depth)
    assert isinstance(searcher, AlphaBetaBot)
    move = searcher.choose(p.game, seat, p.views[seat], p.legal(seat), budget, random.Random(0))
    assert searcher.last is not None
    return move, searcher.last.score


BOTH = pytest.mark.parametrize("bot", [pytest.param("c", marks=C_ONLY), "reference"])


@BOTH
def test_finds_a_mate_in_two(bot: str) -> None:
    move, score = choose(MATE_IN_2, 1, bot=bot)
    assert move == "g2g1"
    assert score >= MATE - 3


@BOTH
def test_finds_a_mate_in_two_for_white(bot: str) -> None:
    mirrored = chess.Board(MATE_IN_2).mirror().fen()
    move, score = choose(mirrored, 0, bot=bot)
    assert move == "g7g8"
    assert score >= MATE - 3


@BOTH
def test_wins_a_hanging_queen_but_not_a_poisoned_pawn(bot: str) -> None:
    move, _ = choose("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", 0, 0.3, bot=bot)
    assert move == "d1d5"
    # Qxb7?? loses the queen to the rook on b8 (quiescence sees the recapture)
    move, _ = choose("1r2k3/1p6/8/8/8/8/8/1Q2K3 w - - 0 1", 0, 0.3, bot=bot, max_depth=1)
    assert move != "b1b7"


def test_without_the_compiled_search_chess_plays_mcts(monkeypatch: pytest.MonkeyPatch) -> None:
    """KIBITZ_PURE_PYTHON=1 (or no C compiler): chess's alphabeta is MCTS in the same time;
    the other games keep their Python alpha-beta."""
    monkeypatch.setattr(alphabeta, "SEARCH", None)
    p = random_game("chess", 2, 10)
    seat = min(p.game.to_act(p.state))
    bot = make_bot("chess", "hard")
    assert isinstance(bot, AlphaBetaBot)
    move = bot.choose(p.game, seat, p.views[seat], p.legal(seat), 0.2, random.Random(0))
    assert move in p.legal(seat)
    assert bot.last is None and type(bot.fallback()).__name__ == "MCTSBot"
    assert bot.fallback().think_time == bot.think_time == 2.0
    p = random_game("kono", 2, 6)
    seat = min(p.game.to_act(p.state))
    kono = make_bot("kono", "alphabeta")
    assert isinstance(kono, AlphaBetaBot)
    assert kono.choose(p.game, seat, p.views[seat], p.legal(seat), 0.2, random.Random(0))
    assert kono.last is not None and kono._fallback is None


@needs_c
def test_chess_refuses_a_pruning_the_compiled_search_has_not() -> None:
    p = random_game("chess", 2, 10)
    seat = min(p.game.to_act(p.state))
    for off in ("prune", "futility", "lmp", "deep_lmr"):
        bot = make_bot("chess", "alphabeta", **{off: 0})
        with pytest.raises(ValueError, match="pruning built in"):
            bot.choose(p.game, seat, p.views[seat], p.legal(seat), 0.2, random.Random(0))
    bot = make_bot("chess", "alphabeta", next_depth=0.5, max_depth=2)  # any next_depth
    assert bot.choose(p.game, seat, p.views[seat], p.legal(seat), 1.0, random.Random(0))


@needs_c
def test_stops_within_the_budget() -> None:
    p = random_game("chess", 3, 12)
    seat = min(p.game.to_act(p.state))
    bot = make_bot("chess", "alphabeta")
    started = time.perf_counter()
    bot.choose(p.game, seat, p.views[seat], p.legal(seat), 0.2, random.Random(0))
    assert time.perf_counter() - started <= 0.22


def test_the_incremental_evaluation_matches_a_fresh_one() -> None:
    rng = random.Random(4)
    board = chess.Board()
    pos = ChessPosition(board)
    for _ in range(80):
        moves = pos.moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
        fresh = evaluate_board(board)
        assert pos.evaluate() == (fresh if board.turn == chess.WHITE else -fresh)


def test_the_position_pushes_and_pops_back_to_python_chess_s_board() -> None:
    """Random sharp games from the tricky positions, null moves among them: popping restores
    the board, the evaluation and the key."""
    from tests.engine.test_chess_moves import TRICKY

    rng = random.Random(8)
    pushed = 0
    for game in range(60):
        board = chess.Board(TRICKY[game % len(TRICKY)])
        pos = ChessPosition(board, pesto=game % 2 == 0)
        before = (board.fen(), pos.evaluate(), pos.key())
        for _ in range(40):
            moves = pos.moves()
            if not moves:
                break
            captures = pos.captures()
            move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
            pos.push(None if rng.random() < 0.05 and not pos.in_check() else move)
            pushed += 1
            fresh = ChessPosition(board.copy(), pesto=game % 2 == 0)
            assert pos.evaluate() == fresh.evaluate() and pos.key() == fresh.key()
        while len(pos.keys) > 1:
            pos.pop()
        assert (board.fen(), pos.evaluate(), pos.key()) == before
    assert pushed > 1000


def test_repetition_is_a_draw_in_the_search() -> None:
    # White is a queen down but can repeat checks forever: the search sees the draw (0)
    fen = "6k1/5ppp/8/8/8/8/q7/1Q4K1 w - - 0 1"
    board = chess.Board(fen)
    result = AlphaBeta(ChessPosition(board)).search(list(board.legal_moves), Deadline(0.5))
    assert board.fen() == fen  # push/pop restored the board
    assert result.move in board.legal_moves


def test_any_two_seat_game_through_the_contract() -> None:
    p = random_game("banqi", 1, 12)
    seat = min(p.game.to_act(p.state))
    world = p.game.determinize(p.views[seat], seat, random.Random(0))
    pos = GamePosition(p.game, world, random.Random(0))
    moves = p.game.legal_moves(world, seat)
    result = AlphaBeta(pos).search(moves, Deadline(0.3), max_depth=3)
    assert str(result.move) in p.legal(seat)
    assert result.depth >= 1


def test_keeps_no_table_when_told_not_to() -> None:
    """(What it keeps, and for whom: ``tests/bots/test_compiled_search.py``, both searches.)"""
    p = random_game("chess", 5, 10)
    seat = min(p.game.to_act(p.state))
    q = random_game("kono", 5, 6)
    for game in (p, q):
        seat = min(game.game.to_act(game.state))
        fresh = AlphaBetaBot(max_depth=3, remember=False)
        fresh.choose(game.game, seat, game.views[seat], game.legal(seat), 5.0, random.Random(0))
        assert len(fresh._tables) == 0


def test_a_kept_table_drops_its_shallowest_searches_first() -> None:
    table = {i: (i % 4, EXACT, 0, None) for i in range(100)}
    kept = trimmed(table, 60)
    assert set(kept) == {i for i in range(100) if i % 4 >= 2}  # depths 0 and 1 went
    assert trimmed(table, 100) is table
