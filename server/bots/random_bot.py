"""Random: any legal move, uniformly (seed 003's first bot; a baseline for the arena)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from server.engine import Game

from .bot import Json


class RandomBot:
    name = "random"

    def __init__(self, *, think_time: float = 0.0) -> None:
        self.think_time = think_time

    def choose(
        self,
        game: Game[Any, Any],
        seat: int,
        views: Sequence[Json],
        legal: Sequence[str],
        budget: float,
        rng: random.Random,
    ) -> str:
        return rng.choice(list(legal))
