"""turn_rng seeds on first use and draws exactly what random.Random(seed) draws."""

from __future__ import annotations

import pickle
import random

import pytest

from server.engine import turn_rng


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
