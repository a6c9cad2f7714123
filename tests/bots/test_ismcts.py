"""Information-set MCTS: searches many worlds sampled from the views, deterministically for a
given rng and iteration count."""

from __future__ import annotations

import random
from typing import Any

from server.bots import make_bot
from server.bots.ismcts import MEMORY, ISMCTSBot

from .play import random_game, start


def test_takes_a_visible_king() -> None:
    p = start("dark_chess", options={"fen": "k7/8/8/8/8/8/8/R3K3 w - - 0 1"})
    bot = make_bot("dark_chess", "ismcts", max_iterations=200, pool=4)
    assert bot.choose(p.game, 0, p.views[0], p.legal(0), 5.0, random.Random(0)) == "a1a8"


def test_uses_a_pool_of_worlds() -> None:
    p = random_game("banqi", 8, 10)
    seat = min(p.game.to_act(p.state))
    bot = make_bot("banqi", "ismcts", max_iterations=100, pool=8)
    assert isinstance(bot, ISMCTSBot)
    assert bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0)) in p.legal(
        seat
    )
    assert bot.worlds_used == 8 and bot.iterations == 100


def test_same_views_same_rng_same_move() -> None:
    p = random_game("dark_chess", 9, 14)
    seat = min(p.game.to_act(p.state))
    moves = {
        make_bot("dark_chess", "ismcts", max_iterations=80, pool=4).choose(
            p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(3)
        )
        for _ in range(2)
    }
    assert len(moves) == 1


class Recording(ISMCTSBot):
    """ISMCTS that notes the hints it is handed."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.hints: list[Any] = []

    def determinize(self, game, views, seat, rng, hint, seconds):  # type: ignore[no-untyped-def]
        self.hints.append(hint)
        return super().determinize(game, views, seat, rng, hint, seconds)


def test_remembers_its_worlds_for_the_same_history_only() -> None:
    bot = Recording(max_iterations=20, pool=3)
    p = random_game("dark_chess", 12, 10)
    seat = min(p.game.to_act(p.state))
    bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0))
    assert bot.hints == [None] * 3  # nothing remembered yet
    first = list(bot._memory.latest())
    # another room: a different history of views gets no hint from the first
    q = random_game("dark_chess", 13, 10)
    other = min(q.game.to_act(q.state))
    bot.hints.clear()
    bot.choose(q.game, other, q.views[other], q.legal(other), 5.0, random.Random(0))
    assert bot.hints == [None] * 3
    # the next turn of the first room (its history extended) is handed the first worlds
    p.play({seat: p.legal(seat)[0]})
    while min(p.game.to_act(p.state)) != seat:
        mover = min(p.game.to_act(p.state))
        p.play({mover: p.legal(mover)[0]})
    bot.hints.clear()
    bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0))
    assert bot.hints == first
    # a subclass with its own worlds (the cheating twin) is not given the particle filter
    assert bot.worlds_kept == 0


def test_memory_is_bounded() -> None:
    bot = Recording(max_iterations=2, pool=1)
    for seed in range(MEMORY + 5):
        p = random_game("banqi", seed, 4)
        seat = min(p.game.to_act(p.state))
        bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0))
    assert len(bot._memory) == MEMORY
