"""Evaluators: what a search asks about a position, kept apart from the search (OpenSpiel's
``Evaluator.evaluate`` / ``prior``).

* ``values(state)`` — one number per seat in [0, 1], higher is better, comparable to the game
  scores (1 win, 0.5 draw, 0 loss): the outcome's scores when the game is over, else the
  game's ``evaluate`` hook squashed by a logistic curve of the difference to the others.
* ``prior(state, seat, move)`` — a positive weight for a move (seed 003: moves are *chosen*
  with probability proportional to it, not merely sorted), from ``move_heuristic``;
* optionally ``moves(state, seat)`` — the acting seat's legal moves straight from the game's
  generator, for searches that have asked ``to_act`` already (``legal_moves`` asks again).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from server.engine import Game

from .scoring import squash


class Evaluator(Protocol):
    def values(self, state: Any) -> list[float]: ...

    def prior(self, state: Any, seat: int, move: Any) -> float: ...


class HookEvaluator:
    """The game's own hooks: ``evaluate(state, seat)`` and ``move_heuristic(state, seat, m)``.

    Args:
        game: the game.
        scale: the ``evaluate`` difference that makes a 73 % favourite (logistic(1)).
        prior_scale: ``move_heuristic`` units per doubling of a move's prior weight.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        *,
        scale: float = 1.0,
        prior_scale: float = 1.0,
        moves: Callable[[Any, int], list[Any]] | None = None,
    ):
        self.game = game
        self.scale = scale
        self.prior_scale = prior_scale
        self._evaluate = getattr(game, "evaluate", None)
        self._heuristic = getattr(game, "move_heuristic", None)
        self._search_evaluate = getattr(game, "search_evaluate", None)
        if moves is not None:
            self.moves = moves

    def values(self, state: Any) -> list[float]:
        outcome = self.game.outcome(state)
        if outcome is not None:
            return list(outcome.scores)
        if self._evaluate is None:
            n = self.game.min_seats
            return [0.5] * n
        return squash(self._evaluate(state, 0), self.scale)

    def raw(self, state: Any, seat: int) -> list[float]:
        """The unsquashed ``evaluate`` vector (zeros without the hook)."""
        if self._evaluate is None:
            return [0.0] * self.game.min_seats
        return list(self._evaluate(state, seat))

    def leaf(self, state: Any, seat: int) -> list[float]:
        """The vector a deep search scores its leaves by: the game's ``search_evaluate``
        hook when it has one (Hase und Igel: turns to finish), else :meth:`raw`."""
        if self._search_evaluate is None:
            return self.raw(state, seat)
        return list(self._search_evaluate(state, seat))

    def heuristic(self, state: Any, seat: int, move: Any) -> float:
        if self._heuristic is None:
            return 0.0
        return float(self._heuristic(state, seat, move))

    def prior(self, state: Any, seat: int, move: Any) -> float:
        h = self.heuristic(state, seat, move) / self.prior_scale
        return 2.0 ** max(-8.0, min(8.0, h))


#: per game: the ``evaluate`` scale and the ``move_heuristic`` scale of its HookEvaluator
#: (a game package may instead say them itself, as ``eval_scales`` on its class)
SCALES: dict[str, tuple[float, float]] = {
    "apocalypse": (2.0, 1.5),
    "banqi": (12.0, 4.0),
    "hase_und_igel": (40.0, 15.0),
}


def evaluator_for(game: Game[Any, Any], **options: Any) -> Evaluator:
    """The evaluator a search uses for ``game``: chess-like boards get the piece-square
    evaluator, other games their hooks."""
    if game.name in ("chess", "dark_chess"):
        from .chess_eval import ChessEvaluator

        return ChessEvaluator(game, **options)
    if game.name == "apocalypse":
        from .apocalypse_eval import ApocalypseEvaluator

        return ApocalypseEvaluator(game)
    scales: tuple[float, float] = getattr(game, "eval_scales", (1.0, 1.0))
    scale, prior_scale = SCALES.get(game.name, scales)
    moves = None
    if game.name == "banqi":
        from server.engine import banqi

        def moves(state: Any, seat: int) -> list[Any]:
            return banqi.generate(state)  # the seat to move's actions, as legal_moves

    return HookEvaluator(game, scale=scale, prior_scale=prior_scale, moves=moves)
