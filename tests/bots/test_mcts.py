"""MCTS/UCT (seed 003): heuristic weights, a depth limit, and the most visited move."""

from __future__ import annotations

import random

from server.bots import make_bot
from server.bots.bot import Deadline
from server.bots.evaluator import evaluator_for
from server.bots.mcts import UCT, Node, best_child, weighted_choice

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
