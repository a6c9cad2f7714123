"""MCTS/UCT with a depth limit and heuristic weights (seed 003), for turn-based games.

Seed 003's two changes to plain UCT are here: playouts stop at a depth limit (the evaluator
scores the position reached), and move heuristics act as *weights*: an untried move is picked
with probability proportional to its prior, playout moves are drawn the same way, and the
selection formula carries a progressive-bias term ``bias * prior / (visits + 1)`` that matters
while the statistics are thin and fades as they grow.

The tree is open-loop: a node is a sequence of moves from the root, and every iteration replays
them on a fresh state. Chance (BanQi flips, hare cards) is then sampled anew on every pass, and
:mod:`server.bots.ismcts` can start every pass from a different determinization. Statistics
use availability counts (a move is "available" in a pass when it is legal there), as
information-set MCTS needs, which reduces to parent visits when the tree is fixed.

:class:`MCTSBot` searches one state rebuilt from the views (for hidden information that is a
single sampled world: cheap, and good enough for the weak strengths).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from server.engine import Game

from .bot import Ask, Deadline, SearchBot
from .evaluator import Evaluator, evaluator_for

#: the options of :class:`TreeSearchBot` handed to the game's evaluator
EVALUATOR_OPTIONS = ("captures", "loose")


class TreeSearchBot(SearchBot):
    """A search over a tree of move sequences with an evaluator at its leaves (MCTS, ISMCTS,
    simultaneous MCTS). ``max_iterations`` (deterministic tests) replaces the deadline;
    ``options`` go to the search; ``iterations`` tells how many the last search ran."""

    def __init__(
        self,
        *,
        think_time: float = 1.0,
        max_iterations: int | None = None,
        evaluator: Evaluator | None = None,
        **options: Any,
    ) -> None:
        self.think_time = think_time
        self.max_iterations = max_iterations
        self.evaluator = evaluator
        # options of the game's evaluator (chess-like games: ``captures``, ``loose``); the
        # rest go to the search
        self.evaluator_options = {k: options.pop(k) for k in EVALUATOR_OPTIONS if k in options}
        self.options = options
        self.iterations = 0

    def evaluator_for(self, game: Game[Any, Any]) -> Evaluator:
        """The evaluator given, else the game's own."""
        return self.evaluator or evaluator_for(game, **self.evaluator_options)

    @staticmethod
    def rebuilt(ask: Ask) -> Any:
        """One state rebuilt from the views (a sample, for hidden information) in at most
        0.3 of the time left; the room's legal moves must parse in it."""
        state = ask.world(seconds=0.3 * ask.deadline.left())
        ask.moves(state)
        return state


class Node:
    """Statistics of one move sequence. ``w`` sums the values of ``seat`` (who moved here)."""

    __slots__ = ("avail", "children", "n", "prior", "seat", "v", "w")

    def __init__(self, seat: int, prior: float = 1.0) -> None:
        self.seat = seat
        self.n = 0
        self.w = 0.0
        self.avail = 0
        self.prior = prior
        self.children: dict[str, Node] = {}
        # the implicit minimax value for ``seat`` (UCT's ``minimax``), once evaluated
        self.v: float | None = None


def weighted_choice(items: Sequence[Any], weights: Sequence[float], rng: random.Random) -> Any:
    total = sum(weights)
    if total <= 0:
        return items[rng.randrange(len(items))]
    x = rng.random() * total
    for item, w in zip(items, weights, strict=True):
        x -= w
        if x <= 0:
            return item
    return items[-1]


class TreeSearch:
    """What the tree searches share (UCT here, decoupled UCT in :mod:`server.bots.smmcts`):
    the game, the evaluator (values at the depth limit, priors for moves), the exploration
    constant ``c``, the weight ``bias`` of the progressive-bias (prior) term, the playout
    depth, and the loop that iterates until the deadline (or ``max_iterations``)."""

    def __init__(
        self,
        game: Game[Any, Any],
        evaluator: Evaluator,
        *,
        c: float = 0.4,
        bias: float = 2.0,
        rollout_depth: int = 12,
    ) -> None:
        self.game = game
        self.evaluator = evaluator
        self.c = c
        self.bias = bias
        self.rollout_depth = rollout_depth
        self.iterations = 0

    def loop(
        self, deadline: Deadline, max_iterations: int | None, step: Callable[[], None]
    ) -> None:
        """Run ``step`` until the deadline, or ``max_iterations`` times (deterministic)."""
        while max_iterations is None or self.iterations < max_iterations:
            if max_iterations is None and self.iterations and deadline.expired():
                break
            step()
            self.iterations += 1


