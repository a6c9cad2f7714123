"""Simultaneous-move MCTS with decoupled UCT (Apocalypse's sealed turns, docs/GAMES.md 1.3).

In a simultaneous turn each seat picks without seeing the other's choice, so the tree keeps,
at every node, one table of statistics *per acting seat* over that seat's own moves only
(Lanctot et al., "Monte Carlo Tree Search for Simultaneous Move Games"): each seat selects by
UCB1 on its own table, the pair is joined by the game's join rule, and the child reached is
keyed by the joint move. Playouts draw both seats' moves by prior weight up to a depth limit,
then the evaluator scores the position.

The bot is given views only: the state it searches is rebuilt from the last view (the board,
the previous turn's moves for the ko), and the opponent's sealed move of the turn in progress
is not in any view, so it cannot be peeked at. The move played is drawn from the root's visit
counts (squared, among the moves with at least a quarter of the top count): a mixed strategy, as
simultaneous play wants, leaning hard on the best moves.
"""

from __future__ import annotations

import math
import random
from typing import Any

from server.engine import Game

from .bot import Ask, Deadline
from .evaluator import Evaluator
from .mcts import TreeSearch, TreeSearchBot, rollout, weighted_choice


class _Stats:
    __slots__ = ("moves", "n", "prior", "w")

    def __init__(self, moves: list[Any], priors: list[float]) -> None:
        self.moves = moves
        self.n = [0] * len(moves)
        self.w = [0.0] * len(moves)
        total = sum(priors) or 1.0
        self.prior = [p / total for p in priors]


class _SNode:
    __slots__ = ("children", "state", "stats", "terminal", "visits")

    def __init__(self, state: Any) -> None:
        self.state = state
        self.stats: dict[int, _Stats] | None = None
        self.children: dict[tuple[int, ...], _SNode] = {}
        self.visits = 0
        self.terminal: list[float] | None = None


class DecoupledUCT(TreeSearch):
    """The search; see the module docstring for the parameters' roles."""

    def __init__(
        self, game: Game[Any, Any], evaluator: Evaluator, *, rollout_depth: int = 8, **ucb: Any
    ) -> None:
        super().__init__(game, evaluator, rollout_depth=rollout_depth, **ucb)

    def run(
        self,
        state: Any,
        deadline: Deadline,
        rng: random.Random,
        *,
        max_iterations: int | None = None,
    ) -> _SNode:
        root = _SNode(state)
        self.loop(deadline, max_iterations, lambda: self._iterate(root, rng))
        return root

    def _expand(self, node: _SNode) -> None:
        game, state = self.game, node.state
        outcome = game.outcome(state)
        if outcome is not None:
            node.terminal = list(outcome.scores)
            return
        node.stats = {}
        for seat in sorted(game.to_act(state)):
            moves = game.legal_moves(state, seat)
            node.stats[seat] = _Stats(moves, [self.evaluator.prior(state, seat, m) for m in moves])

    def _iterate(self, root: _SNode, rng: random.Random) -> None:
        node, path = root, []
        while True:
            if node.stats is None and node.terminal is None:
                self._expand(node)
                if node.terminal is None and node is not root:
                    values = self._rollout(node.state, rng)  # a new leaf
                    break
            if node.terminal is not None:
                values = node.terminal
                break
            picks = self._select(node, rng)
            path.append((node, picks))
            node = self._child(node, picks, rng)
        for n, picks in path:
            n.visits += 1
            assert n.stats is not None
            for seat, i in picks.items():
                st = n.stats[seat]
                st.n[i] += 1
                st.w[i] += values[seat]

    def _select(self, node: _SNode, rng: random.Random) -> dict[int, int]:
        assert node.stats is not None
        picks = {}
        log_n = math.log(node.visits + 1)
        for seat, st in node.stats.items():
            best, best_score = 0, -math.inf
            for i in range(len(st.moves)):
                n = st.n[i]
                if n == 0:
                    score = 1e6 + st.prior[i] + 1e-3 * rng.random()
                else:
                    score = (
                        st.w[i] / n
                        + self.c * math.sqrt(log_n / n)
                        + self.bias * st.prior[i] / (n + 1)
                    )
                if score > best_score:
                    best, best_score = i, score
            picks[seat] = best
        return picks

    def _child(self, node: _SNode, picks: dict[int, int], rng: random.Random) -> _SNode:
        assert node.stats is not None
        key = tuple(picks[s] for s in sorted(picks))
        child = node.children.get(key)
        if child is None:
            joint = {s: node.stats[s].moves[i] for s, i in picks.items()}
            child = _SNode(self.game.play(node.state, joint, rng, check=False))
            node.children[key] = child
        return child

    def _rollout(self, state: Any, rng: random.Random) -> list[float]:
        return rollout(self.game, self.evaluator, state, rng, self.rollout_depth)


class SimultaneousBot(TreeSearchBot):
    """Decoupled UCT for simultaneous-move games (Apocalypse)."""

    name = "smmcts"

    def answer(self, ask: Ask) -> str:
        state = self.rebuilt(ask)
        search = DecoupledUCT(ask.game, self.evaluator_for(ask.game), **self.options)
        root = search.run(state, ask.deadline, ask.rng, max_iterations=self.max_iterations)
        self.iterations = search.iterations
        assert root.stats is not None
        st = root.stats.get(ask.seat)
        if st is None:
            return ask.pick(())
        texts = [str(m) for m in st.moves]
        top = max(st.n)
        options = [
            (t, n * n) for t, n in zip(texts, st.n, strict=True) if n * 4 >= top and t in ask.legal
        ]
        if not options:
            return ask.pick(())
        return weighted_choice([t for t, _ in options], [w for _, w in options], ask.rng)
