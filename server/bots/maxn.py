"""Max^n for three or more seats (seed 004: "minimax for three"), with chance by sampling.

Every node carries a *vector* of values, one per seat (the game's ``evaluate`` hook, seed 004's
E = Ks*S + Kc*C + Kp*P for Hase und Igel); the seat to move picks the child whose vector is
best in its own component — seed 004's "absolute max", which its author found stronger than
"relative to the others" — and ties go to the better lead over the best other seat (his
suggested hybrid). Seed 004's other two devices:

* move sorting: the moves are sorted by the ``move_heuristic`` hook (which also carries the
  seed's "hare trap" pessimism) before they are searched;
* the per-depth "best N" vector: at depth ``d`` (0 = the root) only the ``best_n[d]`` best
  sorted moves are searched (0 = all; the last entry holds for every deeper level), e.g. the
  seed's ``(0, 0, 8, 8, 4)``.

Chance: the hare cards come from the hidden deck. Within the first ``chance_plies`` plies a
move that draws a card is a chance node: its vector is the mean over the cards of the deck,
each put on top in turn and weighted by its count (expectimax; the drawn card's order is not
known to the seat). Deeper draws use the order of the world searched: the bot samples
``worlds`` deck orders from its views (the game's ``determinize``) and adds the root vectors
of the searches up. Iterative deepening runs all worlds at one depth before the next and keeps
the last finished depth.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

from server.engine import Game

from .bot import Ask, Deadline, SearchBot
from .evaluator import HookEvaluator, evaluator_for

FINISH = 2000.0  # per place better than last, for a finished race
DISCOUNT = 0.999  # per ply: the same value sooner is better
EARLY = 5.0  # per ply left in the search, for a seat that finishes (``state.finished``) now


class SearchTimeout(Exception):
    """A search ran past its deadline (caught by its driver, which keeps its last depth)."""


class MaxN:
    """One max^n search in one world."""

    def __init__(
        self,
        game: Game[Any, Any],
        evaluator: HookEvaluator,
        best_n: Sequence[int],
        deadline: Deadline | None,
        rng: random.Random,
        better: Any = None,
        chance_plies: int = 2,
        opponent_n: int = 0,
        root_seat: int = -1,
    ) -> None:
        self.opponent_n = opponent_n
        self.root_seat = root_seat
        self.better = better or better_for
        self.chance_plies = chance_plies
        self.game = game
        self.evaluator = evaluator
        self.best_n = tuple(best_n) or (0,)
        self.deadline = deadline
        self.rng = rng
        self.nodes = 0

    def root(
        self, state: Any, seat: int, moves: dict[str, Any], depth: int
    ) -> dict[str, list[float]]:
        """The value vector of each root move at ``depth`` plies."""
        out = {}
        for text, move in self.sorted(state, seat, moves.items()):
            v = self.move_value(state, seat, move, depth, 0)
            out[text] = [x * DISCOUNT for x in v]
        return out

    def move_value(self, state: Any, seat: int, move: Any, depth: int, ply: int) -> list[float]:
        """The vector of ``move``: a chance node over the card it draws when it draws one
        within the first ``chance_plies`` plies, else the one future of this world."""
        game = self.game
        child = game.play(state, {seat: move}, self.rng, check=False)
        deck = getattr(state, "deck", None)
        if ply < self.chance_plies and deck and getattr(child, "deck", deck) != deck:
            total: list[float] | None = None
            counts: dict[Any, int] = {}
            for card in deck:
                counts[card] = counts.get(card, 0) + 1
            for card, k in counts.items():
                rest = list(deck)
                rest.remove(card)
                drawn = dataclasses.replace(state, deck=(card, *rest))
                c = game.play(drawn, {seat: move}, self.rng, check=False)
                v = self._early(state, c, self.value(c, depth - 1, ply + 1), depth)
                w = k / len(deck)
                total = (
                    [w * x for x in v]
                    if total is None
                    else [t + w * x for t, x in zip(total, v, strict=True)]
                )
            assert total is not None
            return total
        return self._early(state, child, self.value(child, depth - 1, ply + 1), depth)

    @staticmethod
    def _early(state: Any, child: Any, v: list[float], depth: int) -> list[float]:
        """A seat that finishes the race on this move (Hase und Igel's ``finished``) gets
        a bonus for the plies left: finishing now beats finishing at the horizon."""
        before, after = getattr(state, "finished", ()), getattr(child, "finished", ())
        if len(after) > len(before):
            v = list(v)
            for s in after[len(before) :]:
                v[s] += EARLY * depth
        return v

    def sorted(self, state: Any, seat: int, items: Any) -> list[Any]:
        scored = [
            (self.evaluator.heuristic(state, seat, m), i, (t, m)) for i, (t, m) in enumerate(items)
        ]
        scored.sort(key=lambda x: (-x[0], x[1]))
        return [x[2] for x in scored]

    def value(self, state: Any, depth: int, ply: int) -> list[float]:
        self.nodes += 1
        if self.deadline is not None and self.nodes % 64 == 0 and self.deadline.expired():
            raise SearchTimeout
        game = self.game
        outcome = game.outcome(state)
        if outcome is not None:
            final = getattr(self.evaluator, "final", None)
            if final is not None:  # the evaluator's own utilities (Yonin Shogi's)
                return list(final(outcome))
            n = len(outcome.ranks)
            return [FINISH * (n - r) for r in outcome.ranks]
        if depth <= 0:
            return self.evaluator.leaf(state, 0)
        seat = min(game.to_act(state))
        moves = game.legal_moves(state, seat)
        items = self.sorted(state, seat, (("", m) for m in moves))  # texts unused here
        n_best = self.best_n[min(ply, len(self.best_n) - 1)]
        if self.opponent_n and seat != self.root_seat:
            n_best = min(n_best, self.opponent_n) if n_best else self.opponent_n
        if n_best:
            items = items[:n_best]
        best: list[float] | None = None
        for _, move in items:
            v = self.move_value(state, seat, move, depth, ply)
            if best is None or self.better(v, best, seat):
                best = v
        assert best is not None
        return [x * DISCOUNT for x in best]


def _lead(v: Sequence[float], seat: int) -> float:
    return v[seat] - max((x for s, x in enumerate(v) if s != seat), default=0.0)


def better_for(a: Sequence[float], b: Sequence[float], seat: int) -> bool:
    """Seed 004's "absolute max": my component, then my lead over the best other."""
    if a[seat] != b[seat]:
        return a[seat] > b[seat]
    return _lead(a, seat) > _lead(b, seat)


def _better_relative(a: Sequence[float], b: Sequence[float], seat: int) -> bool:
    """Seed 004's "relative" choice: my lead over the best other, then my component."""
    la, lb = _lead(a, seat), _lead(b, seat)
    if la != lb:
        return la > lb
    return a[seat] > b[seat]


class MaxNBot(SearchBot):
    """Max^n with best-N cut-offs over ``worlds`` sampled deck orders (module docstring).

    Args:
        think_time: the strength's usual budget in seconds.
        best_n: seed 004's per-depth "best N" vector (0 = all moves).
        worlds: deck orders searched (their root vectors are added up).
        max_depth: a depth cap (plies).
        relative: 1 = choose the root move by lead over the best other seat (seed 004's
            "relative" contraction), 2 = everywhere in the tree; 0 = "absolute" (default).
        opponent_n: search only the ``opponent_n`` best-sorted moves of the other seats
            (0 = as ``best_n`` says), for deeper own plans.
        evaluator: builds the search's evaluator from the game (default: the game's hooks,
            :func:`~server.bots.evaluator.evaluator_for`); one with a ``final(outcome)``
            method scores finished games by it instead of by rank.
    """

    name = "maxn"

    def __init__(
        self,
        *,
        think_time: float = 1.0,
        best_n: Sequence[int] = (0, 0, 8, 8, 4),
        worlds: int = 4,
        max_depth: int = 12,
        relative: int = 0,
        opponent_n: int = 0,
        chance_plies: int = 2,
        evaluator: Callable[[Game[Any, Any]], HookEvaluator] | None = None,
    ) -> None:
        self.make_evaluator = evaluator
        self.chance_plies = chance_plies
        self.opponent_n = opponent_n
        self.better = _better_relative if relative else better_for
        self.relative = relative
        self.think_time = think_time
        self.best_n = tuple(best_n)
        self.worlds = worlds
        self.max_depth = max_depth
        self.depth = 0

    def answer(self, ask: Ask) -> str:
        game, seat, legal, deadline, rng = ask.game, ask.seat, ask.legal, ask.deadline, ask.rng
        evaluator = (self.make_evaluator or evaluator_for)(game)
        assert isinstance(evaluator, HookEvaluator)
        worlds = [ask.world() for _ in range(self.worlds)]
        seeds = [rng.random() for _ in worlds]
        best: dict[str, list[float]] | None = None
        self.depth = 0
        for depth in range(1, self.max_depth + 1):
            if depth > 1 and deadline.elapsed() > 0.3 * deadline.budget:
                break
            totals: dict[str, list[float]] = {}
            try:
                for state, s in zip(worlds, seeds, strict=True):
                    search = MaxN(
                        game,
                        evaluator,
                        self.best_n,
                        deadline if depth > 1 else None,
                        random.Random(s),
                        self.better if self.relative > 1 else better_for,
                        chance_plies=self.chance_plies,
                        opponent_n=self.opponent_n,
                        root_seat=seat,
                    )
                    moves = ask.moves(state)
                    for text, vector in search.root(state, seat, moves, depth).items():
                        acc = totals.setdefault(text, [0.0] * len(vector))
                        for i, v in enumerate(vector):
                            acc[i] += v
            except SearchTimeout:
                break
            best, self.depth = totals, depth
        assert best is not None
        top = None
        for text in legal:
            if text in best and (top is None or self.better(best[text], best[top], seat)):
                top = text
        return top if top is not None else ask.pick(())
