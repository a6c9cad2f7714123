"""Best-Reply Search for three or more seats (Schadd & Winands, "Best Reply Search for
Multiplayer Games", IEEE TCIAIG 3(1), 2011).

Max^n (:mod:`.maxn`) lets every seat play its own best move in turn order, so a search of a
few plies sees its own seat move once: it does not build an attack of two moves, and it
cannot prune. Best-Reply Search turns the game into two sides: the searching seat (MAX)
against all the others taken together (MIN). At a MIN node *every* other seat's moves from
the position are candidates, and only the one reply that is worst for MAX is played; then
MAX moves again. MAX moves on every other ply, so at the same depth the search sees its own
plans twice as often; the others' strongest threat, from whichever seat, is always
answered; and the tree is a two-player one, so alpha-beta cuts it.

The price is positions that cannot arise (the other seats skip turns, and a reply is played
out of turn): a game whose rules let a seat move out of turn at all gives the evaluator a
``turn_to(state, seat)`` method — the position with ``seat`` to move — and the search uses
it. Scores are MAX's component of the evaluator's vectors (``leaf``, ``final``), so its
utilities (Yonin Shogi's: winning the King first, :mod:`.yonin_eval`) carry over.

Move ordering: the evaluator's ``heuristic`` (King captures, escapes, threats, captures),
the previous iteration's best root move first; at MIN nodes each seat's ``opponent_n`` best
moves at most, the seats' candidates merged by the same score. Iterative deepening from 2
plies, keeping the last depth finished within the deadline.
"""

from __future__ import annotations

import random
from typing import Any

from server.engine import Game

from .bot import Ask, Deadline, SearchBot
from .evaluator import HookEvaluator

INFINITY = float("inf")
DISCOUNT = 0.999  # per ply: the same value sooner is better (a win now beats a win later)


class _Timeout(Exception):
    pass


