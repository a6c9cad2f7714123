"""Random: any legal move, uniformly (seed 003's first bot; a baseline for the arena)."""

from __future__ import annotations

from .bot import Ask, SearchBot


class RandomBot(SearchBot):
    name = "random"

    def __init__(self, *, think_time: float = 0.0) -> None:
        self.think_time = think_time

    def answer(self, ask: Ask) -> str:
        return ask.pick(ask.legal)
