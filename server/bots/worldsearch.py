"""Dark Chess: alpha-beta in many sampled worlds, the moves weighed over them.

Where ISMCTS (:mod:`.ismcts`) spreads one noisy tree over its worlds, this bot searches each
world deeply and on its own, then votes: it draws a pool of worlds consistent with every view
the seat has had (the particle filter and sampler ISMCTS uses: :meth:`ISMCTSBot._pool`,
:mod:`.particles`, :mod:`server.engine.dark_chess.worlds`), searches every one of them with
a compiled alpha-beta by Dark Chess's rules (:mod:`.dark_search`: pseudo-legal moves, a king
that can be taken is taken), deepening over all of them together, and plays the move with
the best expected result: each root move's score in each world turned into a win chance
(a logistic of the centipawns, ``scale``; a king taken is 1, a king lost 0), averaged over
the worlds. A move that hangs the king in a third of the worlds is worth a third less; a
king in sight is taken at once (it is taken in every world).

The seat's own moves are the same in every world (what a piece can reach, the seat sees),
so each world scores the room's legal moves. Only the views, the bot's memory of its own
worlds for this view history and the rng go in (``tests/bots/test_honesty.py``).
"""

from __future__ import annotations

import math
from typing import Any

import chess

from server.engine.dark_chess.rules import DarkChessState

from .bot import Ask
from .dark_search import WIN, search
from .ismcts import ISMCTSBot


def chance(score: int, scale: float) -> float:
    """A score (centipawns, side to move; ±:data:`WIN` less the plies for a king taken)
    as a win chance: a king taken 1 (a millionth less a ply, so the sooner the better), a
    king lost 0 (a millionth more a ply: the later the better)."""
    if score >= WIN - 1000:
        return 1.0 - (WIN - score) * 1e-6
    if score <= -WIN + 1000:
        return (WIN + score) * 1e-6
    return 1.0 / (1.0 + math.exp(-score / scale))


class WorldSearchBot(ISMCTSBot):
    """Alpha-beta in each of ``pool`` sampled worlds (drawn in at most ``pool_share`` of the
    budget), moves voted by mean win chance. ``margin``: how far below a world's best a
    move's score is still searched exactly (centipawns); ``scale``: the logistic's;
    ``max_depth``: a cap on the depth (tests); ``compiled=0``: the Python search."""

    name = "worldsearch"

    def __init__(
        self,
        *,
        pool: int = 24,
        pool_share: float = 0.35,
        margin: int = 300,
        scale: float = 400.0,
        max_depth: int = 32,
        compiled: bool = True,
        **options: Any,
    ) -> None:
        options.setdefault("bounded_advance", True)
        super().__init__(pool=pool, pool_share=pool_share, **options)
        self.margin = int(margin)
        self.scale = float(scale)
        self.max_depth = int(max_depth)
        self.compiled = bool(compiled)
        self.depths: list[int] = []  # per world, the last search's (tests and benches read)
        self.nodes = 0
        self.values: dict[str, float] = {}  # the last search's mean win chance per move
        self.searched: list[DarkChessState] = []  # the last search's worlds

    def answer(self, ask: Ask) -> str:
        worlds = [w for w in self._pool(ask) if isinstance(w, DarkChessState)]
        worlds = [w for w in worlds if w.result is None]
        # a world replayed from the first move fits every view so far; a placed one (the
        # sampler's fallback, its history synthetic) only the last: searched only when
        # there is no other
        replayed = [w for w in worlds if all(w.moves)]
        worlds = replayed or worlds
        self.searched = worlds
        self.worlds_used = len(worlds)
        if not worlds:
            return ask.pick(())
        texts = list(ask.legal)
        root = [chess.Move.from_uci(t) for t in texts]
        scores, depths, nodes = search(
            [w.board for w in worlds],
            root,
            ask.deadline.left(),
            margin=self.margin,
            max_depth=self.max_depth,
            compiled=self.compiled,
        )
        self.depths, self.nodes = depths, nodes
        counted = [row for row, depth in zip(scores, depths, strict=True) if depth > 0]
        if not counted:
            return ask.pick(())
        values = {
            text: sum(chance(row[i], self.scale) for row in counted) / len(counted)
            for i, text in enumerate(texts)
        }
        self.values = values
        best = max(values.values())
        return ask.pick([t for t in texts if values[t] >= best - 1e-9])
