"""Best-Reply Search (server/bots/brs.py), an algorithm of Yonin Shogi: the others' strongest
reply comes from whichever seat has it, played out of turn; the search keeps to its budget.

How strong it is, is measured in docs/results/yonin_shogi_brs_ladder.txt, not here.
"""

from __future__ import annotations

import random

from server.bots import make_bot
from server.bots.brs import BestReply, BestReplyBot
from server.bots.yonin_eval import YoninEvaluator
from server.engine import get_game
from server.engine.yonin_shogi import position

GAME = get_game("yonin_shogi")
KINGS = "SK e1, WK a5, NK e9, EK i5"


def choose(layout: str, seat: int = 0, budget: float = 2.0, **options: object) -> str:
    state = position(layout, to_move=seat)
    legal = [str(m) for m in GAME.legal_moves(state, seat)]
    bot = make_bot("yonin_shogi", "brs", **options)
    return bot.choose(GAME, seat, [GAME.view(state, seat)], legal, budget, random.Random(0))


def test_brs_is_an_algorithm_of_yonin_shogi() -> None:
    assert isinstance(make_bot("yonin_shogi", "brs"), BestReplyBot)


def test_takes_a_king_when_it_can() -> None:
    assert choose(KINGS + ", SR a3, WG b5") == "a3xa5"  # South's Rook reaches West's King


def test_the_reply_comes_from_any_seat_out_of_turn() -> None:
    # East (the last seat in turn order after South) has a Rook on a2 that reaches South's
    # Gold on b2 ... nothing but the Gold stands between it and South's King on e2's rank
    layout = KINGS.replace("SK e1", "SK e2") + ", SG c2, ER a2"
    state = position(layout, to_move=0)
    search = BestReply(GAME, YoninEvaluator(GAME), 0, 4, None, random.Random(0))
    moves = {str(m): m for m in GAME.legal_moves(state, 0)}
    _, _, values = search.root(state, moves, 2, None)
    # moving the Gold off rank 2 lets East's Rook take the King: BRS sees East's reply
    # although West and North move before East
    assert values["c2-c3"] < min(values["e2-e1"], values["c2-d2"])


def test_every_other_seat_replies_and_without_turn_to_only_the_next_would() -> None:
    state = position(KINGS + ", SG c2, ER a2, WG b5, NG e8", to_move=1)  # after South's move
    search = BestReply(GAME, YoninEvaluator(GAME), 0, 4, None, random.Random(0))
    replies = search.replies(state)
    assert {seat for seat, _, _ in replies} == {1, 2, 3}
    assert len(replies) == 3 * search.opponent_n
    assert [str(m) for s, _, m in replies[:2]] == ["a2xa5=+", "a2xa5"]  # East takes, first
    search.turn_to = None  # broken: a reply only in turn order (max^n's, one seat a ply)
    assert {seat for seat, _, _ in search.replies(state)} == {1}


def test_a_short_budget_still_gives_a_legal_move() -> None:
    layout = KINGS + ", SR a3, SG d1, SG f1, WG b4, NR e7, ER h5"
    state = position(layout, to_move=0)
    legal = [str(m) for m in GAME.legal_moves(state, 0)]
    assert choose(layout, budget=0.01) in legal
