"""Any two-seat turn-based game as a search position for :mod:`server.bots.alphabeta`.

:class:`GamePosition` wraps the engine contract (``legal_moves``, ``play``, ``outcome`` and
the optional ``evaluate`` and ``move_heuristic`` hooks) in the push/pop interface that
:class:`~server.bots.alphabeta.AlphaBeta` searches; chess is searched in C
(:mod:`server.bots.compiled`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable
from typing import Any

from server.engine import Game

from .chess_eval import MATE

INF = 10 * MATE


class GamePosition:
    """Any two-seat turn-based game as a :class:`Position`, through the engine contract.

    States are immutable, so push/pop keep a stack of states. The evaluation is the game's
    ``evaluate`` hook (mover minus opponent) times ``scale``; captures for quiescence are the
    moves whose ``move_heuristic`` exceeds ``tactical`` (none without the hook). Chance moves
    use the one ``rng`` given (the search sees one future).
    """

    def __init__(
        self,
        game: Game[Any, Any],
        state: Any,
        rng: random.Random,
        *,
        scale: float = 100.0,
        tactical: float = 0.5,
    ) -> None:
        self.game = game
        self.states = [state]
        acting = game.to_act(state)
        self.movers = [min(acting) if acting else 0]
        self.rng = rng
        self.scale = scale
        self.tactical = tactical
        self._evaluate = getattr(game, "evaluate", None)
        self._heuristic = getattr(game, "move_heuristic", None)

    def key(self) -> Hashable:
        return json.dumps(self.game.encode_state(self.states[-1]), sort_keys=True)

    def moves(self) -> list[Any]:
        return self.game.legal_moves(self.states[-1], self.movers[-1])

    def captures(self) -> list[Any]:
        if self._heuristic is None:
            return []
        state, mover = self.states[-1], self.movers[-1]
        return [m for m in self.moves() if self._heuristic(state, mover, m) > self.tactical]

    def push(self, move: Any) -> None:
        state, mover = self.states[-1], self.movers[-1]
        child = self.game.play(state, {mover: move}, self.rng, check=False)
        acting = self.game.to_act(child)
        self.states.append(child)
        self.movers.append(min(acting) if acting else 1 - mover)

    def pop(self) -> None:
        self.states.pop()
        self.movers.pop()

    def evaluate(self) -> int:
        if self._evaluate is None:
            return 0
        mover = self.movers[-1]
        e = self._evaluate(self.states[-1], mover)
        return int(self.scale * (e[mover] - max(v for s, v in enumerate(e) if s != mover)))

    def terminal(self, ply: int) -> int | None:
        outcome = self.game.outcome(self.states[-1])
        if outcome is None:
            return None
        score = outcome.scores[self.movers[-1]]
        if score > 0.5:
            return MATE - ply
        if score < 0.5:
            return -MATE + ply
        return 0

    def no_moves(self, ply: int) -> int:
        return 0

    def is_capture(self, move: Any) -> bool:
        if self._heuristic is None:
            return False
        return self._heuristic(self.states[-1], self.movers[-1], move) > self.tactical

    def capture_order(self, move: Any) -> int:
        if self._heuristic is None:
            return 0
        return int(100 * self._heuristic(self.states[-1], self.movers[-1], move))

    def gain(self, move: Any) -> int:
        return INF  # unknown: never delta-prune

    def losing(self, move: Any) -> bool:
        return False

    def in_check(self) -> bool:
        return False
