"""turn_rng seeds on first use and draws exactly what random.Random(seed) draws."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from server.engine import NO_DRAWS, REGISTRY, Game, turn_rng
from server.engine.chess_game import Chess


@pytest.mark.parametrize("ply", [0, 1, 57])
def test_lazy_rng_draws_like_a_seeded_random(ply: int) -> None:
    lazy, plain = turn_rng("seed", ply), random.Random(f"seed/{ply}")
    xs, ys = list(range(40)), list(range(40))
    lazy.shuffle(xs)
    plain.shuffle(ys)
    assert xs == ys
    assert [lazy.choice("abcdef") for _ in range(20)] == [plain.choice("abcdef") for _ in range(20)]
    assert lazy.gauss(0, 1) == plain.gauss(0, 1)
    assert lazy.getrandbits(99) == plain.getrandbits(99)
    assert pickle.loads(pickle.dumps(lazy)).random() == plain.random()
    other = turn_rng("seed", ply + 1)
    assert other.random() != turn_rng("seed", ply).random()  # a different turn, other draws


def _play_out(game: Game[Any, Any], seed: str, rng_of: Any, plies: int = 400) -> int:
    """A random game to its end (or ``plies``), each turn's rng from ``rng_of(ply)``; the
    moves are chosen by another rng. Returns the plies played."""
    state = game.new(game.check_options({}), game.min_seats, turn_rng(seed, 0))
    chooser = random.Random(seed)
    for ply in range(1, plies + 1):
        acting = sorted(game.to_act(state))
        if not acting:
            return ply - 1
        moves = {s: chooser.choice(game.legal_moves(state, s)) for s in acting}
        state = game.play(state, moves, rng_of(ply))
    return plies


def _plays_on_no_draws(game: Game[Any, Any]) -> None:
    """Whole random games (a Kamisado round may end in 10 plies): 30 plies at least, in all."""
    assert sum(_play_out(game, seed, lambda ply: NO_DRAWS) for seed in "abcde") > 30


@pytest.mark.parametrize("name", [g.name for g in REGISTRY if not g.play_draws])
def test_a_game_that_says_its_play_draws_nothing_plays_on_no_draws(name: str) -> None:
    """Rooms hand these games NO_DRAWS instead of a turn's rng: whole games go through."""
    _plays_on_no_draws(REGISTRY.get(name))


def test_no_draws_refuses_every_draw() -> None:
    for draw in (
        NO_DRAWS.random,
        lambda: NO_DRAWS.getrandbits(8),
        lambda: NO_DRAWS.choice([1, 2, 3]),
        lambda: NO_DRAWS.shuffle([1, 2, 3]),
        lambda: NO_DRAWS.randrange(10),
        lambda: NO_DRAWS.seed(1),
    ):
        with pytest.raises(RuntimeError, match="play_draws"):
            draw()


def test_a_game_whose_play_draws_is_caught_on_no_draws() -> None:
    """The check above can fail: chess made to draw at play (broken on purpose) with the
    flag still off stops with the error, so a wrong flag cannot go unnoticed."""

    class Drawing(Chess):
        def play(self, state: Any, moves: Any, rng: random.Random, *, check: bool = True) -> Any:
            rng.random()
            return super().play(state, moves, rng, check=check)

    assert not Drawing.play_draws
    with pytest.raises(RuntimeError, match="play_draws"):
        _plays_on_no_draws(Drawing())
