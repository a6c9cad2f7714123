"""Careful (seed 003): take a move that wins at once; else any move after which no reply of
the next seat wins at once; else any move at all.

"Wins" means the game ends with this seat alone in first place; "loses" that it ends with the
seat in last place (for two seats: the opponent wins). In a simultaneous turn a move wins if
it wins against every move of the others, and is unsafe if some move of theirs makes it
lose. For hidden information the check runs in one world sampled from the views.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from server.engine import Game

from .bot import Ask, Deadline, SearchBot, moves_by_text


def won(outcome: Any, seat: int) -> bool:
    return outcome is not None and outcome.winner == seat


def lost(outcome: Any, seat: int) -> bool:
    if outcome is None:
        return False
    scores = outcome.scores
    return scores[seat] == min(scores) and scores[seat] < max(scores)


def _joint(game: Game[Any, Any], state: Any, fixed: Mapping[int, Any]) -> list[dict[int, Any]]:
    """Every joint move of the acting seats that extends ``fixed``."""
    seats = sorted(game.to_act(state))
    choices = [[fixed[s]] if s in fixed else game.legal_moves(state, s) for s in seats]
    return [dict(zip(seats, combo, strict=True)) for combo in itertools.product(*choices)]


class CarefulBot(SearchBot):
    name = "careful"

    def __init__(self, *, think_time: float = 0.1, max_replies: int = 4000) -> None:
        self.think_time = think_time
        self.max_replies = max_replies

    def answer(self, ask: Ask) -> str:
        state = ask.world(seconds=0.3 * ask.deadline.left())
        wins, safe, unchecked = self.classify(
            ask.game, state, ask.seat, ask.legal, ask.rng, ask.deadline
        )
        if wins:
            return ask.pick(wins)
        return ask.pick(safe or unchecked)

    def classify(
        self,
        game: Game[Any, Any],
        state: Any,
        seat: int,
        legal: Sequence[str],
        rng: random.Random,
        deadline: Deadline | None = None,
    ) -> tuple[list[str], list[str], list[str]]:
        """(moves that win at once, moves that do not let a reply win at once, moves not
        examined before the deadline)."""
        wins: list[str] = []
        safe: list[str] = []
        unchecked: list[str] = []
        budget = self.max_replies
        items = list(moves_by_text(game, state, seat, legal).items())
        rng.shuffle(items)
        for text, move in items:
            if deadline is not None and deadline.expired():
                unchecked.append(text)
                continue
            results = []
            for joint in _joint(game, state, {seat: move}):
                results.append(game.play(state, joint, random.Random(rng.random()), check=False))
            if all(won(game.outcome(r), seat) for r in results):
                wins.append(text)
                continue
            if any(lost(game.outcome(r), seat) for r in results):
                continue
            ok = True
            for after in results:
                acting = game.to_act(after)
                if not acting or acting == {seat}:
                    continue
                for reply in _joint(game, after, {}):
                    budget -= 1
                    if budget < 0 or (deadline is not None and deadline.expired()):
                        break
                    child = game.play(after, reply, random.Random(rng.random()), check=False)
                    if lost(game.outcome(child), seat):
                        ok = False
                        break
                if not ok:
                    break
            if ok:
                safe.append(text)
        return wins, safe, unchecked
