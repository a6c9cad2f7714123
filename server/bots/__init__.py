"""Bots: search algorithms over the engine contract that see only a seat's views.

``make_bot(game, strength)`` builds a bot; ``strengths(game)`` lists the named strengths a room
offers for a game (weakest first). A bot's ``choose(game, seat, views, legal, budget, rng)``
returns one of ``legal`` (see :mod:`server.bots.bot`); ``bot.think_time`` is the budget the
strength is meant to get (pass ``min(bot.think_time, what the clock allows)``).

Strengths name an algorithm and a think time per game. The algorithms (one file each):

===============  ========================================================================
``random``       :mod:`.random_bot` — uniform
``careful``      :mod:`.careful` — seed 003: win at once, else never allow a win at once
``greedy``       :mod:`.greedy` — one ply on the evaluator
``alphabeta``    :mod:`.alphabeta` — iterative deepening, TT, ordering, quiescence
``mcts``         :mod:`.mcts` — UCT, depth limit, heuristic weights (seed 003)
``maxn``         :mod:`.maxn` — max^n with per-depth best-N (seed 004), sampled chance
``ismcts``       :mod:`.ismcts` — information-set MCTS on ``determinize`` worlds
``worldsearch``  :mod:`.worldsearch` — Dark Chess: alpha-beta in each sampled world, a vote
``smmcts``       :mod:`.smmcts` — decoupled UCT for simultaneous turns
``aggressive``   :mod:`.aggressive` — seed 000's one-ply Apocalypse bot
===============  ========================================================================

Evaluators are apart from the searches (:mod:`.evaluator`: the games' ``evaluate`` /
``move_heuristic`` hooks; :mod:`.chess_eval`: material + piece-square tables for chess and
Dark Chess; :mod:`.apocalypse_eval`: horsemen first, seed 000's scores as priors). Worlds
come from the games' ``determinize`` hooks (Dark Chess: ``server.engine.dark_chess.worlds``).

"seed NNN" cites the article a design comes from (listed in docs/BOTS.md, Sources).

Besides the named strengths, ``make_bot`` accepts an algorithm name that suits the game
(``"greedy"``, ``"ismcts"``, ...) with its default think time, for the arena and tests.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from .bot import Bot, Deadline

__all__ = ["ALGORITHMS", "STRENGTHS", "Bot", "Deadline", "algorithms", "make_bot", "strengths"]


def _random(t: float = 0.0, **kw: Any) -> Bot:
    from .random_bot import RandomBot

    return RandomBot(think_time=t, **kw)


def _careful(t: float = 0.1, **kw: Any) -> Bot:
    from .careful import CarefulBot

    return CarefulBot(think_time=t, **kw)


def _greedy(t: float = 0.1, **kw: Any) -> Bot:
    from .greedy import GreedyBot

    return GreedyBot(think_time=t, **kw)


def _alphabeta(t: float = 1.0, **kw: Any) -> Bot:
    from .alphabeta import AlphaBetaBot

    return AlphaBetaBot(think_time=t, **kw)


def _yonin_evaluator(game: Any) -> Any:
    from .yonin_eval import YoninEvaluator

    return YoninEvaluator(game)


def _mcts(t: float = 1.0, **kw: Any) -> Bot:
    from .mcts import MCTSBot

    return MCTSBot(think_time=t, **kw)


def _maxn(t: float = 1.0, **kw: Any) -> Bot:
    from .maxn import MaxNBot

    return MaxNBot(think_time=t, **kw)


def _brs(t: float = 1.0, **kw: Any) -> Bot:
    from .brs import BestReplyBot

    return BestReplyBot(think_time=t, **kw)


def _ismcts(t: float = 1.0, **kw: Any) -> Bot:
    from .ismcts import ISMCTSBot

    return ISMCTSBot(think_time=t, **kw)


def _worldsearch(t: float = 1.0, **kw: Any) -> Bot:
    from .worldsearch import WorldSearchBot

    return WorldSearchBot(think_time=t, **kw)


def _smmcts(t: float = 1.0, **kw: Any) -> Bot:
    from .smmcts import SimultaneousBot

    return SimultaneousBot(think_time=t, **kw)


def _aggressive(t: float = 0.0, **kw: Any) -> Bot:
    from .aggressive import AggressiveBot

    return AggressiveBot(think_time=t, **kw)


Factory = Callable[..., Bot]

#: the algorithms that suit the games that do not take their kind's: name -> (factory, keyword
#: arguments)
_ALGORITHMS: dict[str, dict[str, tuple[Factory, dict[str, Any]]]] = {
    "chess": {
        "random": (_random, {}),
        "careful": (_careful, {}),
        "greedy": (_greedy, {}),
        "alphabeta": (_alphabeta, {}),
        "mcts": (_mcts, {"rollout_depth": 6}),
    },
    "dark_chess": {
        "random": (_random, {}),
        "careful": (_careful, {}),
        "greedy": (_greedy, {"worlds": 4}),
        "mcts": (_mcts, {"rollout_depth": 2}),
        "ismcts": (_ismcts, {"rollout_depth": 2}),
        "worldsearch": (_worldsearch, {}),
    },
    "apocalypse": {
        "random": (_random, {}),
        "careful": (_careful, {}),
        "greedy": (_greedy, {}),
        "aggressive": (_aggressive, {}),
        "smmcts": (_smmcts, {}),
    },
    "banqi": {
        "random": (_random, {}),
        "careful": (_careful, {}),
        "greedy": (_greedy, {"worlds": 8}),
        "mcts": (_mcts, {"rollout_depth": 4}),
        "ismcts": (_ismcts, {"rollout_depth": 4}),
    },
    "hase_und_igel": {
        "random": (_random, {}),
        "careful": (_careful, {}),
        "greedy": (_greedy, {"worlds": 4}),
        "mcts": (_mcts, {}),
        "maxn": (_maxn, {"max_depth": 1}),  # deeper plies measured worse (docs/BOTS.md)
        # the same one-ply search, but a hare card from 3 sampled deck orders instead of
        # the mean over the whole deck: weaker ("normal"; docs/BOTS.md, The ladder)
        "maxn_sampled": (_maxn, {"max_depth": 1, "chance_plies": 0, "worlds": 3}),
    },
    # four seats, nothing hidden: max^n on one world (nothing to sample), three plies deep
    # (the next two seats' replies), the others' 4 best-sorted moves (captures first)
    "yonin_shogi": {
        "random": (_random, {}),
        "careful": (_careful, {}),
        "greedy": (_greedy, {}),
        "maxn": (
            _maxn,
            {"worlds": 1, "max_depth": 3, "opponent_n": 4, "evaluator": _yonin_evaluator},
        ),
        # Best-Reply Search: the others' strongest reply from any seat, then us again
        "brs": (_brs, {"opponent_n": 4, "evaluator": _yonin_evaluator}),
        "mcts": (_mcts, {}),
    },
}

#: named strengths of those games, weakest first: name -> (algorithm, think time in seconds)
_STRENGTHS: dict[str, dict[str, tuple[str, float]]] = {
    "chess": {
        "random": ("random", 0.0),
        "easy": ("greedy", 0.1),
        "normal": ("alphabeta", 0.5),
        "hard": ("alphabeta", 2.0),
    },
    # worldsearch: alpha-beta in many sampled worlds, 0.87 against the twin that cheats at
    # the same 1 s, where ISMCTS scored 0.15; ISMCTS at 3 s, the old hard, scored 0.6
    # against itself at 1 s (docs/BOTS.md, issue 40)
    "dark_chess": {
        "random": ("random", 0.0),
        "easy": ("careful", 0.2),
        "normal": ("ismcts", 1.0),
        "hard": ("worldsearch", 1.0),
    },
    "apocalypse": {
        "random": ("random", 0.0),
        "easy": ("aggressive", 0.0),
        # 3 s did not beat 1 s; 0.1 s did not beat aggressive (docs/BOTS.md, The ladder)
        "normal": ("smmcts", 0.25),
        "hard": ("smmcts", 1.0),
    },
    "banqi": {
        "random": ("random", 0.0),
        "easy": ("greedy", 0.2),
        "normal": ("ismcts", 1.0),
        "hard": ("ismcts", 3.0),
    },
    "hase_und_igel": {
        "random": ("random", 0.0),
        "easy": ("greedy", 0.2),
        "normal": ("maxn_sampled", 1.0),
        "hard": ("maxn", 3.0),
    },
    # max^n on the win-first utilities of .yonin_eval (docs/BOTS.md, Yonin Shogi;
    # docs/results/yonin_shogi_top_vs_greedy.txt); Best-Reply Search ("brs") measured weaker
    # against "normal" than this (docs/results/yonin_shogi_brs_ladder.txt): not adopted
    "yonin_shogi": {
        "random": ("random", 0.0),
        "easy": ("greedy", 0.1),
        "normal": ("maxn", 0.25),
        "hard": ("maxn", 1.0),
    },
}


#: what a game with no entry above gets, by its kind (:func:`_kind`): a new game needs no
#: line here unless its kind's defaults do not suit it
_KIND_ALGORITHMS: dict[str, dict[str, tuple[Factory, dict[str, Any]]]] = {
    # two seats, turns, nothing hidden: alpha-beta on the game's evaluate hook
    "perfect": {
        "random": (_random, {}),
        "careful": (_careful, {}),
        "greedy": (_greedy, {}),
        "alphabeta": (_alphabeta, {}),
        "mcts": (_mcts, {"rollout_depth": 6}),
    },
    # many seats, turns, nothing hidden: max^n (seed 004)
    "many": {
        "random": (_random, {}),
        "greedy": (_greedy, {}),
        "maxn": (_maxn, {}),
        "mcts": (_mcts, {}),
    },
    # something hidden: searches over sampled worlds only
    "hidden": {
        "random": (_random, {}),
        "careful": (_careful, {}),
        "greedy": (_greedy, {"worlds": 8}),
        "ismcts": (_ismcts, {"rollout_depth": 4}),
    },
    "simultaneous": {
        "random": (_random, {}),
        "greedy": (_greedy, {}),
        "smmcts": (_smmcts, {}),
    },
}
_KIND_STRENGTHS: dict[str, dict[str, tuple[str, float]]] = {
    "perfect": {
        "random": ("random", 0.0),
        "easy": ("greedy", 0.05),
        "normal": ("alphabeta", 0.2),
        "hard": ("alphabeta", 1.0),
    },
    "many": {
        "random": ("random", 0.0),
        "easy": ("greedy", 0.1),
        "normal": ("maxn", 0.5),
        "hard": ("maxn", 2.0),
    },
    "hidden": {
        "random": ("random", 0.0),
        "easy": ("greedy", 0.2),
        "normal": ("ismcts", 1.0),
        "hard": ("ismcts", 3.0),
    },
    "simultaneous": {
        "random": ("random", 0.0),
        "easy": ("greedy", 0.1),
        "normal": ("smmcts", 0.25),
        "hard": ("smmcts", 1.0),
    },
}


def _kind(name: str) -> str:
    """The kind of the registered game ``name`` (``KeyError`` if there is none)."""
    from server.engine import get_game

    game = get_game(name)
    if game.simultaneous:
        return "simultaneous"
    if game.hidden_information:
        return "hidden"
    if game.max_seats > 2:
        return "many"
    return "perfect"


T = TypeVar("T")


class _ByGame(Mapping[str, dict[str, T]], Generic[T]):
    """A table by game, read when asked: a game's own entry, else its kind's (so a game
    registered after this module's import gets its bots too)."""

    def __init__(self, own: dict[str, dict[str, T]], by_kind: dict[str, dict[str, T]]) -> None:
        self._own = own
        self._by_kind = by_kind

    def __getitem__(self, game: str) -> dict[str, T]:
        own = self._own.get(game)
        return dict(own if own is not None else self._by_kind[_kind(game)])

    def __iter__(self) -> Iterator[str]:
        from server.engine import REGISTRY

        yield from self._own
        yield from (game.name for game in REGISTRY if game.name not in self._own)

    def __len__(self) -> int:
        return sum(1 for _ in self)


#: the algorithms that suit each registered game: name -> (factory, keyword arguments)
ALGORITHMS: Mapping[str, dict[str, tuple[Factory, dict[str, Any]]]] = _ByGame(
    _ALGORITHMS, _KIND_ALGORITHMS
)
#: named strengths per registered game, weakest first: name -> (algorithm, think time)
STRENGTHS: Mapping[str, dict[str, tuple[str, float]]] = _ByGame(_STRENGTHS, _KIND_STRENGTHS)


def strengths(game: str) -> list[str]:
    """The named strengths of ``game``, weakest first; ``KeyError`` for an unknown game."""
    return list(STRENGTHS[game])


def algorithms(game: str) -> list[str]:
    """The algorithm names ``make_bot`` accepts for ``game`` besides the strengths."""
    return list(ALGORITHMS[game])


def make_bot(game: str, strength: str, **options: Any) -> Bot:
    """A bot of a named strength (or algorithm) for ``game``; ``KeyError`` if unknown.

    ``options`` go to the algorithm (e.g. ``max_iterations`` for deterministic tests).
    """
    table = ALGORITHMS[game]
    named = STRENGTHS[game].get(strength)
    if named is not None:
        algorithm, think_time = named
        factory, defaults = table[algorithm]
        return factory(think_time, **{**defaults, **options})
    factory, defaults = table[strength]
    return factory(**{**defaults, **options})
