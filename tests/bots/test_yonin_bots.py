"""Yonin Shogi's search (server/bots/yonin_eval.py): who takes a King next, win-first
utilities, King exposure; each guard beside the plain max^n that misses it.

How strong the bot is, is measured in docs/results/yonin_shogi_top_vs_greedy.txt, not here.
"""

from __future__ import annotations

import random

from server.bots import make_bot
from server.bots.bot import Bot
from server.bots.maxn import MaxNBot
from server.bots.yonin_eval import (
    GOING,
    LOSS,
    MIDDLE,
    WIN,
    YoninEvaluator,
    exposure,
    going,
    resolve,
)
from server.engine import Outcome, get_game
from server.engine.yonin_shogi import parse_square, position

GAME = get_game("yonin_shogi")
KINGS = "SK e1, WK a5, NK e9, EK i5"


def choose(bot: Bot, layout: str, seat: int = 0) -> str:
    state = position(layout, to_move=seat)
    legal = [str(m) for m in GAME.legal_moves(state, seat)]
    return bot.choose(GAME, seat, [GAME.view(state, seat)], legal, 2.0, random.Random(0))


def one_ply(**options: object) -> Bot:
    """The game's max^n, one ply deep: what it sees is the leaf, nothing searched."""
    return make_bot("yonin_shogi", "maxn", max_depth=1, **options)


def plain_one_ply() -> Bot:
    """The same search on the game's hooks alone (rank utilities, material leaf)."""
    return MaxNBot(worlds=1, max_depth=1)


def test_the_first_seat_in_turn_to_reach_a_king_takes_it() -> None:
    # West's Rook reaches South's King along rank 1; North's Rook reaches West's King
    board = position(KINGS.replace("NK e9", "NK e9, WR a1, NR a9")).board
    assert resolve(board, 1) == (1, 0)  # West moves first: it takes
    # South to move: its own King is reached, so it steps away; West's King is reached by
    # North, but West moves before North and steps away too: no King falls
    assert resolve(board, 0) is None
    assert resolve(board, 2) == (2, 1)  # North first: it takes West's
    assert resolve(position(KINGS).board, 0) is None


def test_utilities_put_a_win_above_a_game_going_on_above_second_place() -> None:
    ev = YoninEvaluator(GAME)
    won = ev.final(Outcome.from_ranks((1, 2, 2, 4), "king_captured"))
    assert won == [WIN, MIDDLE, MIDDLE, LOSS]
    assert WIN > GOING > MIDDLE > LOSS
    assert going(position(KINGS)) == [GOING] * 4  # level material, Kings at home, unreached


def test_takes_a_king_when_it_can() -> None:
    layout = KINGS + ", SR a3, WG b5"  # South's Rook reaches West's King on a5
    assert choose(make_bot("yonin_shogi", "hard"), layout) == "a3xa5"


def test_does_not_open_a_line_to_its_own_king() -> None:
    # South's Gold on c1 blocks West's Rook on a1; taking North's Rook on c2 opens rank 1
    layout = KINGS + ", SG c1, NR c2"
    assert choose(one_ply(), layout) == "c1xc2"  # with nothing on a1 the Rook is free
    assert choose(one_ply(), layout + ", WR a1") != "c1xc2"


def test_plays_to_be_the_taker_not_to_come_second() -> None:
    # South's Gold on i7 blocks North's Rook on i9 from East's King on i5; taking West's
    # Rook on h8 would let North take that King: the game over with South second
    layout = KINGS + ", SG i7, WR h8, NR i9"
    assert choose(plain_one_ply(), layout) == "i7xh8"
    move = choose(one_ply(), layout)
    state = position(layout)
    after = GAME.play(state, {0: GAME.parse_move(state, 0, move)}, random.Random(0))
    assert resolve(after.board, after.to_move) is None, move  # no King falls this round


def test_a_reached_king_with_nowhere_to_go_is_worse_off() -> None:
    free = position(KINGS + ", WR a1")  # reached on rank 1, free to step up
    boxed = position(KINGS + ", WR a1, SP d2, SP e2, SP f2, NG e3")  # and the rank above held
    sq = parse_square("e1")
    assert exposure(position(KINGS).board, 0, sq) == 0.0
    assert 0 < exposure(free.board, 0, sq) < exposure(boxed.board, 0, sq)


def test_a_king_with_nowhere_to_step_is_taken_by_the_next_that_reaches_it() -> None:
    # South's King in the corner, reached by North's Rook down file a; East's Rook on file b
    # holds b1 and b2: South cannot step away, and North, two turns later, takes it
    stuck = KINGS.replace("SK e1", "SK a1").replace("WK a5", "WK e5") + ", NR a9, ER b9"
    assert resolve(position(stuck).board, 0) == (2, 0)
    free = stuck.replace(", ER b9", "")  # b1 and b2 free: it steps away
    assert resolve(position(free).board, 0) is None
