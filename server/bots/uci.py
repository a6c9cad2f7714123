"""UCI engines as seats: what an engine is, what it is told, and how its answer reads.

An operator names engines when the server starts (``kibitz serve --engine NAME=PATH?...``);
:func:`parse_engine` reads one such argument into an :class:`EngineSpec`. An engine seat
plays from its seat's views like every bot: :func:`position` turns a view history into the
UCI ``position`` line, and :func:`read_move` turns the engine's ``bestmove`` into one of the
seat's legal move texts (or refuses it). Nothing here starts a process: the processes and
their pool are the shell's (:mod:`server.net.services.seats.engines`), and ``kibitz arena`` drives
the same pieces in-process (:mod:`server.tools.arena`). What the shell reads from a process goes
through a :class:`LineReader` first: bytes in, whole lines out, and no line longer than
:data:`LINE_LIMIT` is ever held (an engine printing without newlines once grew a server by
540 MB a minute).

The argument, whole::

    NAME=PATH[?KEY=VALUE&...]       stockfish=/usr/games/stockfish
                                    fsf=/usr/games/fairy-stockfish?variant=xiangqi,chess

==============  ==========================================================================
``variant``     the games it plays, by UCI variant name (:data:`VARIANTS`), comma-separated;
                default ``chess``. Any but ``chess`` needs the engine's ``UCI_Variant``.
``levels``      the levels the lobby offers, weakest first: ``SKILL@SECONDS`` each
                (``Skill Level``, then the time per move), comma-separated, or ``@SECONDS``
                for time only; default :data:`DEFAULT_LEVELS` (``0@0.1,8@0.3,20@1``)
``processes``   how many processes this engine may run at once (1 to 16, default 2)
anything else   a UCI option, set once when a process starts (``Threads=1&Hash=16``)
==============  ==========================================================================

A seat's strength is ``NAME:LEVEL`` (``stockfish:2``), so it never meets a bot's strength.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from ..engine.xiangqi import START_FEN as XIANGQI_START

#: our games an engine can play, by the UCI variant name it is told (``UCI_Variant``)
VARIANTS = {"chess": "chess", "xiangqi": "xiangqi"}

NAME = re.compile(r"[a-z][a-z0-9_]{0,15}")
_LEVEL = re.compile(r"(-?\d{1,3})?@(\d{1,2}(?:\.\d{1,3})?)")
_STRENGTH = re.compile(r"([a-z][a-z0-9_]{0,15}):([1-9])")
_XIANGQI_MOVE = re.compile(r"[a-i](?:10|[1-9])[a-i](?:10|[1-9])")
_CHESS_MOVE = re.compile(r"[a-h][1-8][a-h][1-8][nbrq]?")
MAX_PROCESSES = 16
MAX_LEVELS = 9
MAX_MOVETIME = 60.0
RESERVED = {"variant", "levels", "processes"}
#: bytes an engine may print on one line (UCI lines are short: an ``info`` line with a long
#: ``pv`` is a kilobyte or two); one byte more and the process is killed
LINE_LIMIT = 64 * 1024


class EngineSpecError(ValueError):
    """An ``--engine`` argument that does not say what it must (the message says why)."""


@dataclass(frozen=True, slots=True)
class EngineLevel:
    """One level an engine is offered at: ``Skill Level`` (None: not set) and the time it
    is given for a move (seconds; a clock may give it less)."""

    number: int
    skill: int | None
    movetime: float

    def __str__(self) -> str:
        return f"{'' if self.skill is None else self.skill}@{self.movetime:g}"


DEFAULT_LEVELS = (EngineLevel(1, 0, 0.1), EngineLevel(2, 8, 0.3), EngineLevel(3, 20, 1.0))


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """One engine as the operator named it (see the module docstring)."""

    name: str
    path: str
    variants: tuple[str, ...] = ("chess",)
    levels: tuple[EngineLevel, ...] = DEFAULT_LEVELS
    processes: int = 2
    options: tuple[tuple[str, str], ...] = ()

    @property
    def games(self) -> tuple[str, ...]:
        """Our games it plays (in the order of ``variant``)."""
        return tuple(VARIANTS[v] for v in self.variants)

    def variant_of(self, game: str) -> str:
        return next(v for v in self.variants if VARIANTS[v] == game)

    def strength(self, level: EngineLevel) -> str:
        return f"{self.name}:{level.number}"

    def strengths(self, game: str) -> list[str]:
        """The seat strengths it offers for ``game`` (none for a game it does not play)."""
        return [self.strength(lv) for lv in self.levels] if game in self.games else []

    def level(self, number: int) -> EngineLevel | None:
        return self.levels[number - 1] if 1 <= number <= len(self.levels) else None

    def title(self, level: EngineLevel) -> str:
        """How the seat is named in a room: ``Stockfish level 2``."""
        return f"{self.name.capitalize()} level {level.number}"

    def __str__(self) -> str:
        query = [f"variant={','.join(self.variants)}", f"levels={','.join(map(str, self.levels))}"]
        query += [f"processes={self.processes}", *(f"{k}={v}" for k, v in self.options)]
        return f"{self.name}={self.path}?{'&'.join(query)}"


def parse_levels(text: str) -> tuple[EngineLevel, ...]:
    levels = []
    for i, item in enumerate(text.split(","), 1):
        m = _LEVEL.fullmatch(item)
        if m is None:
            raise EngineSpecError(
                f"level {item!r} is not SKILL@SECONDS or @SECONDS (e.g. levels=0@0.1,8@0.3,20@1)"
            )
        seconds = float(m[2])
        if not 0 < seconds <= MAX_MOVETIME:
            raise EngineSpecError(f"level {item!r}: the seconds are over 0 and at most 60")
        levels.append(EngineLevel(i, None if m[1] is None else int(m[1]), seconds))
    if not 1 <= len(levels) <= MAX_LEVELS:
        raise EngineSpecError(f"give 1 to {MAX_LEVELS} levels, not {len(levels)}")
    return tuple(levels)


def parse_engine(text: str) -> EngineSpec:
    """``NAME=PATH[?KEY=VALUE&...]`` as an :class:`EngineSpec` (:class:`EngineSpecError`
    when any part of it is wrong; whether PATH is a UCI engine that has the options is
    for the shell to find out when it starts one)."""
    name, eq, rest = text.partition("=")
    if not eq or NAME.fullmatch(name) is None:
        raise EngineSpecError(
            f"{text!r}: give NAME=PATH[?options] with NAME of 1 to 16 lowercase letters, "
            "digits or '_' (a letter first), e.g. stockfish=/usr/games/stockfish"
        )
    path, _, query = rest.partition("?")
    if not path or any(c in path for c in "\r\n\0"):
        raise EngineSpecError(f"--engine {name}: no path to the engine")
    given: dict[str, str] = {}
    for item in query.split("&") if query else []:
        key, eq, value = item.partition("=")
        key, value = unquote(key), unquote(value)
        if not eq or not key or key in given or any(c in key + value for c in "\r\n\0"):
            raise EngineSpecError(
                f"--engine {name}: {item!r} is not KEY=VALUE (once each, on one line)"
            )
        given[key] = value
    variants = tuple(given.pop("variant", "chess").split(","))
    for v in variants:
        if v not in VARIANTS:
            raise EngineSpecError(
                f"--engine {name}: no game of ours is the UCI variant {v!r} "
                f"(known: {', '.join(VARIANTS)})"
            )
    if len(set(variants)) != len(variants):
        raise EngineSpecError(f"--engine {name}: a variant is named twice")
    levels = parse_levels(given.pop("levels")) if "levels" in given else DEFAULT_LEVELS
    processes_text = given.pop("processes", "2")
    if not processes_text.isdigit() or not 1 <= int(processes_text) <= MAX_PROCESSES:
        raise EngineSpecError(f"--engine {name}: processes is 1 to {MAX_PROCESSES}")
    if any(k.lower() in ("uci_variant", "skill level") for k in given):
        raise EngineSpecError(
            f"--engine {name}: UCI_Variant and Skill Level are set per game and level "
            "(variant=..., levels=...)"
        )
    return EngineSpec(name, path, variants, levels, int(processes_text), tuple(given.items()))


def engine_level(strength: str) -> tuple[str, int] | None:
    """``"stockfish:2"`` -> ``("stockfish", 2)``; None for a bot's strength."""
    m = _STRENGTH.fullmatch(strength)
    return None if m is None else (m[1], int(m[2]))


