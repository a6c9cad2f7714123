"""Information-set MCTS: searches many worlds sampled from the views, deterministically for a
given rng and iteration count."""

from __future__ import annotations

import random

from server.bots import make_bot
from server.bots.ismcts import ISMCTSBot

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


def test_remembers_its_worlds_between_turns() -> None:
    p = random_game("dark_chess", 12, 10)
    seat = min(p.game.to_act(p.state))
    bot = make_bot("dark_chess", "ismcts", max_iterations=20, pool=3)
    bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0))
    assert bot._memory is not None and len(bot._memory[1]) == 3  # type: ignore[attr-defined]
