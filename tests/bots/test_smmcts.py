"""Simultaneous-move search (decoupled UCT) for Apocalypse."""

from __future__ import annotations

import random

from server.bots import make_bot
from server.bots.bot import Deadline
from server.bots.evaluator import evaluator_for
from server.bots.smmcts import DecoupledUCT
from server.engine import get_game
from server.engine.apocalypse import position

from .play import Played, random_game

GAME = get_game("apocalypse")


def test_both_seats_keep_their_own_statistics() -> None:
    p = random_game("apocalypse", 1, 4)
    search = DecoupledUCT(GAME, evaluator_for(GAME))
    root = search.run(p.state, Deadline(5), random.Random(0), max_iterations=300)
    assert root.stats is not None and set(root.stats) == {0, 1}
    for seat, st in root.stats.items():
        assert sum(st.n) == 300
        assert sorted(map(str, st.moves)) == sorted(p.legal(seat))


def test_takes_the_last_horseman_when_it_cannot_escape() -> None:
    # Black's only horseman on e5 is walled in by its own footmen (d3, c4); d4xe5 wins
    # whatever Black seals; careful finds it too
    state = position("4n/2pP1/3p1/5/NN3")
    p = Played(GAME, state, [[GAME.view(state, s)] for s in range(2)])
    for seed in range(3):
        bot = make_bot("apocalypse", "smmcts", max_iterations=500)
        assert bot.choose(GAME, 0, p.views[0], p.legal(0), 10.0, random.Random(seed)) == "d4e5"
    assert (
        make_bot("apocalypse", "careful").choose(
            GAME, 0, p.views[0], p.legal(0), 1.0, random.Random(0)
        )
        == "d4e5"
    )


def test_plays_a_mixed_strategy_from_the_views_only() -> None:
    p = random_game("apocalypse", 3, 2)
    moves = {
        make_bot("apocalypse", "smmcts", max_iterations=200).choose(
            GAME, 0, p.views[0], p.legal(0), 5.0, random.Random(seed)
        )
        for seed in range(8)
    }
    assert moves <= set(p.legal(0))