# -- what an engine prints --------------------------------------------------------------


class LineTooLong(Exception):
    """An engine printed more than ``limit`` bytes without a newline (the engine's fault)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"it printed a line over {limit} bytes")
        self.limit = limit


class LineReader:
    """An engine's output as lines of at most ``limit`` bytes (the newline not counted).

    :meth:`feed` takes the bytes as they come and returns the lines they complete, each
    with its newline; the unfinished rest is kept, and once it (or a finished line) passes
    ``limit`` :meth:`feed` raises :class:`LineTooLong` and the reader takes nothing more.
    Each byte is searched for a newline once, however the output is cut into chunks.
    """

    def __init__(self, limit: int = LINE_LIMIT) -> None:
        self.limit = limit
        self.rest = bytearray()
        self.failed = False

    def feed(self, data: bytes) -> list[bytes]:
        if self.failed:
            raise LineTooLong(self.limit)
        lines = []
        start = 0
        while (end := data.find(b"\n", start)) >= 0:
            line = data[start : end + 1]
            if self.rest:
                line, self.rest = bytes(self.rest) + line, bytearray()
            if len(line) - 1 > self.limit:
                self.failed = True
                raise LineTooLong(self.limit)
            lines.append(line)
            start = end + 1
        if len(self.rest) + len(data) - start > self.limit:
            self.failed, self.rest = True, bytearray()
            raise LineTooLong(self.limit)
        self.rest += data[start:]
        return lines


# -- positions and moves ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Position:
    """What an engine is told before ``go``: its variant, the root (None: the variant's
    start position) and the moves played since, in UCI."""

    variant: str
    fen: str | None
    moves: tuple[str, ...] = ()

    def command(self) -> str:
        root = "startpos" if self.fen is None else f"fen {self.fen}"
        return f"position {root}" + (f" moves {' '.join(self.moves)}" if self.moves else "")


def go_command(
    movetime: float | None = None, depth: int | None = None, nodes: int | None = None
) -> str:
    """The UCI ``go`` line for a time per move (seconds), a depth or a number of nodes."""
    words = ["go"]
    if depth is not None:
        words += ["depth", str(max(1, depth))]
    if nodes is not None:
        words += ["nodes", str(max(1, nodes))]
    if movetime is not None or len(words) == 1:
        words += ["movetime", str(max(1, round((movetime or 0.1) * 1000)))]
    return " ".join(words)


def position(game: Any, seat: int, views: Sequence[Mapping[str, Any]]) -> Position:
    """The position a seat's views describe, as its engine is told it: the game's root and
    every move since, so the engine knows the repetitions too. Chess: the game's own
    ``determinize`` (the views' chain of ``last_move``, from the start FEN); XiangQi: the
    first view's ``fen``, then each later view's ``last_move``."""
    if game.name == "chess":
        import chess

        state = game.determinize(views, seat, random.Random(0))
        fen = None if state.start_fen == chess.STARTING_FEN else state.start_fen
        return Position("chess", fen, tuple(m.uci() for m in state.moves))
    if game.name == "xiangqi":
        return _xiangqi_position(views)
    raise ValueError(f"no UCI engine plays {game.name}")


def _xiangqi_position(views: Sequence[Mapping[str, Any]]) -> Position:
    # the longest run of views, ending at the last, that follow one another move by move
    first = len(views) - 1
    while first > 0 and views[first - 1]["ply"] + 1 == views[first]["ply"]:
        first -= 1
    fen = str(views[first]["fen"])  # the game's own FEN (server/engine/xiangqi/fen.py)
    start = fen == XIANGQI_START
    moves = tuple(to_uci("xiangqi", str(v["last_move"])) for v in views[first + 1 :])
    return Position("xiangqi", None if start else fen, moves)


def to_uci(game: str, text: str) -> str:
    """One of our move texts as UCI: chess moves already are; XiangQi's ``h3-e3`` and
    ``h3xh10`` are ``h3e3`` and ``h3h10``."""
    return text.replace("-", "").replace("x", "") if game == "xiangqi" else text


def read_move(game: str, best: str, legal: Sequence[str]) -> str:
    """The legal move text the engine's ``bestmove`` names (``ValueError`` if none does)."""
    pattern = _XIANGQI_MOVE if game == "xiangqi" else _CHESS_MOVE
    if pattern.fullmatch(best):
        for text in legal:
            if to_uci(game, text) == best:
                return text
    raise ValueError(f"the engine answered {best!r}, which is no legal move here")


__all__ = [
    "DEFAULT_LEVELS",
    "LINE_LIMIT",
    "VARIANTS",
    "EngineLevel",
    "EngineSpec",
    "EngineSpecError",
    "LineReader",
    "LineTooLong",
    "Position",
    "engine_level",
    "go_command",
    "parse_engine",
    "parse_levels",
    "position",
    "read_move",
    "to_uci",
]