class UCT(TreeSearch):
    """The search. ``root_state`` gives the state each iteration starts from.

    Args (beside those of :class:`TreeSearch`):
        tree_depth: maximum depth of the tree (plies).
        decisive: play a move that wins on the spot whenever the evaluator names one (its
            ``decisive(state, seat)``; Dark Chess: a capture of the king), in the tree and
            in playouts ("decisive moves", Teytaud & Teytaud 2010), so a move that leaves the
            king en prise is worth exactly what it loses in every world where it does. Off by
            default: measured in Dark Chess, it changed how games were lost, not how many
            (docs/BOTS.md, "How strong").
        rollout_depth: playout plies after the tree before evaluating.
        prior_rollouts: draw playout moves by prior weight (else uniformly).
        widening: progressive widening: a node visited n times has at most
            ``1 + widening * sqrt(n)`` children, added in prior-weighted random order, so
            a strong reply (a capture of the king) is exploited before every quiet move
            has been tried once.
        minimax: the weight of implicit minimax backups (Lanctot, Winands, Pepels and
            Sturtevant 2014): every node also keeps the minimax of the evaluator's values
            over its subtree (a new node: the value of the state it was added in), and
            selection scores ``(1 - minimax) * mean + minimax * that``, so one reply that
            refutes a move counts before the mean of many visits shows it. 0: off.
    """

    def __init__(
        self,
        game: Game[Any, Any],
        evaluator: Evaluator,
        *,
        tree_depth: int = 40,
        prior_rollouts: bool = True,
        widening: float = 2.0,
        decisive: bool = False,
        minimax: float = 0.0,
        **search: Any,
    ) -> None:
        super().__init__(game, evaluator, **search)
        self.minimax = minimax
        self.tree_depth = tree_depth
        self.decisive = getattr(evaluator, "decisive", None) if decisive else None
        self.prior_rollouts = prior_rollouts
        self.widening = widening
        self.deadline: Deadline | None = None

    def run(
        self,
        root_seat: int,
        root_moves: Sequence[str],
        root_state: Callable[[], Any],
        deadline: Deadline,
        rng: random.Random,
        *,
        max_iterations: int | None = None,
    ) -> Node:
        """Iterate until the deadline (or ``max_iterations``); the root's children are the
        ``root_moves`` (texts)."""
        root = Node(-1)
        allowed = set(root_moves)
        self.deadline = deadline if max_iterations is None else None
        self.loop(
            deadline,
            max_iterations,
            lambda: self._iterate(root, root_state(), root_seat, allowed, rng),
        )
        return root

    def _iterate(
        self, root: Node, state: Any, root_seat: int, allowed: set[str], rng: random.Random
    ) -> None:
        game, evaluator = self.game, self.evaluator
        fast = getattr(evaluator, "moves", None)
        decisive = self.decisive
        node, path = root, [root]
        depth = 0
        values: list[float] | None = None
        while True:
            outcome = game.outcome(state)
            if outcome is not None:
                values = list(outcome.scores)
                if node is not root:
                    node.v = values[node.seat]
                break
            if depth and self.deadline is not None and self.deadline.expired():
                values = evaluator.values(state)
                break
            acting = game.to_act(state)
            seat = min(acting)
            win = decisive(state, seat) if decisive is not None else None
            if win is not None and (node is not root or str(win) in allowed):
                # a move that wins on the spot is played (decisive moves), so a reply that
                # loses at once is worth exactly that in every world where it does
                node, state = self._decide(node, state, seat, win, rng)
                path.append(node)
                continue
            moves = {
                str(m): m for m in (fast(state, seat) if fast else game.legal_moves(state, seat))
            }
            if node is root:
                moves = {t: m for t, m in moves.items() if t in allowed} or moves
            untried = [t for t in moves if t not in node.children]
            tried = 0
            for t in moves:
                child = node.children.get(t)
                if child is not None:
                    child.avail += 1
                    tried += 1
            visits = self.iterations if node is root else node.n
            widen = tried < 1 + int(self.widening * math.sqrt(visits))
            if (untried and (widen or not tried)) or depth >= self.tree_depth:
                if untried:
                    weights = [evaluator.prior(state, seat, moves[t]) for t in untried]
                    text = weighted_choice(untried, weights, rng)
                    child = Node(seat, weights[untried.index(text)])
                    child.avail = 1
                    node.children[text] = child
                    state = game.play(state, {seat: moves[text]}, rng, check=False)
                    path.append(child)
                    if self.minimax:
                        child.v = evaluator.values(state)[seat]
                break
            text = self._select(
                node, {t: m for t, m in moves.items() if t in node.children}, state, seat
            )
            node = node.children[text]
            path.append(node)
            state = game.play(state, {seat: moves[text]}, rng, check=False)
            depth += 1
        if values is None:
            values = self._rollout(state, rng)
        for n in path[1:]:
            n.n += 1
            n.w += values[n.seat]
        if self.minimax:
            backup_minimax(path)

    def _decide(
        self, node: Node, state: Any, seat: int, move: Any, rng: random.Random
    ) -> tuple[Node, Any]:
        """Play the decisive ``move`` at ``node``: its child (made if new) and the state."""
        text = str(move)
        child = node.children.get(text)
        if child is None:
            child = node.children[text] = Node(seat, self.evaluator.prior(state, seat, move))
        child.avail += 1
        return child, self.game.play(state, {seat: move}, rng, check=False)

    def _select(self, node: Node, moves: dict[str, Any], state: Any, seat: int) -> str:
        best, best_score = "", -math.inf
        total_prior = sum(node.children[t].prior for t in moves) or 1.0
        for t in moves:
            child = node.children[t]
            n = child.n or 1
            mean = child.w / n
            if self.minimax and child.v is not None:
                mean = (1.0 - self.minimax) * mean + self.minimax * child.v
            score = (
                mean
                + self.c * math.sqrt(math.log(max(child.avail, 1)) / n)
                + self.bias * (child.prior / total_prior) / (child.n + 1)
            )
            if score > best_score:
                best, best_score = t, score
        return best

    def _rollout(self, state: Any, rng: random.Random) -> list[float]:
        return rollout(
            self.game,
            self.evaluator,
            state,
            rng,
            self.rollout_depth,
            prior=self.prior_rollouts,
            deadline=self.deadline,
            decisive=self.decisive,
        )


