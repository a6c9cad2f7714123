"""Dark Chess's ``worldsearch`` bot (``server/bots/worldsearch.py``): alpha-beta in many
sampled worlds, the moves weighed over them. Its worlds fit every view the seat has had, its
search plays by Dark Chess's rules (pseudo-legal moves, a king in reach is taken), compiled
or in Python, and it takes a king it sees and does not leave its own where it is seen
to be in reach."""

from __future__ import annotations

import random
import time

import chess
import pytest

from server.bots import dark_search, make_bot
from server.bots.dark_search import WIN, python_search, search
from server.bots.particles import advance_worlds
from server.bots.worldsearch import WorldSearchBot, chance
from server.engine.chess_moves import board_fields
from server.engine.dark_chess.rules import DarkBoard, advance

from .play import capture_policy, random_game
from .play import start as start_game
from .test_particles import next_turn, replays_every_view, to_move

#: deterministic: the worlds drawn without the clock, the search to a fixed depth
DETERMINISTIC = {"max_iterations": 1, "pool": 8, "max_depth": 2}


def test_the_compiled_search_is_built() -> None:
    # the suite runs with the compiled parts built (KIBITZ_PURE_PYTHON unset)
    assert dark_search.SEARCH is not None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_searched_world_fits_every_view(seed: int) -> None:
    rng = random.Random(seed)
    p = random_game("dark_chess", seed, 12, policy=capture_policy)
    seat = to_move(p)
    bot = make_bot("dark_chess", "worldsearch", **DETERMINISTIC)
    assert isinstance(bot, WorldSearchBot)
    turns = kept = 0
    for _ in range(8):
        if p.game.outcome(p.state) is not None:
            break
        move = bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0))
        assert move in p.legal(seat)
        assert bot.searched and bot.worlds_used == len(bot.searched)
        for world in bot.searched:
            assert p.game.view(world, seat) == p.views[seat][-1]
            assert replays_every_view(p, seat, world)
        # every world to depth 2 compiled; in Python (the fallback, ~100 times slower) as
        # far as the time goes
        assert max(bot.depths) >= 1 and min(bot.depths) >= 0
        if dark_search.SEARCH is not None:
            assert bot.depths == [2] * len(bot.searched)
        turns += 1
        kept += bot.worlds_kept
        if not next_turn(p, seat, rng):
            break
    assert turns >= 3 and kept > 0


def test_the_check_catches_a_world_that_contradicts_a_view() -> None:
    # the guard above, shown a world that fits the last view but not an earlier one: Black's
    # knight went b8-c6-b8 in the world, g8-f6-g8 in truth (White sees neither)
    p = start_game("dark_chess")
    for white, black in (("a2a3", "g8f6"), ("a3a4", "f6g8"), ("b2b3", "e7e6")):
        p.play({0: white})
        p.play({1: black})
    other = start_game("dark_chess").state
    for move in ("a2a3", "b8c6", "a3a4", "c6b8", "b2b3", "e7e6"):
        other = advance(other, chess.Move.from_uci(move))
    assert p.game.view(other, 0) == p.views[0][-1]
    assert replays_every_view(p, 0, p.state)
    assert replays_every_view(p, 0, other)  # unseen moves: White cannot tell them apart
    # now a world whose Black took a pawn White saw taken elsewhere: caught
    q = start_game("dark_chess")
    for white, black in (("e2e4", "d7d5"), ("b1c3", "d5e4")):
        q.play({0: white})
        q.play({1: black})
    wrong = start_game("dark_chess").state
    for move in ("e2e4", "d7d5", "b1c3", "d8d6"):
        wrong = advance(wrong, chess.Move.from_uci(move))
    assert not replays_every_view(q, 0, wrong)


@pytest.mark.parametrize("seed", range(4))
def test_the_compiled_moves_are_dark_chess_moves(seed: int) -> None:
    # pseudo-legal moves (a king may step into an attack, castling ignores attacks) in the
    # positions of random games
    assert dark_search.SEARCH is not None
    checked = 0
    for plies in range(4, 60, 5):
        board = random_game("dark_chess", seed, plies, policy=capture_policy).state.board
        if board.is_variant_end():
            continue
        got = sorted(dark_search.SEARCH.moves(board_fields(board)))
        want = sorted(dark_search.code_of(m) for m in board.generate_legal_moves())
        assert got == want, board.fen()
        checked += 1
    assert checked >= 4


