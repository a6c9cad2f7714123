"""ISMCTS keeps its Dark Chess worlds from one turn to the next (a particle filter,
``server/bots/particles.py``): the advanced worlds reproduce every view, come only from the
same room and seat's own earlier worlds, and leave the bot honest."""

from __future__ import annotations

import copy
import dataclasses
import random

import chess
import pytest

from server.bots import make_bot
from server.bots.ismcts import ISMCTSBot
from server.bots.particles import advance_worlds
from server.engine.dark_chess.rules import DarkBoard, advance, start

from .play import Played, capture_policy, random_game
from .play import start as start_game

DETERMINISTIC = {"max_iterations": 20, "pool": 8}


def to_move(p: Played) -> int:
    return 0 if p.state.board.turn == chess.WHITE else 1


def next_turn(p: Played, seat: int, rng: random.Random) -> bool:
    """Play on (seat's move and the opponent's, capturing often) until ``seat`` is to move
    again; ``False`` if the game ended."""
    while True:
        mover = to_move(p)
        p.play({mover: capture_policy(p, mover, rng)})
        if p.game.outcome(p.state) is not None:
            return False
        if to_move(p) == seat:
            return True


def replays_every_view(p: Played, seat: int, world: object) -> bool:
    """Whether replaying ``world``'s moves from the start shows ``seat`` its every view."""
    assert hasattr(world, "moves")
    state = start(DarkBoard(chess.STARTING_FEN), chess.STARTING_FEN, "openspiel")
    if p.game.view(state, seat) != p.views[seat][0]:
        return False
    for i, move in enumerate(world.moves, start=1):
        state = advance(state, move)
        if p.game.view(state, seat) != p.views[seat][i]:
            return False
    return True


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_advanced_worlds_reproduce_every_view(seed: int) -> None:
    rng = random.Random(seed)
    p = random_game("dark_chess", seed, 12, policy=capture_policy)
    seat = to_move(p)
    bot = make_bot("dark_chess", "ismcts", **DETERMINISTIC)
    assert isinstance(bot, ISMCTSBot)
    kept = 0
    for _ in range(8):
        if p.game.outcome(p.state) is not None:
            break
        bot.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(0))
        kept += bot.worlds_kept
        worlds = bot._memory.latest()
        assert len(worlds) == 8
        for world in worlds:
            assert p.game.view(world, seat) == p.views[seat][-1]
            if all(world.moves):  # not a placed world
                assert replays_every_view(p, seat, world)
        if not next_turn(p, seat, rng):
            break
    assert kept > 0


def test_a_world_that_contradicts_the_new_view_is_dropped() -> None:
    # White cannot see Black's first knight move; then the knight takes on e4 in sight
    p = start_game("dark_chess")
    for seat, text in ((0, "e2e4"), (1, "g8f6")):
        p.play({seat: text})
    base = start(DarkBoard(chess.STARTING_FEN), chess.STARTING_FEN, "openspiel")
    after_e4 = advance(base, chess.Move.from_uci("e2e4"))
    true = advance(after_e4, chess.Move.from_uci("g8f6"))
    other = advance(after_e4, chess.Move.from_uci("b8c6"))  # no knight can reach e4
    for world in (true, other):
        assert p.game.view(world, 0) == p.views[0][-1]
    for seat, text in ((0, "d2d3"), (1, "f6e4")):
        p.play({seat: text})
    kept, dropped = advance_worlds([true, other], p.views[0], 0, random.Random(0))
    assert dropped == []
    assert [c.board.fen() for c in kept] == [p.state.board.fen()]
    assert p.game.view(kept[0], 0) == p.views[0][-1]


def test_honest_with_remembered_worlds() -> None:
    """Two bots with the same memory (the same earlier turn, asked alike), each asked in
    one of two true states the seat cannot tell apart, the second built only after the
    first was asked: the same move, and the remembered worlds were used."""
    found = 0
    kept: list[int] = []
    for seed in range(4, 12):
        rng = random.Random(seed)
        p = random_game("dark_chess", seed, 10, policy=capture_policy)
        if p.game.outcome(p.state) is not None:
            continue
        seat = to_move(p)
        primed = make_bot("dark_chess", "ismcts", **DETERMINISTIC)
        primed.choose(p.game, seat, p.views[seat], p.legal(seat), 5.0, random.Random(1))
        p.play({seat: capture_policy(p, seat, rng)})
        if p.game.outcome(p.state) is not None:
            continue
        mover = to_move(p)
        by_view: dict[str, str] = {}
        pair = None
        for text in sorted(p.legal(mover)):
            twin = dataclasses.replace(p, views=[list(v) for v in p.views])
            twin.play({mover: text})
            if twin.game.outcome(twin.state) is not None:
                continue
            key = repr(twin.views[seat][-1])
            if key in by_view:
                pair = (by_view[key], text)
                break
            by_view[key] = text
        if pair is None:
            continue
        answers = []
        for text in pair:
            bot = copy.deepcopy(primed)
            q = dataclasses.replace(p, views=[list(v) for v in p.views])
            q.play({mover: text})
            answers.append(
                bot.choose(q.game, seat, q.views[seat], q.legal(seat), 5.0, random.Random(2))
            )
            assert isinstance(bot, ISMCTSBot)
            kept.append(bot.worlds_kept)
        assert answers[0] == answers[1]
        found += 1
    assert found >= 2 and max(kept) > 0
