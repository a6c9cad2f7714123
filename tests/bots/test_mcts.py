"""MCTS/UCT (seed 003): heuristic weights, a depth limit, and the most visited move."""

from __future__ import annotations

import random

import chess
import pytest

from server.bots import make_bot
from server.bots.bot import Deadline
from server.bots.evaluator import evaluator_for
from server.bots.mcts import UCT, Node, backup_minimax, best_child, weighted_choice
from server.engine import get_game
from server.engine.dark_chess.rules import king_capture

from .play import random_game, start


def test_finds_a_mate_in_one() -> None:
    p = start("chess", options={"fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"})
    bot = make_bot("chess", "mcts", max_iterations=400)
    assert bot.choose(p.game, 0, p.views[0], p.legal(0), 5.0, random.Random(0)) == "d1d8"


def test_same_rng_same_move() -> None:
    p = random_game("hase_und_igel", 4, 12, seats=3)
    seat = min(p.game.to_act(p.state))
    moves = {
        make_bot("hase_und_igel", "mcts", max_iterations=60).choose(
            p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(7)
        )
        for _ in range(2)
    }
    assert len(moves) == 1


def test_priors_are_selection_weights() -> None:
    rng = random.Random(0)
    picks = [weighted_choice(["a", "b"], [9.0, 1.0], rng) for _ in range(2000)]
    assert 0.85 < picks.count("a") / 2000 < 0.95


def test_tree_statistics_add_up() -> None:
    p = random_game("banqi", 2, 8)
    seat = min(p.game.to_act(p.state))
    state = p.game.determinize(p.views[seat], seat, random.Random(0))
    search = UCT(p.game, evaluator_for(p.game), rollout_depth=4)
    root = search.run(
        seat, p.legal(seat), lambda: state, Deadline(5), random.Random(0), max_iterations=200
    )
    assert search.iterations == 200
    assert sum(c.n for c in root.children.values()) == 200
    assert best_child(root) in p.legal(seat)
    assert all(isinstance(c, Node) and c.seat == seat for c in root.children.values())


# -- decisive moves (Dark Chess: a king en prise is taken) ---------------------------------

#: Black to move, its king on e8 struck by the queen on b5 through d7: most moves lose it
HANGING = "r2qk2r/ppp2ppp/4p3/1Q6/8/5N2/PP2KPPP/RNB2B1R b kq - 0 11"


def _king_en_prise_after(state: object, move: str) -> bool:
    board = state.board.copy(stack=False)  # type: ignore[attr-defined]
    board.push(chess.Move.from_uci(move))
    return king_capture(board) is not None


def test_the_decisive_move_is_the_king_capture() -> None:
    dark = get_game("dark_chess")
    evaluator = evaluator_for(dark)
    state = start("dark_chess", options={"fen": HANGING.replace(" b ", " w ")}).state
    assert str(evaluator.decisive(state, 0)) == "b5e8"  # type: ignore[attr-defined]
    promotion = start("dark_chess", options={"fen": "7k/6P1/8/8/8/8/8/K7 w - - 0 1"}).state
    assert str(evaluator.decisive(promotion, 0)) == "g7h8q"  # type: ignore[attr-defined]
    assert evaluator.decisive(start("dark_chess").state, 0) is None  # type: ignore[attr-defined]
    # a chess king is never en prise on its side's turn: the chess evaluator has none to play
    assert evaluator_for(get_game("chess")).decisive(state, 0) is None  # type: ignore[attr-defined]


@pytest.mark.parametrize("decisive", [True, False])
def test_a_move_that_hangs_the_king_is_worth_nothing(decisive: bool) -> None:
    """With decisive moves every pass through a reply that leaves the king en prise ends in
    its capture, so such a move is worth exactly 0 and is not chosen; without them (the
    deliberately broken search) the opponent's node explores other replies and those moves
    are worth about as much as the safe ones (the bot once gave its king away so)."""
    p = start("dark_chess", options={"fen": HANGING})
    search = UCT(p.game, evaluator_for(p.game), rollout_depth=2, decisive=decisive)
    root = search.run(
        1, p.legal(1), lambda: p.state, Deadline(60), random.Random(0), max_iterations=600
    )
    hanging = [t for t in root.children if _king_en_prise_after(p.state, t)]
    assert len(hanging) > 10
    worth = [root.children[t].w for t in hanging if root.children[t].n]
    if decisive:
        assert worth and all(w == 0 for w in worth)
        assert best_child(root) not in hanging
    else:
        assert any(w > 0 for w in worth)


def test_implicit_minimax_backups() -> None:
    """A node's minimax value is its best child's for the seat moving there (1 - it for the
    other seat), backed up from the bottom of the path; nodes never evaluated are skipped."""
    root, a, b = Node(-1), Node(0), Node(0)
    root.children = {"a": a, "b": b}
    replies = {"x": Node(1), "y": Node(1), "z": Node(1)}
    replies["x"].v, replies["y"].v = 0.2, 0.9  # "z" not evaluated yet
    a.children = replies
    a.v = 0.5  # its value when it was added: superseded by its children's
    backup_minimax([root, a, replies["x"]])
    assert a.v == pytest.approx(0.1)  # seat 1's best reply "y" leaves seat 0 with 0.1
    assert root.v is None and b.v is None


@pytest.mark.parametrize("minimax", [0.5, 0.0])
def test_a_refuted_move_is_not_chosen_with_minimax_backups(minimax: float) -> None:
    """Black's bishop to g4 attacks the queen, and the queen takes it: most White replies
    lose the queen, so the mean of a thin search likes the move; one refutation is enough
    for the minimax value. Without the backups (the broken version) the move is chosen."""
    game = get_game("dark_chess")
    fen = "rnbqkb1r/pp2pppp/2p5/3pP3/8/3B4/PPPP1PKP/RNBQ2NR b kq - 1 7"
    state = start("dark_chess", options={"fen": fen}).state
    legal = [str(m) for m in game.legal_moves(state, 1)]
    chosen = []
    for seed in range(3):
        search = UCT(game, evaluator_for(game, captures=1.0), rollout_depth=2, minimax=minimax)
        root = search.run(
            1, legal, lambda: state, Deadline(60.0), random.Random(seed), max_iterations=1200
        )
        chosen.append(best_child(root))
    assert ("c8g4" in chosen) == (minimax == 0.0)
