"""The engine contract: what every game module implements.

A game is a stateless object (one instance per game kind, listed in the registry) whose
methods are pure functions over an opaque, game-specific ``State``. The same contract serves
three kinds of game:

* turn-based: ``to_act`` holds one seat and ``play`` takes one move;
* simultaneous: ``to_act`` holds several seats and ``play`` takes one move per acting seat
  and merges them with the game's join rule;
* hidden information: the true state never leaves the engine except through
  ``view(state, seat)`` (``seat=None`` is a spectator), which is the only door to clients
  and to bots.

Determinism: every bit of chance comes from the ``rng`` passed in, so ``new`` + the move log
replayed with the same rngs gives the identical state. Rooms derive one rng per turn from the
room seed (:func:`turn_rng`), so a state can be rebuilt from any point without carrying an
rng around.

Error tree (each carries a stable wire ``code``)::

    EngineError
    ├── InvalidOptions     options do not fit the game's schema        bad_options
    ├── InvalidMove        the text does not parse as a move           bad_move
    └── IllegalMove        parses, but is not legal now                illegal_move
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

Seat = int
Json = dict[str, Any]

S = TypeVar("S")  # the game's state type
M = TypeVar("M")  # the game's move type


# -- errors --------------------------------------------------------------------------------


class EngineError(Exception):
    """Base of every error the engine raises on bad input."""

    code: ClassVar[str] = "engine_error"


class InvalidOptions(EngineError):
    """The room options do not fit the game's option schema."""

    code = "bad_options"


class InvalidMove(EngineError):
    """The move text does not parse for this game (syntax, unknown squares, ...)."""

    code = "bad_move"


class IllegalMove(EngineError):
    """The move parses but is not legal in this position, or the seat may not act now."""

    code = "illegal_move"


# -- values --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game, decided by the engine.

    Attributes:
        scores: one score per seat: 1 win, 0.5 draw, 0 loss for two seats; for more seats
            a score in [0, 1] derived from the ranks (1 for first place, 0 for last).
        ranks: one rank per seat, 1 = best; seats that tie share a rank.
        reason: a stable word: ``checkmate``, ``king_captured``, ``stalemate``,
            ``resignation``, ``timeout``, ``repetition``, ``fifty_moves``, ...
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    reason: str

    @property
    def winner(self) -> Seat | None:
        """The single seat ranked first, or ``None`` on a shared first place (draw)."""
        firsts = [s for s, r in enumerate(self.ranks) if r == 1]
        return firsts[0] if len(firsts) == 1 else None

    @classmethod
    def win(cls, winner: Seat, n_seats: int, reason: str) -> Outcome:
        """Seat ``winner`` wins, every other seat shares last place."""
        return cls.from_ranks(tuple(1 if s == winner else 2 for s in range(n_seats)), reason)

    @classmethod
    def draw(cls, n_seats: int, reason: str) -> Outcome:
        """Everybody shares first place."""
        return cls.from_ranks((1,) * n_seats, reason)

    @classmethod
    def from_ranks(cls, ranks: Sequence[int], reason: str) -> Outcome:
        """Scores from ranks: linear from 1 (best rank) to 0 (worst possible rank).

        Ties share the average of the places they span, so a two-seat draw is 0.5/0.5 and
        the scores of all seats always add up to ``n_seats / 2`` for two or more seats.
        """
        n = len(ranks)
        if n == 1:
            return cls((1.0,), tuple(ranks), reason)
        ordered = sorted(ranks)
        scores = []
        for r in ranks:
            places = [i for i, x in enumerate(ordered) if x == r]
            mean_place = sum(places) / len(places)
            scores.append(1.0 - mean_place / (n - 1))
        return cls(tuple(scores), tuple(ranks), reason)

    def to_json(self) -> Json:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "reason": self.reason,
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(tuple(data["scores"]), tuple(data["ranks"]), str(data["reason"]))


