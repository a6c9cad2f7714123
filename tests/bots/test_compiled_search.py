"""The compiled chess search (``server/bots/_chess_search.c``) held to its references.

Its board changes (make) to python-chess's move counts, its evaluation to the Python
search's (:class:`ChessPosition` with PeSTO, the test reference
``tests/bots/chess_reference.py``), and the search itself to the Python search
(:class:`AlphaBeta` on that position): the same move and the same score, depth for depth, on
positions from random games. The bot sends chess to it, and keeps its table per view history
as the Python search keeps its own for the other games.
"""

from __future__ import annotations

import random

import chess
import pytest

from server.bots import compiled, make_bot
from server.bots.alphabeta import AlphaBeta, AlphaBetaBot
from server.bots.bot import Deadline
from server.bots.chess_eval import MATE
from server.engine.chess_moves import code_of

from .chess_reference import PRUNING, ChessPosition, reference_position, reference_search
from .play import random_game

# chessprogramming.org's Perft Results: positions 3, 4 and 5 (the start and Kiwipete are
# in tests/engine/perft_chess.json; the counts to depth 4 here)
PERFT = [
    (chess.STARTING_FEN, [20, 400, 8902, 197281]),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        [48, 2039, 97862, 4085603],
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467, 422333]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379, 2103487]),
]


def test_the_compiled_search_is_built() -> None:
    """CI builds it (``pip install -e .``); without it every other test here would say
    nothing, so its absence fails."""
    assert compiled.SEARCH is not None


def game(board: chess.Board, start_fen: str = chess.STARTING_FEN) -> tuple[object, list[int]]:
    read = compiled.game_of(start_fen, board.move_stack)
    assert read is not None
    return read


def played(seed: int, low: int, high: int) -> chess.Board:
    """A board after a random game of ``low`` to ``high`` plies (not over)."""
    rng = random.Random(seed)
    while True:
        board = chess.Board()
        for _ in range(rng.randrange(low, high)):
            moves = list(board.legal_moves)
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
            if board.is_game_over():
                break
        if not board.is_game_over():
            return board


@pytest.mark.parametrize(("fen", "counts"), PERFT)
def test_the_search_makes_moves_as_python_chess_counts_them(fen: str, counts: list[int]) -> None:
    read = game(chess.Board(fen), fen)
    assert [compiled.perft(read, depth) for depth in range(1, len(counts) + 1)] == counts


def test_games_replayed_move_by_move_reach_python_chess_s_positions() -> None:
    """Castling, en passant and promotions in the game's own moves (replayed by the C side
    from the start) leave the board python-chess has: the same counts two plies on."""
    for seed in range(40):
        board = played(seed, 20, 140)
        expected = sum(1 for m in board.legal_moves for _ in _after(board, m))
        assert compiled.perft(game(board), 2) == expected, board.fen()


def _after(board: chess.Board, move: chess.Move) -> list[chess.Move]:
    board.push(move)
    try:
        return list(board.legal_moves)
    finally:
        board.pop()


def test_the_evaluation_is_the_python_search_s() -> None:
    for seed in range(150):
        board = played(seed, 0, 160)
        python = ChessPosition(board.copy(stack=False), pesto=True).evaluate()
        assert compiled.evaluate(game(board)) == python, board.fen()


def test_the_search_is_the_python_search_depth_for_depth() -> None:
    """The same algorithm: the same best move and score at every depth to 4 (the two tables
    key a few positions differently, so deeper searches may part by a node or two)."""
    for seed in range(16):
        board = played(1000 + seed, 4, 80)
        moves = list(board.legal_moves)
        random.Random(seed).shuffle(moves)
        root = [code_of(m) for m in moves]
        for depth in (1, 2, 3, 4):
            # the game's earlier positions count for draws, as in the C search
            python = reference_search(reference_position(board, chess.STARTING_FEN))
            expected = python.search(list(moves), Deadline(1000), max_depth=depth)
            code, score, done, nodes = compiled.search(
                game(board), list(root), budget=1000, max_depth=depth
            )
            assert (code, score, done) == (code_of(expected.move), expected.score, depth), (
                board.fen(),
                depth,
            )
            assert nodes > 0


def test_a_broken_evaluation_is_caught_by_the_comparison() -> None:
    """The comparison can fail: the same search with a pawn worth more on the Python side
    parts from the compiled one."""
    board = played(7, 10, 40)
    moves = list(board.legal_moves)
    root = [code_of(m) for m in moves]
    compiled_answer = compiled.search(game(board), list(root), budget=1000, max_depth=3)
    position = ChessPosition(board.copy(stack=False), pesto=True)
    fair = AlphaBeta(position, null_move=True, pruning=PRUNING)
    answer = fair.search(list(moves), Deadline(1000), max_depth=3)
    assert (code_of(answer.move), answer.score) == compiled_answer[:2]
    broken = position.evaluate
    position.evaluate = lambda: broken() + 37 * (1 if position.board.turn else -1)  # type: ignore[method-assign]
    python = AlphaBeta(position, null_move=True, pruning=PRUNING)
    answer = python.search(list(moves), Deadline(1000), max_depth=3)
    assert (code_of(answer.move), answer.score) != compiled_answer[:2]