class BestReply:
    """One Best-Reply Search for ``root_seat`` (module docstring)."""

    def __init__(
        self,
        game: Game[Any, Any],
        evaluator: HookEvaluator,
        root_seat: int,
        n_seats: int,
        deadline: Deadline | None,
        rng: random.Random,
        opponent_n: int = 4,
    ) -> None:
        self.game = game
        self.evaluator = evaluator
        self.root_seat = root_seat
        self.others = [s for s in range(n_seats) if s != root_seat]
        self.deadline = deadline
        self.rng = rng
        self.opponent_n = opponent_n
        self.turn_to = getattr(evaluator, "turn_to", None)
        self.nodes = 0
        #: the best root move so far at the depth being searched (its first move: the
        #: previous depth's choice, so a cut-short search still has a sound one)
        self.best: str | None = None

    def _tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes % 32 == 0 and self.deadline.expired():
            raise _Timeout

    def _terminal(self, state: Any, depth: int) -> float | None:
        outcome = self.game.outcome(state)
        if outcome is not None:
            final = getattr(self.evaluator, "final", None)
            vector = final(outcome) if final is not None else outcome.scores
            return float(vector[self.root_seat])
        if depth <= 0:
            return float(self.evaluator.leaf(state, 0)[self.root_seat])
        return None

    def _ordered(self, state: Any, seat: int, moves: Any, limit: int = 0) -> list[Any]:
        heuristic = self.evaluator.heuristic
        scored = sorted(
            ((heuristic(state, seat, m), i, m) for i, m in enumerate(moves)),
            key=lambda x: (-x[0], x[1]),
        )
        return scored[:limit] if limit else scored

    def _as(self, state: Any, seat: int) -> Any:
        """The position with ``seat`` to move (itself when it already is)."""
        if seat in self.game.to_act(state) or self.turn_to is None:
            return state
        return self.turn_to(state, seat)

    def root(self, state: Any, moves: dict[str, Any], depth: int, first: str | None) -> Any:
        """``(best text, value, values by text)`` at ``depth`` plies; ``first`` is searched
        first (the previous iteration's choice)."""
        seat = self.root_seat
        texts = {id(m): t for t, m in moves.items()}
        order = [m for _, _, m in self._ordered(state, seat, moves.values())]
        if first is not None and first in moves:
            order.remove(moves[first])
            order.insert(0, moves[first])
        alpha, values = -INFINITY, {}
        self.best = None
        for move in order:
            child = self.game.play(state, {seat: move}, self.rng, check=False)
            v = DISCOUNT * self._min(child, depth - 1, alpha, INFINITY)
            values[texts[id(move)]] = v
            if self.best is None or v > alpha:
                alpha, self.best = v, texts[id(move)]
        return self.best, alpha, values

    def replies(self, state: Any) -> list[tuple[int, Any, Any]]:
        """A MIN node's candidates, best-sorted: each other seat's ``opponent_n`` best moves
        from ``state`` as if it were that seat's turn, as ``(seat, position, move)``."""
        candidates = []
        for seat in self.others:
            position = self._as(state, seat)
            moves = self.game.legal_moves(position, seat)
            for score, i, move in self._ordered(position, seat, moves, self.opponent_n):
                candidates.append((score, seat, i, position, move))
        candidates.sort(key=lambda c: (-c[0], c[1], c[2]))
        return [(seat, position, move) for _, seat, _, position, move in candidates]

    def _max(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        self._tick()
        done = self._terminal(state, depth)
        if done is not None:
            return done
        seat = self.root_seat
        position = self._as(state, seat)
        moves = self.game.legal_moves(position, seat)
        if not moves:  # MAX cannot move here: the others go on
            return self._min(position, depth - 1, alpha, beta)
        best = -INFINITY
        for _, _, move in self._ordered(position, seat, moves):
            child = self.game.play(position, {seat: move}, self.rng, check=False)
            v = DISCOUNT * self._min(child, depth - 1, alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    def _min(self, state: Any, depth: int, alpha: float, beta: float) -> float:
        self._tick()
        done = self._terminal(state, depth)
        if done is not None:
            return done
        candidates = self.replies(state)
        if not candidates:  # nobody else can move: MAX again
            return self._max(state, depth - 1, alpha, beta)
        best = INFINITY
        for seat, position, move in candidates:
            child = self.game.play(position, {seat: move}, self.rng, check=False)
            v = DISCOUNT * self._max(child, depth - 1, alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best


class BestReplyBot(SearchBot):
    """Best-Reply Search with iterative deepening (module docstring).

    Args:
        think_time: the strength's usual budget in seconds.
        opponent_n: each other seat's best-sorted moves searched at a MIN node.
        max_depth: a depth cap (plies: MAX and MIN alternate).
        evaluator: builds the search's evaluator from the game; it gives ``leaf``,
            ``heuristic``, and optionally ``final(outcome)`` and ``turn_to(state, seat)``.
    """

    name = "brs"

    def __init__(
        self,
        *,
        think_time: float = 1.0,
        opponent_n: int = 4,
        max_depth: int = 12,
        evaluator: Any = None,
    ) -> None:
        self.think_time = think_time
        self.opponent_n = opponent_n
        self.max_depth = max_depth
        self.make_evaluator = evaluator
        self.depth = 0

    def answer(self, ask: Ask) -> str:
        game, seat, legal, deadline = ask.game, ask.seat, ask.legal, ask.deadline
        evaluator = self.make_evaluator(game) if self.make_evaluator else None
        assert isinstance(evaluator, HookEvaluator)
        state = ask.world()
        moves = ask.moves(state)
        n_seats = len(evaluator.leaf(state, 0))  # one component a seat
        best: str | None = None
        self.depth = 0
        for depth in range(2, self.max_depth + 1):
            if depth > 2 and deadline.elapsed() > 0.35 * deadline.budget:
                break  # the next depth would not finish: keep what we have
            search = BestReply(
                game,
                evaluator,
                seat,
                n_seats,
                deadline,
                random.Random(ask.rng.random()),
                self.opponent_n,
            )
            try:
                found, _, _ = search.root(state, moves, depth, best)
            except _Timeout:
                # cut short: the first depth keeps its best so far (its moves were searched
                # in the heuristic's order); a deeper one that only began is dropped
                if best is None:
                    best = search.best
                break
            best, self.depth = found, depth
        if best is None or best not in legal:
            return ask.pick(())
        return best
