"""Alpha-beta: iterative deepening negamax for two-seat, turn-based, full-information games.

The search (:class:`AlphaBeta`) runs on a :class:`Position` — push/pop on one mutable position
with an evaluation kept up to date — and knows nothing of any game. It has what makes a
Python searcher play decently (seed 000's "alpha-beta with a time frame", seed 004's move
sorting):

* iterative deepening under a deadline, keeping the best move of the last finished depth (or a
  better one the unfinished depth has already proved);
* a transposition table (exact keys) giving the best move to try first and cut-offs;
* move ordering: table move, captures by MVV-LVA, two killer moves per ply, history counts;
* principal variation search, late move reductions, null-move pruning, check extension;
* quiescence search on captures with stand-pat and delta pruning;
* mate scores that prefer the fastest mate.

:class:`AlphaBetaBot` plays chess in C (:mod:`.compiled`: this search, step for step) and any
other two-seat turn-based game through :class:`GamePosition`. It stays in Python as the grid
games' search and, on a chess position kept in the tests, the C search's reference
(``tests/bots/chess_reference.py``).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any, Protocol

from .bot import Ask, Deadline, Memory, SearchBot
from .chess_eval import MATE
from .compiled import SEARCH, best_move, game_of, new_table
from .game_position import GamePosition

INF = 10 * MATE
EXACT, LOWER, UPPER = 0, 1, 2
_TIME_CHECK = 64  # nodes between clock reads (a few milliseconds: the search runs to its deadline)
_RFP_MARGIN = 120  # centipawns a ply: reverse futility pruning's margin
_FUTILITY = (0, 200, 400)  # frontier and pre-frontier futility margins, by depth
_LATE_MOVES = (0, 8, 12, 18)  # late move pruning: moves tried in full at depth 1, 2, 3
#: view histories whose transposition table a bot keeps for its next turn (a room and seat
#: each): with :data:`TABLE_KEEP` entries of ~350 bytes, or compiled 8 MB, ~35 MB a bot
TABLES = 4
#: entries a kept table holds at most (the shallowest searches go first; a 2 s search
#: stores ~5k: quiescence stores nothing)
TABLE_KEEP = 50_000

#: late move reductions by depth and move index (the usual ln(depth)·ln(index) shape)
_REDUCTIONS = [
    [int(0.75 + math.log(d) * math.log(i) / 2.25) if d and i else 0 for i in range(64)]
    for d in range(64)
]

Table = dict[Hashable, tuple[int, int, int, Any]]


class Position(Protocol):
    """What :class:`AlphaBeta` needs from a game position (scores for the side to move)."""

    def key(self) -> Hashable: ...
    def moves(self) -> list[Any]: ...
    def captures(self) -> list[Any]: ...
    def push(self, move: Any) -> None: ...
    def pop(self) -> None: ...
    def evaluate(self) -> int: ...
    def terminal(self, ply: int) -> int | None: ...
    def no_moves(self, ply: int) -> int: ...
    def is_capture(self, move: Any) -> bool: ...
    def capture_order(self, move: Any) -> int: ...
    def gain(self, move: Any) -> int: ...
    def losing(self, move: Any) -> bool: ...
    def in_check(self) -> bool: ...


class _Timeout(Exception):
    pass


@dataclasses.dataclass(slots=True)
class SearchResult:
    move: Any
    score: int
    depth: int
    nodes: int
    seconds: float


@dataclasses.dataclass(frozen=True, slots=True)
class Pruning:
    """What :class:`AlphaBeta` may skip, and how late it starts a new depth (the defaults
    are the plain search).

    ``prune``: quiescence skips the captures the position calls losing, and the search tries
    them after the killer moves. ``futility``: at depth 3 or less off the principal
    variation, stop when the static score is far above beta, and at depth 1 or 2 skip quiet
    moves when it is far below alpha. ``lmp``: at depth 3 or less off the principal
    variation, skip the quiet moves ordered late. ``next_depth``: no new depth starts after
    this share of the budget. ``deep_lmr``: late quiet moves are reduced by more the
    deeper the search and the later the move (:data:`_REDUCTIONS`, one ply less off the
    principal variation's window) instead of by one ply."""

    prune: bool = False
    futility: bool = False
    lmp: bool = False
    next_depth: float = 0.45
    deep_lmr: bool = False


class AlphaBeta:
    """One search. ``null_move``: allow null-move pruning (the position must accept ``None``
    as a pass in push). ``pruning``: see :class:`Pruning`. ``tt``: a transposition table to
    start from (an earlier search's of the same game: its keys are exact, so what it holds
    is true here too)."""

    def __init__(
        self,
        position: Position,
        *,
        null_move: bool = False,
        pruning: Pruning = Pruning(),
        tt: Table | None = None,
    ) -> None:
        self.pos = position
        self.null_move = null_move
        self.pruning = pruning
        self.tt: Table = {} if tt is None else tt
        self.killers: list[list[Any]] = [[None, None] for _ in range(128)]
        self.history: dict[Any, int] = {}
        self.nodes = 0
        self.deadline: Deadline | None = None

    # -- driver ------------------------------------------------------------------------------

    def search(
        self,
        root_moves: Sequence[Any],
        deadline: Deadline,
        *,
        max_depth: int = 64,
        min_depth: int = 1,
    ) -> SearchResult:
        """The best of ``root_moves`` found before ``deadline`` (depth ``min_depth`` is always
        finished, so keep it small)."""
        self.deadline = deadline
        started = time.perf_counter()
        moves = list(root_moves)
        best, best_score, done_depth = moves[0], -INF, 0
        for depth in range(1, max_depth + 1):
            if depth > min_depth and deadline.elapsed() > self.pruning.next_depth * deadline.budget:
                break  # the next depth would not finish
            try:
                move, score = self._root(moves, depth, enforce=depth > min_depth)
            except _Timeout:
                if self._partial is not None:
                    best, best_score = self._partial
                break
            best, best_score, done_depth = move, score, depth
            moves.remove(move)
            moves.insert(0, move)
            if abs(score) > MATE - 1000:
                break  # a forced mate either way: deeper search will not change it
        return SearchResult(best, best_score, done_depth, self.nodes, time.perf_counter() - started)

    def _root(self, moves: list[Any], depth: int, *, enforce: bool) -> tuple[Any, int]:
        self._enforce = enforce
        self._partial: tuple[Any, int] | None = None
        pos = self.pos
        alpha, beta = -INF, INF
        best = moves[0]
        for i, move in enumerate(moves):
            pos.push(move)
            try:
                if i == 0:
                    score = -self._negamax(depth - 1, -beta, -alpha, 1, True)
                else:
                    score = -self._negamax(depth - 1, -alpha - 1, -alpha, 1, True)
                    if score > alpha:
                        score = -self._negamax(depth - 1, -beta, -alpha, 1, True)
            finally:
                pos.pop()
            if score > alpha or i == 0:
                alpha, best = score, move
                if i > 0 or depth > 1:
                    self._partial = (best, alpha)
        self.tt[pos.key()] = (depth, EXACT, alpha, best)
        return best, alpha

    # -- the tree ------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self._enforce and self.nodes % _TIME_CHECK == 0:
            assert self.deadline is not None
            if self.deadline.expired():
                raise _Timeout

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int, allow_null: bool) -> int:
        self._tick()
        pos = self.pos
        decided = pos.terminal(ply)
        if decided is not None:
            return decided
        key = pos.key()
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, flag, score, tt_move = entry
            if e_depth >= depth:
                score = _from_tt(score, ply)
                if flag == EXACT:
                    return score
                if flag == LOWER and score >= beta:
                    return score
                if flag == UPPER and score <= alpha:
                    return score
        in_check = pos.in_check()
        if in_check:
            depth += 1
        if depth <= 0:
            return self._quiesce(alpha, beta, ply)
        # the table's move for this very position (keys are exact: it is legal here) is
        # searched before the others are generated: when it cuts off, they never are
        moves: list[Any] | None = None
        if tt_move is None:
            moves = pos.moves()
            if not moves:
                return pos.no_moves(ply)

        futile = False  # quiet moves here cannot lift the score to alpha
        if self.pruning.futility and not in_check and depth <= 3 and beta - alpha == 1:
            static = pos.evaluate()
            if abs(beta) < MATE - 1000 and static - _RFP_MARGIN * depth >= beta:
                return static  # reverse futility: far enough above beta to stop here
            futile = depth <= 2 and static + _FUTILITY[depth] <= alpha
        late = 1 << 30  # moves from this index on are tried only if they are not quiet
        if self.pruning.lmp and not in_check and depth <= 3 and beta - alpha == 1:
            late = _LATE_MOVES[depth]

        if (
            self.null_move
            and allow_null
            and not in_check
            and depth >= 3
            and beta < MATE - 1000
            and pos.evaluate() >= beta
        ):
            pos.push(None)
            try:
                score = -self._negamax(depth - 3, -beta, -beta + 1, ply + 1, False)
            finally:
                pos.pop()
            if score >= beta:
                return beta

        original_alpha = alpha
        best_score, best_move = -INF, tt_move
        for i, move in enumerate(self._staged(moves, tt_move, ply)):
            capture = pos.is_capture(move)
            pos.push(move)
            if ((futile and i > 0) or i >= late) and not capture and not pos.in_check():
                pos.pop()  # a quiet move too far below alpha, or too late in the order
                continue
            try:
                if i == 0:
                    score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, True)
                else:
                    reduce = 1 if (i >= 4 and depth >= 3 and not capture and not in_check) else 0
                    if reduce and self.pruning.deep_lmr:
                        reduce = _REDUCTIONS[min(depth, 63)][min(i, 63)] - (beta - alpha > 1)
                        reduce = max(1, min(reduce, depth - 2))
                    score = -self._negamax(depth - 1 - reduce, -alpha - 1, -alpha, ply + 1, True)
                    if score > alpha and (reduce or score < beta):
                        score = -self._negamax(depth - 1, -beta, -alpha, ply + 1, True)
            finally:
                pos.pop()
            if score > best_score:
                best_score, best_move = score, move
            if score > alpha:
                alpha = score
            if alpha >= beta:
                if not capture:
                    killers = self.killers[min(ply, 127)]
                    if killers[0] != move:
                        killers[1], killers[0] = killers[0], move
                    self.history[move] = self.history.get(move, 0) + depth * depth
                break
        flag = EXACT
        if best_score <= original_alpha:
            flag = UPPER
        elif best_score >= beta:
            flag = LOWER
        if len(self.tt) > 2_000_000:
            self.tt.clear()
        self.tt[key] = (depth, flag, _to_tt(best_score, ply), best_move)
        return best_score

    def _staged(self, moves: list[Any] | None, tt_move: Any, ply: int) -> Iterator[Any]:
        """The moves in search order: the table's move first, alone, and the others
        generated and ordered only once it is searched (and failed to cut off)."""
        if moves is not None:
            yield from self._order(moves, tt_move, ply)
            return
        yield tt_move
        rest = self._order(self.pos.moves(), tt_move, ply)
        yield from rest[1:] if rest and rest[0] == tt_move else rest

    def _order(self, moves: list[Any], tt_move: Any, ply: int) -> list[Any]:
        pos = self.pos
        killers = self.killers[min(ply, 127)]
        history = self.history
        prune = self.pruning.prune

        def rank(move: Any) -> int:
            if move == tt_move:
                return 10_000_000
            if pos.is_capture(move):
                if prune and pos.losing(move):
                    return 700_000 + pos.capture_order(move)  # after the killers
                return 1_000_000 + pos.capture_order(move)
            if move == killers[0]:
                return 900_000
            if move == killers[1]:
                return 800_000
            return history.get(move, 0)

        return sorted(moves, key=rank, reverse=True)

    def _quiesce(self, alpha: int, beta: int, ply: int) -> int:
        self._tick()
        pos = self.pos
        decided = pos.terminal(ply)
        if decided is not None:
            return decided
        stand = pos.evaluate()
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        captures = pos.captures()
        captures.sort(key=pos.capture_order, reverse=True)
        prune = self.pruning.prune
        for move in captures:
            if stand + pos.gain(move) + 200 < alpha:
                continue  # delta pruning: even winning it all does not reach alpha
            if prune and pos.losing(move):
                continue
            pos.push(move)
            try:
                score = -self._quiesce(-beta, -alpha, ply + 1)
            finally:
                pos.pop()
            if score >= beta:
                return score
            if score > alpha:
                alpha = score
        return alpha