def rollout(
    game: Game[Any, Any],
    evaluator: Evaluator,
    state: Any,
    rng: random.Random,
    depth: int,
    *,
    prior: bool = True,
    deadline: Deadline | None = None,
    decisive: Callable[[Any, int], Any] | None = None,
) -> list[float]:
    """Play up to ``depth`` turns from ``state`` (every acting seat draws a move by prior
    weight, or uniformly) and return the evaluator's values where the playout stops; a
    ``decisive`` move (one that wins on the spot) is played whenever there is one."""
    fast = getattr(evaluator, "moves", None)
    for _ in range(depth):
        acting = game.to_act(state)
        if not acting:
            break
        if deadline is not None and deadline.expired():
            break  # out of time: score the playout where it stands
        joint = {}
        for seat in sorted(acting):
            win = decisive(state, seat) if decisive is not None and len(acting) == 1 else None
            if win is not None:
                joint[seat] = win
                continue
            moves = fast(state, seat) if fast is not None else game.legal_moves(state, seat)
            if prior:
                weights = [evaluator.prior(state, seat, m) for m in moves]
                joint[seat] = weighted_choice(moves, weights, rng)
            else:
                joint[seat] = moves[rng.randrange(len(moves))]
        state = game.play(state, joint, rng, check=False)
    return evaluator.values(state)


def backup_minimax(path: Sequence[Node]) -> None:
    """Implicit minimax backups along ``path`` (root first), from the bottom up: a node's
    value is its best child's for the seat that moves there (two seats, values in [0, 1]:
    ``1 - best`` for the other seat)."""
    for node in reversed(path[1:]):
        best: float | None = None
        mover = node.seat
        for child in node.children.values():
            if child.v is not None and (best is None or child.v > best):
                best, mover = child.v, child.seat
        if best is not None:
            node.v = best if mover == node.seat else 1.0 - best


def best_child(root: Node) -> str:
    """The most visited root move (ties: the better mean)."""
    return max(root.children, key=lambda t: (root.children[t].n, root.children[t].w))


class MCTSBot(TreeSearchBot):
    """UCT on one state rebuilt from the views (see the module docstring)."""

    name = "mcts"

    def answer(self, ask: Ask) -> str:
        state = self.rebuilt(ask)
        search = UCT(ask.game, self.evaluator_for(ask.game), **self.options)
        root = search.run(
            ask.seat,
            ask.legal,
            lambda: state,
            ask.deadline,
            ask.rng,
            max_iterations=self.max_iterations,
        )
        self.iterations = search.iterations
        return best_child(root)
