"""Dark Chess worlds: true states consistent with everything one seat has seen.

This is the ``determinize`` hook of :class:`~server.engine.dark_chess.game.DarkChess` (docs/GAMES.md
2.2), the way a bot plays the fog honestly: it never sees the true board, only its own views,
and searches boards sampled from those views.

Two samplers, tried in this order:

1. **History** (:func:`.history.sample_history`): replays the game from the start position and
   picks an opponent move at every opponent turn such that the seat's view after it equals the
   view the seat really received (own moves are known: each view after one of our moves names
   it). Random choice order with chronological backtracking and a node budget. A world found
   this way reproduces *every* view of the history, not only the current one, and carries its
   real history (``moves``: repetition keys, castling rights, en-passant square, halfmove
   clock). Forward pruning: an opponent move must keep every enemy piece the seat will see
   later reachable in time (:class:`.observations.Sightings`), which avoids most dead ends.
2. **Placement** (:func:`.placement.sample_placement`): when the history sampler runs out of
   budget (or the history has gaps or a non-standard start), the hidden enemy pieces are placed
   on unseen squares of the current view, preferring squares near where each kind was last seen,
   and kept only if the resulting view equals the current view exactly. Its history is synthetic
   (``ply`` moves, null but for the seat's own last one), so repetition history before the
   current position is unknown.

Every world returned gives ``view(world, seat) == views[-1]``; ``tests/bots`` checks it over
many seeded games. Everything here depends only on the views and the ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import chess

from .history import sample_history
from .observations import NoWorld
from .placement import sample_placement
from .rules import DarkChessState

__all__ = ["NoWorld", "determinize", "sample_history", "sample_placement"]


# -- the hook ---------------------------------------------------------------------------------


def determinize(
    views: Sequence[Mapping[str, Any]],
    seat: int,
    rng: random.Random,
    *,
    hint: DarkChessState | None = None,
    max_nodes: int = 4000,
    max_seconds: float | None = None,
) -> DarkChessState:
    """A world for ``seat`` from its views: :func:`sample_history` (extending ``hint``, an
    earlier world of the same game, when given; at most ``max_nodes`` moves tried and
    ``max_seconds`` spent), else :func:`sample_placement`."""
    if not views:
        raise NoWorld("no view")
    moves: Sequence[chess.Move] = ()
    if hint is not None and all(hint.moves):  # a placed world's history is synthetic: no hint
        moves = hint.moves
    try:
        return sample_history(
            views, seat, rng, hint=moves, max_nodes=max_nodes, max_seconds=max_seconds
        )
    except NoWorld:
        return sample_placement(views, seat, rng)