def trimmed(table: Table, size: int = TABLE_KEEP) -> Table:
    """``table`` cut to at most ``size`` entries by dropping the shallowest searches first."""
    floor = 0
    while len(table) > size:
        floor += 1
        table = {key: entry for key, entry in table.items() if entry[0] >= floor}
    return table


def _to_tt(score: int, ply: int) -> int:
    if score > MATE - 1000:
        return score + ply
    if score < -MATE + 1000:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score > MATE - 1000:
        return score - ply
    if score < -MATE + 1000:
        return score + ply
    return score


# -- the bot -----------------------------------------------------------------------------------


class AlphaBetaBot(SearchBot):
    """Alpha-beta for two-seat turn-based full-information games: chess in C (:mod:`.compiled`,
    this search step for step on chess's own position), any other game in Python through
    :class:`GamePosition`.

    Args:
        think_time: the strength's usual budget in seconds.
        max_depth: a depth cap (weaker strengths, deterministic tests).
        prune, futility, lmp, next_depth, deep_lmr: the search's :class:`Pruning`. Chess's C
            search has the defaults built in (any ``next_depth``): other values are refused
            there (:class:`ValueError`).
        remember: start each turn from the transposition table of the seat's previous turn
            in the same game (found by its view history, so no other room's; see
            :class:`~server.bots.bot.Memory`).

    Without the compiled search (no C compiler, or ``KIBITZ_PURE_PYTHON=1``) chess is played
    by :data:`CHESS_FALLBACK` (MCTS on the chess evaluator) in the same think time: the
    Python chess search is a test reference only (``tests/bots/chess_reference.py``).

    The defaults are the measured best (docs/BOTS.md, "The ladder"); ``prune=0&futility=0&
    lmp=0&next_depth=0.45&deep_lmr=0&remember=0`` is the grid games' search as it was before
    them.
    """

    name = "alphabeta"

    def __init__(
        self,
        *,
        think_time: float = 1.0,
        max_depth: int = 64,
        prune: bool = True,
        next_depth: float = 0.95,
        futility: bool = True,
        lmp: bool = True,
        remember: bool = True,
        deep_lmr: bool = True,
    ) -> None:
        self.think_time = think_time
        self.max_depth = max_depth
        self.pruning = Pruning(
            prune=prune, futility=futility, lmp=lmp, next_depth=next_depth, deep_lmr=deep_lmr
        )
        self.last: SearchResult | None = None
        self.remember = remember
        #: the table each view history left (a dict, or the compiled search's bytearray)
        self._tables: Memory[Table | bytearray] = Memory(TABLES)
        #: chess's bot when the compiled search is missing (made on first use)
        self._fallback: SearchBot | None = None

    def answer(self, ask: Ask) -> str:
        if ask.game.name == "chess" and SEARCH is None:
            return self.fallback().answer(ask)
        state = ask.world()
        root = list(ask.moves(state).values())
        ask.rng.shuffle(root)  # ties between equal moves go to chance, not to list order
        game = None
        if ask.game.name == "chess":
            game = game_of(state.start_fen, state.moves)
            its_own = dataclasses.replace(C_PRUNING, next_depth=self.pruning.next_depth)
            if game is None or self.pruning != its_own:
                raise ValueError(
                    "chess searches in C, with its pruning built in: prune, futility, lmp "
                    "and deep_lmr cannot be switched off there"
                )
        table, digest = self._tables.recall(ask, take=True) if self.remember else (None, "")
        if game is not None:
            if not isinstance(table, bytearray):
                table = new_table()
            found = best_move(
                game, root, ask.deadline, self.pruning.next_depth, self.max_depth, table
            )
            self.last = SearchResult(*found)
        else:
            position = GamePosition(ask.game, state, ask.rng)
            tt = table if isinstance(table, dict) else None
            search = AlphaBeta(position, pruning=self.pruning, tt=tt)
            self.last = search.search(root, ask.deadline, max_depth=self.max_depth)
            table = trimmed(search.tt)
        if self.remember:
            self._tables.keep(ask, digest, table)
        return str(self.last.move)

    def fallback(self) -> SearchBot:
        """Chess's bot without the compiled search: :data:`CHESS_FALLBACK` in the same time."""
        if self._fallback is None:
            from .mcts import MCTSBot

            self._fallback = MCTSBot(think_time=self.think_time, **CHESS_FALLBACK)
        return self._fallback


#: the pruning the compiled chess search has built in (and any ``next_depth``)
C_PRUNING = Pruning(prune=True, futility=True, lmp=True, next_depth=0.95, deep_lmr=True)
#: chess's ``alphabeta`` without the compiled search: MCTS with chess's ``mcts`` options
#: (server/bots/__init__.py); the Python chess search is a test reference only
CHESS_FALLBACK: dict[str, Any] = {"rollout_depth": 6}
