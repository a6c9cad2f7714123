"""Max^n (seed 004) for Hase und Igel: value vectors, best-N cut-offs, sampled hare cards."""

from __future__ import annotations

import random

from server.bots import make_bot
from server.bots.bot import Deadline
from server.bots.evaluator import HookEvaluator, evaluator_for
from server.bots.maxn import MaxN, better_for
from server.engine import get_game
from server.engine.hase_und_igel import Runner, position

from .play import Played, random_game

GAME = get_game("hase_und_igel")


def played(state: object, seats: int) -> Played:
    return Played(GAME, state, [[GAME.view(state, s)] for s in range(seats)])


def test_vectors_pick_by_own_component_then_lead() -> None:
    assert better_for([5, 1, 1], [4, 0, 0], 0)
    assert better_for([5, 1, 1], [5, 3, 3], 0)  # same for me: the bigger lead
    assert not better_for([1, 9, 0], [2, 0, 0], 0)


def test_best_n_limits_the_tree() -> None:
    p = random_game("hase_und_igel", 1, 6, seats=3)
    seat = min(GAME.to_act(p.state))
    state = GAME.determinize(p.views[seat], seat, random.Random(0))
    ev = evaluator_for(GAME)
    assert isinstance(ev, HookEvaluator)
    moves = {str(m): m for m in GAME.legal_moves(state, seat)}
    full = MaxN(GAME, ev, (0,), None, random.Random(0))
    full.root(state, seat, moves, 3)
    cut = MaxN(GAME, ev, (0, 2), None, random.Random(0))
    cut.root(state, seat, moves, 3)
    assert cut.nodes < full.nodes


def test_finishes_when_it_can() -> None:
    # seat 0 stands near the goal without salads and with few carrots: it should run home
    runners = [Runner(60, 15, 0), Runner(10, 60, 3), Runner(12, 60, 3)]
    state = position(runners, deck=["refund"] * 12)
    p = played(state, 3)
    legal = p.legal(0)
    goal = [m for m in legal if m.startswith("advance") and 60 + int(m.split()[1]) == 64]
    assert goal, legal
    move = make_bot("hase_und_igel", "maxn").choose(
        GAME, 0, p.views[0], legal, 0.5, random.Random(0)
    )
    assert move in goal


def test_deck_orders_are_sampled_from_the_views() -> None:
    p = random_game("hase_und_igel", 3, 20, seats=3)
    seat = min(GAME.to_act(p.state))
    decks = {GAME.determinize(p.views[seat], seat, random.Random(i)).deck for i in range(6)}
    assert len(decks) > 1


def test_iterative_deepening_under_a_deadline() -> None:
    p = random_game("hase_und_igel", 5, 15, seats=4)
    seat = min(GAME.to_act(p.state))
    bot = make_bot("hase_und_igel", "maxn")
    assert bot.choose(GAME, seat, p.views[seat], p.legal(seat), 0.3, random.Random(0)) in p.legal(
        seat
    )
    assert bot.depth >= 1  # type: ignore[attr-defined]
    assert Deadline(1).left() > 0
