"""Information-set MCTS (single observer): UCT over the seat's information set.

Every iteration starts from a world — a full state sampled by the game's ``determinize``
hook from the seat's views, so consistent with everything the seat has seen (Dark Chess: the
whole history of views; BanQi: the face-down pieces are some arrangement of the pieces not yet
seen) — and descends the shared open-loop tree of :mod:`server.bots.mcts`, whose statistics
count a move only in the iterations where it was legal (availability). The bot sees nothing
else: the same views and rng give the same move, whatever the true state (tests check it).

Worlds are drawn into a pool at the start of the search (up to ``pool`` of them, using at most
``pool_share`` of the budget) and the iterations cycle through the pool; a game whose
``determinize`` accepts ``hint=`` (Dark Chess) is handed the worlds of the bot's previous
turn, which makes extending them to the new views cheap.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from server.engine import Game

from .bot import Deadline, Json, world
from .evaluator import Evaluator, evaluator_for
from .mcts import UCT, best_child


class ISMCTSBot:
    name = "ismcts"

    def __init__(
        self,
        *,
        think_time: float = 1.0,
        pool: int = 32,
        pool_share: float = 0.3,
        max_iterations: int | None = None,
        evaluator: Evaluator | None = None,
        **uct: Any,
    ) -> None:
        self.think_time = think_time
        self.pool = pool
        self.pool_share = pool_share
        self.max_iterations = max_iterations
        self.evaluator = evaluator
        self.uct = uct
        self.iterations = 0
        self.worlds_used = 0
        # the worlds of the previous turn: ((game, seat, number of views, last view), worlds)
        self._memory: tuple[tuple[str, int, int, str], list[Any]] | None = None

    def determinize(
        self,
        game: Game[Any, Any],
        views: Sequence[Json],
        seat: int,
        rng: random.Random,
        hint: Any,
        seconds: float | None,
    ) -> Any:
        """One world (the cheating twin in ``server/tools/cheating.py`` overrides this)."""
        return world(game, views, seat, rng, seconds=seconds, hint=hint)

    def choose(
        self,
        game: Game[Any, Any],
        seat: int,
        views: Sequence[Json],
        legal: Sequence[str],
        budget: float,
        rng: random.Random,
    ) -> str:
        deadline = Deadline(budget)
        if len(legal) == 1:
            return legal[0]
        worlds = self._pool(game, views, seat, rng, deadline)
        self.worlds_used = len(worlds)
        turn = iter(range(1 << 62))

        def next_world() -> Any:
            return worlds[next(turn) % len(worlds)]

        search = UCT(game, self.evaluator or evaluator_for(game), **self.uct)
        root = search.run(
            seat, legal, next_world, deadline, rng, max_iterations=self.max_iterations
        )
        self.iterations = search.iterations
        move = best_child(root)
        return move if move in legal else rng.choice(list(legal))

    def _pool(
        self,
        game: Game[Any, Any],
        views: Sequence[Json],
        seat: int,
        rng: random.Random,
        deadline: Deadline,
    ) -> list[Any]:
        # the previous turn's worlds are hints only if they came from the same game: the
        # views they were sampled from must begin the views we have now
        hints: list[Any] = []
        if self._memory is not None:
            (name, old_seat, n, digest), old_worlds = self._memory
            if (
                name == game.name
                and old_seat == seat
                and 0 < n <= len(views)
                and digest == _digest(views[n - 1])
            ):
                hints = old_worlds
        share = deadline.fraction(self.pool_share)
        worlds: list[Any] = []
        for i in range(self.pool):
            if worlds and (share.expired() if self.max_iterations is None else False):
                break
            hint = hints[i] if i < len(hints) else None
            seconds = share.left() if self.max_iterations is None else None
            if seconds is not None and not worlds:
                seconds = max(seconds, 0.5 * deadline.left())
            worlds.append(self.determinize(game, views, seat, rng, hint, seconds))
        self._memory = ((game.name, seat, len(views), _digest(views[-1])), worlds)
        return worlds


def _digest(view: Json) -> str:
    return json.dumps(view, sort_keys=True)
