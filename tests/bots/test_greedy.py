"""Greedy one-ply: the evaluator's favourite next position."""

from __future__ import annotations

import random

from server.bots import make_bot

from .play import random_game, start


def test_takes_a_free_queen() -> None:
    p = start("chess", options={"fen": "4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"})
    move = make_bot("chess", "greedy").choose(
        p.game, 0, p.views[0], p.legal(0), 0.5, random.Random(0)
    )
    assert move == "d1d5"


def test_takes_a_horseman_in_apocalypse_when_it_cannot_escape_badly() -> None:
    p = random_game("apocalypse", 2, 6)
    for seat in sorted(p.game.to_act(p.state)):
        move = make_bot("apocalypse", "greedy").choose(
            p.game, seat, p.views[seat], p.legal(seat), 0.5, random.Random(0)
        )
        assert move in p.legal(seat)


def test_averages_over_worlds_with_hidden_pieces() -> None:
    from server.bots.greedy import GreedyBot

    p = random_game("banqi", 5, 10)
    seat = min(p.game.to_act(p.state))
    bot = GreedyBot(worlds=6)
    assert bot.choose(p.game, seat, p.views[seat], p.legal(seat), 0.5, random.Random(0)) in p.legal(
        seat
    )
