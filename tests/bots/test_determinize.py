"""The ``determinize`` hooks of the open games rebuild the true state from the views."""

from __future__ import annotations

import random

from server.engine import get_game

from .play import random_game


def test_chess_rebuilds_the_game_with_its_history() -> None:
    for seed in range(5):
        p = random_game("chess", seed, 30 + 10 * seed)
        game = p.game
        for seat in (0, 1):
            world = game.determinize(p.views[seat], seat, random.Random(0))
            assert world.moves == p.state.moves
            assert world.start_fen == p.state.start_fen
            assert game.view(world, seat) == p.views[seat][-1]
            assert game.outcome(world) == game.outcome(p.state)


def test_chess_from_the_last_view_alone() -> None:
    p = random_game("chess", 9, 20)
    world = get_game("chess").determinize(p.views[0][-1:], 0, random.Random(0))
    assert world.board.fen() == p.state.board.fen()


def test_apocalypse_rebuilds_the_state_between_turns() -> None:
    for seed in range(10):
        p = random_game("apocalypse", seed, 3 + 3 * seed)
        for seat in (0, 1):
            assert p.game.determinize(p.views[seat], seat, random.Random(0)) == p.state


def test_open_parts_of_banqi_and_hase_und_igel() -> None:
    for name, seats in (("banqi", 2), ("hase_und_igel", 3)):
        p = random_game(name, 4, 25, seats=seats)
        for seat in range(seats):
            world = p.game.determinize(p.views[seat], seat, random.Random(seat))
            assert p.game.view(world, seat) == p.views[seat][-1]