def test_mates_draws_and_a_node_cap() -> None:
    mate_in_2 = "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1"  # 1...Rg1+ 2.Kxg1 Rxf1#
    board = chess.Board(mate_in_2)
    root = [code_of(m) for m in board.legal_moves]
    code, score, _, _ = compiled.search(game(board, mate_in_2), root, budget=5)
    assert chess.Move.from_uci("g2g1") == chess.Move(code >> 6 & 63, code & 63)
    assert score == MATE - 3
    # a queen down, White can go back to a position the game had: the repetition is a draw,
    # the only score not lost, and the search takes it
    queen_down = "k7/8/8/8/3q4/8/8/6NK w - - 0 1"
    board = chess.Board(queen_down)
    for uci in ("g1f3", "a8a7", "f3g1", "a7a8"):
        board.push_uci(uci)
    root = [code_of(m) for m in board.legal_moves]
    code, score, _, _ = compiled.search(game(board, queen_down), root, budget=0.5)
    assert (code, score) == (code_of(chess.Move.from_uci("g1f3")), 0)
    fresh = chess.Board(queen_down)  # the same position without the history: lost
    _, score, _, _ = compiled.search(game(fresh, queen_down), root, budget=0.5)
    assert score < -500
    # a node cap makes a long budget deterministic
    board = played(3, 20, 40)
    root = [code_of(m) for m in board.legal_moves]
    first = compiled.search(game(board), root, budget=100, max_nodes=20_000)
    assert first == compiled.search(game(board), root, budget=100, max_nodes=20_000)
    assert first[3] <= 20_000 + 64


def test_bad_arguments_are_refused_with_an_error() -> None:
    board = chess.Board()
    read = game(board)
    root = [code_of(m) for m in board.legal_moves]
    with pytest.raises(ValueError, match="power of two"):
        compiled.search(read, root, budget=0.1, table=bytearray(1000))
    with pytest.raises(ValueError, match="root"):
        compiled.search(read, [], budget=0.1)
    for bad in ({"budget": float("nan")}, {"budget": -1}, {"max_depth": 0}, {"max_depth": 65}):
        with pytest.raises(ValueError, match="budget: 0 to 86400 s"):
            compiled.search(read, root, **{"budget": 0.1, **bad})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a legal move here"):
        compiled.search(read, [code_of(chess.Move.from_uci("e2e5"))], budget=0.1)
    with pytest.raises(ValueError, match=r"moves\[1\] .* not a legal move there"):
        compiled.search(
            (read[0], [code_of(chess.Move.from_uci(u)) for u in ("e2e4", "e2e4")]), root, budget=0.1
        )
    with pytest.raises(ValueError, match="king"):
        lone = "8/8/8/8/8/8/8/K7 w - - 0 1"
        compiled.search(game(chess.Board(lone), lone), [0], budget=0.1)


@pytest.mark.parametrize(("name", "kind"), [("chess", bytearray), ("kono", dict)])
def test_the_bot_keeps_its_table_for_the_next_turn_of_the_same_game_only(
    name: str, kind: type
) -> None:
    """Chess's compiled search keeps its bytearray, a grid game's Python search its dict."""
    bot = AlphaBetaBot(max_depth=3)
    tables = bot._tables
    p = random_game(name, 5, 10)
    seat = min(p.game.to_act(p.state))
    bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0))
    first = tables.latest()
    assert isinstance(first, kind)  # the search's own kind
    # what the search learned, kept under this game's view history
    assert first if isinstance(first, dict) else bytes(first).strip(b"\0")
    # another game (another room) starts from an empty table and keeps its own
    q = random_game(name, 6, 10)
    other = min(q.game.to_act(q.state))
    bot.choose(q.game, other, q.views[other], q.legal(other), 5.0, random.Random(0))
    assert len(tables) == 2 and tables.latest() is not first
    # the same seat's next turn of the first game starts from the first table
    for mover in (seat, 1 - seat):
        p.play({mover: p.legal(mover)[0]})
    bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0))
    assert len(tables) == 2 and tables.latest() is first
    # the other seat of the first game never had that history: it starts afresh
    p.play({seat: p.legal(seat)[0]})
    bot.choose(p.game, 1 - seat, p.views[1 - seat], p.legal(1 - seat), 5.0, random.Random(0))
    assert len(tables) == 3 and tables.latest() is not first


def test_the_bot_plays_chess_in_c() -> None:
    hard = make_bot("chess", "hard")
    assert isinstance(hard, AlphaBetaBot)
    p = random_game("chess", 9, 30)
    seat = min(p.game.to_act(p.state))
    move = hard.choose(p.game, seat, p.views[seat], p.legal(seat), 0.3, random.Random(0))
    assert move in p.legal(seat)
    assert hard.last is not None and hard.last.depth >= 4 and hard._fallback is None
