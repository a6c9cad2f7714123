"""The bot interface and what every algorithm shares: deadlines, worlds, move look-up.

A bot is asked for one move at a time::

    bot.choose(game, seat, views, legal, budget, rng) -> str

``views`` are every view the seat has received, oldest first (``game.view(state, seat)``
after each turn; the last is the current one), ``legal`` the seat's legal move texts now (what
the room sends that seat), ``budget`` the seconds it may think and ``rng`` its randomness. A
bot never receives the true state: a search that needs a full state rebuilds one with the
game's ``determinize(views, seat, rng)`` hook — for open games a reconstruction, for hidden
information a sample of what the seat cannot see that agrees with everything it has seen.
The answer is always one of ``legal``.

Every bot here is a :class:`SearchBot`: ``choose`` answers a forced move at once and hands
anything else to ``answer`` as one :class:`Ask` (game, seat, views, legal moves, a
:class:`Deadline`, rng); the tree searches share :class:`server.bots.mcts.TreeSearchBot`
and :class:`server.bots.mcts.TreeSearch` (UCT, ISMCTS over UCT, decoupled UCT).

Bots are pure (no I/O, no asyncio); the net layer runs them in worker processes.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import random
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from server.engine import Game

Json = Mapping[str, Any]

#: how much of the budget a search may plan to use; the rest absorbs the last step and
#: the move's way back (the tests allow budget + 10 %)
SAFETY = 0.8


class Bot(Protocol):
    """What the room's bot runner calls. ``think_time`` is the strength's usual budget."""

    name: str
    think_time: float

    def choose(
        self,
        game: Game[Any, Any],
        seat: int,
        views: Sequence[Json],
        legal: Sequence[str],
        budget: float,
        rng: random.Random,
    ) -> str: ...


class NoWorldError(Exception):
    """The game cannot rebuild a state from the views (no ``determinize`` hook)."""


@dataclass(slots=True)
class Deadline:
    """A monotonic deadline ``budget`` seconds from now (scaled by :data:`SAFETY`)."""

    budget: float
    start: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        self.budget = max(0.0, self.budget) * SAFETY

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def left(self) -> float:
        return self.budget - self.elapsed()

    def expired(self) -> bool:
        return time.perf_counter() - self.start >= self.budget

    def fraction(self, share: float) -> Deadline:
        """A deadline for the first ``share`` of the time left."""
        d = Deadline(0.0, time.perf_counter())
        d.budget = max(0.0, self.left()) * share
        return d


@dataclass(frozen=True, slots=True)
class Ask:
    """One question to a bot: the move of ``seat`` in ``game`` given everything it has seen
    (``views``), the room's list of its ``legal`` move texts, a ``deadline`` and an ``rng``.
    """

    game: Game[Any, Any]
    seat: int
    views: Sequence[Json]
    legal: Sequence[str]
    deadline: Deadline
    rng: random.Random

    def world(self, *, seconds: float | None = None, hint: Any = None) -> Any:
        """A true state consistent with the views (:func:`world`)."""
        return world(self.game, self.views, self.seat, self.rng, seconds=seconds, hint=hint)

    def moves(self, state: Any, legal: Sequence[str] | None = None) -> dict[str, Any]:
        """The seat's moves in ``state`` keyed by text, limited to ``legal`` (default: the
        room's list) (:func:`moves_by_text`)."""
        return moves_by_text(self.game, state, self.seat, self.legal if legal is None else legal)

    def pick(self, texts: Sequence[str]) -> str:
        """A random one of ``texts``; any legal move when there is none."""
        return self.rng.choice(list(texts or self.legal))


class SearchBot:
    """What every bot shares: a forced move is answered at once, anything else by
    :meth:`answer` with the question bundled in an :class:`Ask` (its deadline set from the
    budget). ``think_time`` is the strength's usual budget."""

    name = "bot"
    think_time = 1.0

    def choose(
        self,
        game: Game[Any, Any],
        seat: int,
        views: Sequence[Json],
        legal: Sequence[str],
        budget: float,
        rng: random.Random,
    ) -> str:
        if len(legal) == 1:
            return legal[0]
        return self.answer(Ask(game, seat, views, legal, Deadline(budget), rng))

    def answer(self, ask: Ask) -> str:
        raise NotImplementedError