def test_compiled_castling_through_an_attack_and_a_king_stepping_into_one() -> None:
    assert dark_search.SEARCH is not None
    board = DarkBoard("r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1")  # f1 and d1's side attacked
    got = set(dark_search.SEARCH.moves(board_fields(board)))
    want = {dark_search.code_of(m) for m in board.generate_legal_moves()}
    assert got == want
    assert dark_search.code_of(chess.Move.from_uci("e1g1")) in got
    assert dark_search.code_of(chess.Move.from_uci("e1f2")) in got


def _scores(fen: str, texts: list[str], compiled: bool) -> dict[str, int]:
    board = DarkBoard(fen)
    root = [chess.Move.from_uci(t) for t in texts]
    scores, depths, _ = search([board], root, 5.0, max_depth=2, compiled=compiled)
    assert depths == [2]
    return dict(zip(texts, scores[0], strict=True))


@pytest.mark.parametrize("compiled", [True, False])
def test_a_king_in_reach_is_taken_and_ones_own_is_not_hung(compiled: bool) -> None:
    # White's rook takes the king on e8 (a win); Kd1-d2 steps beside Black's queen (a loss)
    fen = "4k3/8/8/8/8/2q5/8/3K3R w - - 0 1"
    s = _scores("4k2R/8/8/8/8/2q5/8/3K4 w - - 0 1", ["h8e8", "d1d2", "d1e1"], compiled)
    assert s["h8e8"] >= WIN - 1000
    s = _scores(fen, ["d1d2", "d1e2", "h1h2"], compiled)
    assert s["d1d2"] <= -WIN + 1000  # the queen on c3 takes it
    assert s["d1e2"] > -WIN + 1000


def test_win_chances() -> None:
    assert 0.999 < chance(WIN - 5, 400) < chance(WIN - 1, 400) < 1.0
    assert 0.0 < chance(-WIN + 1, 400) < chance(-WIN + 5, 400) < 0.001
    assert chance(0, 400) == 0.5 and 0.5 < chance(100, 400) < chance(300, 400) < 1.0


@pytest.mark.parametrize("compiled", [True, False])
def test_the_bot_takes_a_king_it_sees(compiled: bool) -> None:
    # 1. e4 f6 2. Qh5 g5?? : White's queen sees the king on e8 along h5-e8
    p = start_game("dark_chess")
    for white, black in (("e2e4", "f7f6"), ("d1h5", "g7g5")):
        p.play({0: white})
        p.play({1: black})
    bot = make_bot("dark_chess", "worldsearch", compiled=compiled, **DETERMINISTIC)
    move = bot.choose(p.game, 0, p.views[0], p.legal(0), 5.0, random.Random(1))
    assert move == "h5e8"


def test_the_python_search_is_the_fallback() -> None:
    # the same answer shape as the compiled one; what it finds at depth 1 agrees on a capture
    board = DarkBoard("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1")
    root = [chess.Move.from_uci(t) for t in ("d2d5", "d2d3", "e1f1")]
    scores, depths, nodes = python_search([board], root, 5.0, max_depth=2)
    assert depths == [2] and nodes > 0
    assert max(range(3), key=lambda i: scores[0][i]) == 0


def test_the_advance_of_remembered_worlds_keeps_to_its_time() -> None:
    # worldsearch advances its remembered worlds only within the pool's share of the budget
    # (bounded_advance; ISMCTS advances them all): past the stop, the first world alone
    p = start_game("dark_chess")
    for white, black in (("e2e4", "g8f6"), ("d2d3", "b8c6")):
        p.play({0: white})
        p.play({1: black})
    bot = make_bot("dark_chess", "worldsearch", **DETERMINISTIC)
    bot.choose(p.game, 0, p.views[0], p.legal(0), 5.0, random.Random(0))
    worlds = bot._memory.latest()
    assert worlds is not None and len(worlds) >= 2
    p.play({0: "g1f3"})
    p.play({1: "a7a6"})
    unbounded = advance_worlds(worlds, p.views[0], 0, random.Random(0))
    assert all(unbounded)  # every world has children (Black's moves are unseen)
    bounded = advance_worlds(worlds, p.views[0], 0, random.Random(0), time.perf_counter())
    assert bounded[0] and not any(bounded[1:])
    assert isinstance(bot, WorldSearchBot) and bot.bounded_advance
    assert not make_bot("dark_chess", "ismcts").bounded_advance  # type: ignore[attr-defined]
