"""Information-set MCTS (single observer): UCT over the seat's information set.

Every iteration starts from a world — a full state sampled by the game's ``determinize``
hook from the seat's views, so consistent with everything the seat has seen (Dark Chess: the
whole history of views; BanQi: the face-down pieces are some arrangement of the pieces not yet
seen) — and descends the shared open-loop tree of :mod:`server.bots.mcts`, whose statistics
count a move only in the iterations where it was legal (availability). The bot sees nothing
else: the same views and rng give the same move, whatever the true state (tests check it).

Worlds are drawn into a pool at the start of the search (up to ``pool`` of them, using at most
``pool_share`` of the budget) and the iterations cycle through the pool; a game whose
``determinize`` accepts ``hint=`` (Dark Chess) is handed the worlds the bot sampled on its
previous turn *of the same view history* — found by a digest of every view, so only the same
room and seat can supply them — which makes extending them to the new views cheap.

Dark Chess goes further (:mod:`server.bots.particles`, a particle filter): each remembered
world is advanced by the moves since it — the seat's own, named by its view, and every
opponent move whose view is the one the seat received — and kept when one fits. Only the
worlds still missing are drawn by the game's sampler, handed the dropped ones as hints (it
replays the whole game for every world: tens of milliseconds a world late in a game, against
about a millisecond to advance one); the other fitting children fill the pool at the end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from server.engine import Game

from .bot import Ask, Json, Memory, world
from .mcts import UCT, Node, TreeSearchBot, best_child
from .particles import GAME as PARTICLES_GAME
from .particles import advance_worlds, likelihood

#: view histories whose worlds a bot remembers (one per room and seat it plays, at most)
MEMORY = 64


class ISMCTSBot(TreeSearchBot):
    """ISMCTS over a pool of worlds. ``pool``: how many worlds; ``pool_share``: the share of
    the budget their sampling may take."""

    name = "ismcts"

    def __init__(
        self,
        *,
        pool: int = 32,
        pool_share: float = 0.3,
        particles: bool = True,
        greed: float = 0.0,
        bounded_advance: bool = False,
        **options: Any,
    ) -> None:
        super().__init__(**options)
        self.pool = pool
        self.pool_share = pool_share
        self.particles = particles
        self.greed = greed
        # the particle filter's advance, too, kept to the pool's share of the budget (the
        # worlds not advanced by then go to the sampler as hints, which the share stops
        # too); ISMCTS advances them all (its figures were measured so)
        self.bounded_advance = bounded_advance
        self.worlds_used = 0
        self.worlds_kept = 0  # of them, remembered worlds advanced (Dark Chess)
        self.worlds_sampled = 0  # of them, drawn by the game's sampler
        #: the last search's root: each legal move's visits and summed value for the seat
        #: (the analysis of a finished game reads the seat's view of its moves from it)
        self.root: Node | None = None
        # the worlds sampled for a view history: a later turn of the same history (the same
        # room and seat, nothing else can have it) is handed them as hints, to extend them
        self._memory: Memory[list[Any]] = Memory(MEMORY)

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

    def answer(self, ask: Ask) -> str:
        worlds = self._pool(ask)
        self.worlds_used = len(worlds)
        order = self._schedule(ask, worlds)
        turn = iter(range(1 << 62))

        def next_world() -> Any:
            return order[next(turn) % len(order)]

        search = UCT(ask.game, self.evaluator_for(ask.game), **self.options)
        root = search.run(
            ask.seat,
            ask.legal,
            next_world,
            ask.deadline,
            ask.rng,
            max_iterations=self.max_iterations,
        )
        self.iterations = search.iterations
        self.root = root
        move = best_child(root)
        return move if move in ask.legal else ask.pick(())

    def _own_worlds(self) -> bool:
        """Whether the worlds are this class's, sampled from the views (a subclass with its
        own, such as the cheating twin, keeps to them: no advancing, no weighing)."""
        return type(self).determinize is ISMCTSBot.determinize

    def _schedule(self, ask: Ask, worlds: list[Any]) -> list[Any]:
        """The order the iterations visit the worlds in: each in turn, or (Dark Chess, its
        own worlds, ``greed`` > 0) as often as the opponent's last moves are likely in it
        (:func:`server.bots.particles.likelihood`; systematic resampling over 8 visits a
        world, so a world the opponent's moves make unlikely is hardly searched)."""
        if not (self.greed > 0 and self._own_worlds() and ask.game.name == PARTICLES_GAME):
            return worlds
        color = ask.seat == 0
        weights = [likelihood(w, color, self.greed) for w in worlds]
        total = sum(weights)
        if total <= 0.0:
            return worlds
        slots = 8 * len(worlds)
        step = total / slots
        mark = ask.rng.random() * step
        order: list[Any] = []
        acc = 0.0
        for w, weight in zip(worlds, weights, strict=True):
            acc += weight
            while mark < acc and len(order) < slots:
                order.append(w)
                mark += step
        return ask.rng.sample(order, len(order)) if order else worlds

    def _pool(self, ask: Ask) -> list[Any]:
        game, views, seat, deadline = ask.game, ask.views, ask.seat, ask.deadline
        # the worlds of the seat's previous turn of exactly these views
        found, digest = self._memory.recall(ask)
        hints: list[Any] = found or []
        share = deadline.fraction(self.pool_share)
        worlds: list[Any] = []
        spare: list[list[Any]] = []
        if hints and self.particles and self._own_worlds() and game.name == PARTICLES_GAME:
            # the remembered worlds advanced by the moves since (a particle filter): the
            # first child of each that fits the new views; those that fit none are handed
            # to the sampler to repair, and the other children fill what is left at the end
            dead: list[Any] = []
            timed = self.bounded_advance and self.max_iterations is None
            stop = share.start + share.budget if timed else None
            for parent, children in zip(
                hints, advance_worlds(hints, views, seat, ask.rng, stop), strict=True
            ):
                if children and len(worlds) < self.pool:
                    worlds.append(children[0])
                    spare.append(children[1:])
                elif not children:
                    dead.append(parent)
            hints = dead
        self.worlds_kept = len(worlds)
        for i in range(self.pool - len(worlds)):
            if worlds and (share.expired() if self.max_iterations is None else False):
                break
            hint = hints[i] if i < len(hints) else None
            seconds = share.left() if self.max_iterations is None else None
            if seconds is not None and not worlds:
                seconds = max(seconds, 0.5 * deadline.left())
            worlds.append(self.determinize(game, views, seat, ask.rng, hint, seconds))
        self.worlds_sampled = len(worlds) - self.worlds_kept
        for depth in range(max((len(c) for c in spare), default=0)):
            for children in spare:
                if len(worlds) < self.pool and depth < len(children):
                    worlds.append(children[depth])
        self._memory.keep(ask, digest, worlds)
        return worlds