@dataclass(frozen=True, slots=True)
class Option:
    """One entry of a game's option schema.

    ``kind`` is ``"str"``, ``"int"`` or ``"bool"``; ``choices`` restricts a value to a set;
    ``minimum``/``maximum`` bound an int; ``max_length`` bounds a str.
    """

    kind: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    max_length: int = 200

    def check(self, name: str, value: Any) -> Any:
        """Return ``value`` if valid for this option, else raise :class:`InvalidOptions`."""
        types: dict[str, type] = {"str": str, "int": int, "bool": bool}
        want = types[self.kind]
        if not isinstance(value, want) or (self.kind == "int" and isinstance(value, bool)):
            raise InvalidOptions(f"option {name!r} must be of type {self.kind}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise InvalidOptions(f"option {name!r} must be one of {list(self.choices)}")
        if self.kind == "int":
            assert isinstance(value, int)
            if self.minimum is not None and value < self.minimum:
                raise InvalidOptions(f"option {name!r} must be >= {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise InvalidOptions(f"option {name!r} must be <= {self.maximum}")
        if isinstance(value, str) and len(value) > self.max_length:
            raise InvalidOptions(f"option {name!r} is longer than {self.max_length}")
        return value

    def to_json(self) -> Json:
        out: Json = {"type": self.kind, "default": self.default, "description": self.description}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


class LazyRandom(random.Random):
    """``random.Random(seed)`` that seeds itself on first use: most turns of most games
    draw nothing, and seeding (SHA-512 of the text) costs more than the rest of a chess move's
    bookkeeping. Every draw goes through ``random()`` or ``getrandbits()``, the two
    primitives ``random.Random`` builds everything else on, so nothing escapes the seed."""

    def __init__(self, seed: str | None = None) -> None:  # no super().__init__: it waits
        self._lazy_seed: str | None = seed
        self.gauss_next = None

    def _ready(self) -> None:
        seed, self._lazy_seed = self._lazy_seed, None
        super().seed(seed)

    def random(self) -> float:
        if self._lazy_seed is not None:
            self._ready()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        if self._lazy_seed is not None:
            self._ready()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        if self._lazy_seed is not None:
            self._ready()
        return super().getstate()

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._lazy_seed = None
        super().seed(a, version)


class NoDraws(random.Random):
    """The rng handed to ``play`` by a game whose play draws no chance
    (``Game.play_draws = False``: chess, Dark Chess), instead of a :class:`LazyRandom` made
    for each move: any draw from it raises, so a game that came to draw at play with the
    flag still off fails loudly (its every test) rather than lose its determinism."""

    def __init__(self) -> None:  # nothing to seed
        self.gauss_next = None

    def _refuse(self, *args: Any) -> Any:
        raise RuntimeError("this game declared that its play draws no chance (play_draws)")

    random = getrandbits = getstate = setstate = seed = _refuse  # type: ignore[assignment]


#: the one :class:`NoDraws` (it holds no state)
NO_DRAWS = NoDraws()


def play_rng(game: Game[Any, Any], seed: str, ply: int) -> random.Random:
    """The rng ``game.play`` gets for turn ``ply``: :func:`turn_rng`, or :data:`NO_DRAWS` for
    a game whose play draws nothing (``Game.play_draws``)."""
    return turn_rng(seed, ply) if game.play_draws else NO_DRAWS


def turn_rng(seed: str, ply: int) -> random.Random:
    """The rng for turn ``ply`` of a room seeded with ``seed`` (ply 0 is ``new``).

    ``random.Random`` seeded with a str hashes it with SHA-512, which is stable across
    processes and Python versions, so replays are identical everywhere. It is seeded on
    first use (:class:`LazyRandom`), with the very same result.
    """
    return LazyRandom(f"{seed}/{ply}")


# -- the contract --------------------------------------------------------------------------


class Game(Generic[S, M]):
    """A game kind. Subclass it, fill in the class attributes and the abstract methods.

    States are values: ``play`` never mutates its input and returns a new state, so a room
    may keep earlier states (for undo and resync) without copying them.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    seat_names: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[Mapping[str, Option]] = {}
    #: whether ``play`` may draw from its rng (a room hands a game that says no
    #: :data:`NO_DRAWS` instead of a new rng each move)
    play_draws: ClassVar[bool] = True
    #: the game hides something from some seat (fog, face-down pieces, sealed moves, deck)
    hidden_information: ClassVar[bool] = False
    #: the move texts reveal nothing a spectator's view does not show (what is hidden is
    #: a chance draw: face-down pieces, a card deck): the record of a running game may be
    #: shown without its seed
    public_moves: ClassVar[bool] = False
    #: ``to_act`` may hold several seats at once
    simultaneous: ClassVar[bool] = False
    description: ClassVar[str] = ""
    #: how to play, for a newcomer: a few short plain-text paragraphs (no markup), sent in
    #: ``info`` and shown by clients in a "How to play" panel; every game has some
    #: (tests/engine/test_contract.py)
    how_to_play: ClassVar[tuple[str, ...]] = ()
    #: how clients draw the game: ``"grid"`` (the default) means every view carries
    #: ``view["grid"]``, a board described as data (:mod:`server.engine.grid`) that the one
    #: generic web board draws and plays. ``"chess"`` (chess, Dark Chess), ``"apocalypse"``
    #: and ``"banqi"`` describe their boards the same way and are drawn by the same board;
    #: the word tells clients the kind of game (premoves in chess-like games of turns).
    #: ``"track"`` is Hase und Igel's track, a board of the web client's own
    board: ClassVar[str] = "grid"
    #: the piece sets a player may choose between, as ``(name, {kind: glyph})``: the first
    #: is what the views draw (its glyphs empty: the description's own), each other one
    #: replaces the glyph of the piece kinds it names (XiangQi's Western letters); sent in
    #: ``info``, the choice is the client's
    piece_sets: ClassVar[tuple[tuple[str, Mapping[str, str]], ...]] = ()

    # -- setup ---------------------------------------------------------------------------

    def check_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate ``raw`` against :attr:`options`, filling defaults. Unknown keys fail."""
        raw = dict(raw or {})
        unknown = sorted(set(raw) - set(self.options))
        if unknown:
            raise InvalidOptions(f"unknown option(s) for {self.name}: {', '.join(unknown)}")
        return {
            name: opt.check(name, raw[name]) if name in raw else opt.default
            for name, opt in self.options.items()
        }

    def check_seats(self, n_seats: int) -> None:
        if not self.min_seats <= n_seats <= self.max_seats:
            raise InvalidOptions(
                f"{self.name} is played by {self.min_seats}"
                + (f"-{self.max_seats}" if self.max_seats != self.min_seats else "")
                + f" seats, not {n_seats}"
            )

    def seat_name(self, seat: Seat, n_seats: int) -> str:
        if seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"Seat {seat + 1}"

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> S:
        """The initial true state. ``options`` have passed :meth:`check_options`."""
        raise NotImplementedError

    # -- playing -------------------------------------------------------------------------

    def to_act(self, state: S) -> frozenset[Seat]:
        """The seats that must move now; empty when the game is over."""
        raise NotImplementedError

    def legal_moves(self, state: S, seat: Seat) -> list[M]:
        """The legal moves of ``seat`` now (empty when it is not to act)."""
        raise NotImplementedError

    def legal_texts(self, state: S, seat: Seat) -> list[str]:
        """:meth:`legal_moves` as texts (what a seat to act is shown), interned: the same
        texts recur in every room of a node. Games may cache them with the state."""
        return [sys.intern(str(m)) for m in self.legal_moves(state, seat)]

    def is_legal(self, state: S, seat: Seat, move: M) -> bool:
        """Whether ``move`` (from :meth:`parse_move`) is legal for ``seat`` now. Games
        override it with a check cheaper than building every legal move."""
        return move in self.legal_moves(state, seat)

    def parse_move(self, state: S, seat: Seat, text: str) -> M:
        """Parse the text form of a move; raise :class:`InvalidMove` if it does not parse.

        ``str(move)`` is the text form, and ``parse_move(state, seat, str(m)) == m``.
        Legality is checked by :meth:`play`, not here.
        """
        raise NotImplementedError

    def play(
        self, state: S, moves: Mapping[Seat, M], rng: random.Random, *, check: bool = True
    ) -> S:
        """Apply one turn and return the new state.

        ``moves`` holds exactly one move for every seat in ``to_act(state)``. With
        ``check=True`` (the path rooms use) a missing/extra seat or an illegal move raises
        :class:`IllegalMove` and nothing changes; ``check=False`` is the fast path for
        searches that only feed moves from :meth:`legal_moves`.
        """
        raise NotImplementedError

    def view(self, state: S, seat: Seat | None) -> Json:
        """All that ``seat`` may know (``None``: a spectator, public information only).

        JSON-ready (str keys; str, int, float, bool, None, lists, dicts) and deterministic:
        two states the seat cannot tell apart give equal views.
        """
        raise NotImplementedError

    def final_view(self, state: S, seat: Seat | None) -> Json:
        """:meth:`view` once the room has ended the game, however it ended (the rules, a
        resignation, the clock, an agreement): every door shows this from then on. A game
        that hides information may show more here, what its record (public once the game
        is over) tells anyway; the default is :meth:`view`."""
        return self.view(state, seat)

    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over by its rules, else ``None``."""
        raise NotImplementedError

    def ply(self, state: S) -> int:
        """How many turns have been played to reach ``state``."""
        raise NotImplementedError

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: S) -> Json:
        """The true state as a JSON-ready dict (server-side snapshots only, never sent)."""
        raise NotImplementedError

    def decode_state(self, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`encode_state`."""
        raise NotImplementedError

    # -- defaults that games may override --------------------------------------------------

    def check_moves(self, state: S, moves: Mapping[Seat, M]) -> None:
        """The checked path's common part: right seats, each move among its legal moves."""
        acting = self.to_act(state)
        if not acting:
            raise IllegalMove("the game is over")
        if set(moves) != set(acting):
            raise IllegalMove(f"moves are needed from seats {sorted(acting)}, got {sorted(moves)}")
        for seat, move in moves.items():
            if not self.is_legal(state, seat, move):
                raise IllegalMove(f"{move} is not legal for seat {seat} now")

    def leave(self, state: S, seat: Seat, reason: str) -> M | None:
        """The move by which ``seat`` leaves a game that goes on without it (a runner out of
        a race), played with :meth:`play` like any move but never one of the seat's legal
        moves; ``None`` (the default): resigning or losing on time ends the game
        (:meth:`resign`)."""
        return None

    def resign(self, state: S, seat: Seat, n_seats: int, reason: str = "resignation") -> Outcome:
        """The outcome when ``seat`` gives up (resigns, or loses on time).

        Default: the seat ranks last; the others share first place. Games with more than two
        seats may rank the others by their standing instead.
        """
        ranks = tuple(2 if s == seat else 1 for s in range(n_seats))
        return Outcome.from_ranks(ranks, reason)

    # Optional bot hooks (a game defines those it can; bots test with ``hasattr``):
    #   evaluate(state, seat) -> list[float]           one score per seat, higher is better
    #   move_heuristic(state, seat, move) -> float      prior weight of a move for ordering
    #   determinize(views, seat, rng) -> State          a true state consistent with every
    #                                                   view the seat has had (every game: for
    #                                                   an open one, the state itself)
    #   eval_scales = (evaluate scale, heuristic scale) how the evaluator squashes the two

    def export(self, record: Mapping[str, Any]) -> dict[str, str]:
        """Extra exports of a finished game's record (e.g. ``{"pgn": ...}`` for chess)."""
        return {}

    def info(self) -> Json:
        """The registry entry sent to clients by ``list_games``."""
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "how_to_play": list(self.how_to_play),
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "seat_names": list(self.seat_names),
            "hidden_information": self.hidden_information,
            "public_moves": self.public_moves,
            "simultaneous": self.simultaneous,
            "board": self.board,
            "options": {k: o.to_json() for k, o in self.options.items()},
            "piece_sets": [{"name": n, "glyphs": dict(g)} for n, g in self.piece_sets],
        }

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


@dataclass(slots=True)
class Registry:
    """Game kinds by name, in registration order."""

    games: dict[str, Game[Any, Any]] = field(default_factory=dict)

    def add(self, game: Game[Any, Any]) -> Game[Any, Any]:
        if game.name in self.games:
            raise ValueError(f"game {game.name!r} is registered twice")
        self.games[game.name] = game
        return game

    def get(self, name: str) -> Game[Any, Any]:
        try:
            return self.games[name]
        except KeyError:
            raise KeyError(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self.games

    def __iter__(self) -> Iterator[Game[Any, Any]]:
        return iter(self.games.values())
