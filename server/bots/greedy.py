"""Greedy one-ply: the move whose resulting position the evaluator likes best.

The evaluator (``server.bots.evaluator``) is the game's ``evaluate`` hook (or the chess
tables); ties go to the ``move_heuristic`` prior, then to chance. In a simultaneous turn a move
is worth its mean over the other seats' replies; with hidden information or chance the value
is averaged over ``worlds`` states sampled from the views (different face-down pieces,
different hare-card orders).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from server.engine import Game

from .bot import Ask, SearchBot
from .evaluator import Evaluator, evaluator_for


class GreedyBot(SearchBot):
    name = "greedy"

    def __init__(
        self, *, think_time: float = 0.1, worlds: int = 1, evaluator: Evaluator | None = None
    ) -> None:
        self.think_time = think_time
        self.worlds = worlds
        self.evaluator = evaluator

    def answer(self, ask: Ask) -> str:
        game, seat, legal, deadline, rng = ask.game, ask.seat, ask.legal, ask.deadline, ask.rng
        evaluator = self.evaluator or evaluator_for(game)
        totals = {text: 0.0 for text in legal}
        counts = {text: 0 for text in legal}
        for i in range(self.worlds):
            if i and deadline.elapsed() > 0.5 * deadline.budget:
                break
            state = ask.world(seconds=0.3 * deadline.left())
            moves = ask.moves(state)
            for text, move in moves.items():
                if counts[text] and deadline.expired():
                    break
                totals[text] += self.value(game, evaluator, state, seat, move, rng)
                counts[text] += 1
        means = {t: totals[t] / counts[t] for t in legal if counts[t]}
        best = max(means.values())
        top = [t for t in means if means[t] >= best - 1e-9]
        if len(top) > 1:
            moves = ask.moves(state, top)
            priors = {t: evaluator.prior(state, seat, moves[t]) for t in top}
            high = max(priors.values())
            top = [t for t in top if priors[t] >= high - 1e-9]
        return rng.choice(top)

    @staticmethod
    def value(
        game: Game[Any, Any],
        evaluator: Evaluator,
        state: Any,
        seat: int,
        move: Any,
        rng: random.Random,
    ) -> float:
        seats = sorted(game.to_act(state))
        choices = [[move] if s == seat else game.legal_moves(state, s) for s in seats]
        total = count = 0.0
        for combo in itertools.product(*choices):
            joint = dict(zip(seats, combo, strict=True))
            after = game.play(state, joint, random.Random(rng.random()), check=False)
            total += evaluator.values(after)[seat]
            count += 1
        return total / count
