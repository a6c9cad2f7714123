"""The bot interface: named strengths, and every algorithm of every game answers with one of
the legal moves within its budget (+10 %)."""

from __future__ import annotations

import gc
import random
import time

import pytest

from server.bots import ALGORITHMS, STRENGTHS, algorithms, make_bot, strengths
from server.engine import get_game

from .play import random_game

BUDGET = 0.15
CASES = [(game, alg) for game in ALGORITHMS for alg in ALGORITHMS[game]]
PLIES = {"hase_und_igel": (0, 21), "apocalypse": (0, 9)}


def test_strengths_are_named_per_game() -> None:
    for game in ALGORITHMS:
        names = strengths(game)
        assert names[0] == "random" and "easy" in names and "hard" in names
        for name in names:
            bot = make_bot(game, name)
            assert bot.think_time >= 0
        assert set(algorithms(game)) >= {"random", "careful", "greedy"}
    assert STRENGTHS["chess"]["hard"][0] == "alphabeta"


def test_unknown_names_are_key_errors() -> None:
    with pytest.raises(KeyError):
        make_bot("chess", "grandmaster")
    with pytest.raises(KeyError):
        make_bot("go", "easy")
    with pytest.raises(KeyError):
        strengths("go")
    with pytest.raises(KeyError):
        make_bot("chess", "smmcts")  # not an algorithm for chess


@pytest.mark.parametrize(("game", "algorithm"), CASES)
def test_legal_moves_within_budget(game: str, algorithm: str) -> None:
    seats = 3 if game == "hase_und_igel" else get_game(game).min_seats  # Yonin Shogi: 4
    for i, plies in enumerate(PLIES.get(game, (1, 20))):
        p = random_game(game, 40 + i, plies, seats=seats)
        if p.game.outcome(p.state) is not None:
            continue
        search_evaluate = getattr(p.game, "search_evaluate", None)
        if search_evaluate is not None:  # Hase und Igel's race table is built once per
            search_evaluate(p.state, 0)  # process, not per move (docs/BOTS.md): not timed here
        for seat in sorted(p.game.to_act(p.state)):
            bot = make_bot(game, algorithm)
            legal = p.legal(seat)
            # the CPU this thread spent, not the wall clock: on a shared machine the
            # scheduler may hold the test back, never make a bot think more (a bot that
            # ignores its deadline still spends more than its budget of CPU)
            # (and a full collection of what earlier tests left in this process is theirs:
            # collected and frozen first, so the bot's collections walk its own objects)
            gc.collect()
            gc.freeze()
            try:
                started = time.thread_time()
                move = bot.choose(p.game, seat, p.views[seat], legal, BUDGET, random.Random(i))
                spent = time.thread_time() - started
            finally:
                gc.unfreeze()
            assert move in legal
            assert spent <= 1.1 * BUDGET, f"{game}/{algorithm}: {spent:.3f}s for {BUDGET}s"


def test_a_game_registered_later_gets_its_kinds_bots() -> None:
    """The bots' tables are read when asked: a game registered after ``server.bots`` was
    imported gets its kind's algorithms and strengths (rock-paper-scissors: simultaneous)."""
    from server.engine import REGISTRY

    from ..rps import RockPaperScissors

    class Late(RockPaperScissors):
        name = "rps_registered_late"

    game = Late()
    assert game.name not in REGISTRY
    with pytest.raises(KeyError):
        strengths(game.name)
    REGISTRY.add(game)
    try:
        assert game.name in ALGORITHMS and game.name in STRENGTHS
        assert strengths(game.name) == ["random", "easy", "normal", "hard"]
        assert "smmcts" in algorithms(game.name)
        assert make_bot(game.name, "hard").think_time == 1.0
    finally:
        del REGISTRY.games[game.name]
    assert game.name not in ALGORITHMS