def world(
    game: Game[Any, Any],
    views: Sequence[Json],
    seat: int,
    rng: random.Random,
    *,
    seconds: float | None = None,
    hint: Any = None,
) -> Any:
    """A true state consistent with ``views``, from the game's ``determinize`` hook.

    ``seconds`` (a time bound) and ``hint`` (an earlier world to extend) are passed on to
    hooks that accept ``max_seconds=`` / ``hint=`` (Dark Chess) and dropped otherwise.
    """
    determinize = getattr(game, "determinize", None)
    if determinize is None:
        raise NoWorldError(f"{game.name} has no determinize hook: bots cannot rebuild a state")
    accepted = _keywords(game)
    kwargs: dict[str, Any] = {}
    if seconds is not None and "max_seconds" in accepted:
        kwargs["max_seconds"] = max(0.0, seconds)
    if hint is not None and "hint" in accepted:
        kwargs["hint"] = hint
    return determinize(views, seat, rng, **kwargs)


_KEYWORDS: dict[type, frozenset[str]] = {}


def _keywords(game: Game[Any, Any]) -> frozenset[str]:
    kind = type(game)
    if kind not in _KEYWORDS:
        method = getattr(game, "determinize", None)
        _KEYWORDS[kind] = (
            frozenset(inspect.signature(method).parameters) if method is not None else frozenset()
        )
    return _KEYWORDS[kind]


def moves_by_text(
    game: Game[Any, Any], state: Any, seat: int, legal: Sequence[str]
) -> dict[str, Any]:
    """The seat's moves in ``state`` keyed by text, limited to ``legal`` (the room's list is
    the authority; a text the state does not know is parsed)."""
    wanted = set(legal)
    out = {str(m): m for m in game.legal_moves(state, seat) if str(m) in wanted}
    for text in legal:
        if text not in out:
            out[text] = game.parse_move(state, seat, text)
    return out


T = TypeVar("T")


class Memory(Generic[T]):
    """What a bot keeps from one turn to its next turn of the same game: a value filed under
    the digest of every view the seat had when it answered (game, seat and that digest), so
    only a later turn of the same view history — the same room and seat, nothing else can
    have it — finds it again. At most ``size`` histories are kept (the oldest go first).

    A bot object serves many rooms in a worker; this is how its answer stays a function of
    its seat's views, its rng and what it itself computed earlier in the same game."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[str, int, str], T] = OrderedDict()

    def recall(self, ask: Ask, *, take: bool = False) -> tuple[T | None, str]:
        """The value kept at the seat's latest earlier turn of ``ask``'s view history (or
        ``None``), and the digest to :meth:`keep` this turn's under. ``take``: forget it."""
        digests = history_digests(ask.views)
        for digest in reversed(digests[:-1]):
            key = (ask.game.name, ask.seat, digest)
            found = self._kept.pop(key, None) if take else self._kept.get(key)
            if found is not None:
                return found, digests[-1]
        return None, digests[-1] if digests else ""

    def keep(self, ask: Ask, digest: str, value: T) -> None:
        key = (ask.game.name, ask.seat, digest)
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def latest(self) -> T | None:
        """The value kept last (tests look at it)."""
        return next(reversed(self._kept.values()), None)

    def __len__(self) -> int:
        return len(self._kept)


def history_digests(views: Sequence[Json]) -> list[str]:
    """A digest of every prefix of ``views`` (the ``i``-th covers ``views[: i + 1]``)."""
    h = hashlib.blake2b(digest_size=16)
    out = []
    for view in views:
        h.update(json.dumps(view, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\x1e")
        out.append(h.hexdigest())
    return out
