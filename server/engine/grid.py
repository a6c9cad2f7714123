"""The board contract: a grid game describes its board as data, inside its view.

A game whose class says ``board = "grid"`` puts one more key in every view it returns,
``view["grid"]``, built with :func:`describe`. The web client draws and plays any such game
from that description alone (``web/js/boards/described.js``): no game-specific JavaScript.
Because it is part of the view, the description goes through the one door every reader uses
(updates, deltas, resync, records, bots, the no-leak harness): a face-down piece is described
as face-down, never with its kind.

The description (every key always present, JSON-ready)::

    {
      "files": 7, "ranks": 9,                  # squares "a1" .. "g9": file letter + rank number
      "style": "cells",                        # pieces in cells, or "points": on the crossings
      "checkered": false,                      # light/dark squares
      "links": [["d1", "f3"], ...],            # points: extra lines to draw (palace diagonals)
      "breaks": [["b5", "b6"], ...],           # points: grid segments not drawn (a river)
      "terrain": {"water": {"label": "Water", "fill": "#8ecae6"}, ...},   # the legend
      "cells": {"b4": ["water"], "d1": ["den", "den-0"], ...},            # square -> terrains
      "seats": [{"name": "Red", "colour": "#c0392b", "edge": "south"}, ...],
      "pieces": {"a1": {"seat": 0, "kind": "tiger", "label": "Tiger", "glyph": "7",
                        "shape": "disc", "fill": null, "promoted": false, "hidden": false}},
      "hands": {"0": [{"kind": "pawn", "label": "Pawn", "glyph": "P", "letter": "P",
                       "count": 2}], ...},     # reserves, for drops (empty dict: none)
      "last": ["a1", "a2"],                    # squares of the last move, to mark
      "marks": {"c3": "next"},                 # squares to point out (the tower that must move)
      "status": "Red to move: the blue tower",  # one line the board shows under itself
    }

A description may carry more, each key only when it has something to say (:data:`EXTRAS`)::

      "fog": ["e8", ...],                      # squares the viewer cannot see (drawn clouded)
      "own_last": ["e2", "e4"],                # the viewer's own last move, marked apart
      "arrows": [["a1", "b3", 0], ...],        # the last turn's moves, by seat (else: `last`)
      "premoves": {"e7": ["e6", "e5"], ...},   # where the viewer may premove each piece
                                               # (else: anywhere but onto its own pieces)
      "palette": {"light": "#efd9b4", "dark": "#b58863"},  # square colours, no lines
      "facts": [{"label": "Move", "text": "3", "name": "move"}, ...],  # the game's panel;
                                               # a fact without a label is a sentence
      "said": "Nf3",                           # the last move as the players write it

A mark (``marks``) that is an event of the last turn is drawn as one: ``check`` (the square
lit), ``capture`` (an X), ``collision`` (a burst), ``promotion`` and ``flip`` (a star). A
piece of shape ``figure`` is drawn as the chess figure its glyph names (``K Q R B N P``).

With ``style: "points"`` (XiangQi, Ming-Mang) the board is drawn as lines through the
squares' centres, pieces standing on the crossings; ``links`` adds segments (each between two
squares), ``breaks`` removes segments between orthogonal neighbours.

Rank 1 is at the ``south`` edge, file ``a`` at the ``west`` edge. Each seat sits at one edge
(``south``, ``north``, ``west``, ``east``); the client turns the board so the viewer's edge is
at the bottom. A piece's ``seat`` is its owner (``None``: nobody's, e.g. a face-down disc);
its ``fill`` overrides the body colour (a Kamisado tower's colour), else the owner's colour is
used; ``shape`` is ``disc``, ``square`` or ``point`` (a shogi piece, pointing away from its
owner's edge).

Moves are sent to a seat as texts; a grid game writes them in the **gesture notation** the
client parses (:func:`gesture`), each matched as a whole string:

==============  =============================================================
``a1-a2``       move the piece on a1 to a2
``a1xa2``       the same, capturing
``a7-a8=Q``     a move with a choice (promotion): one text per choice
``P*c3``        drop a hand piece whose ``letter`` is ``P`` on c3
``c3``          act on one square (flip, place, ...)
``flip c3``     the same, the act named (a word, a space, the square)
``a1a2``        a move in squares alone (UCI: ``a7a8q`` with a choice)
``pass``        pass
==============  =============================================================

A legal text that is none of these is still offered to the player, as a button beside the
board.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .base import InvalidMove

Json = dict[str, Any]

EDGES = ("south", "north", "west", "east")
SHAPES = ("disc", "square", "point", "figure")
STYLES = ("cells", "points")
FILES = "abcdefghijklmnopqrstuvwxyz"
MAX_FILES = 26
MAX_RANKS = 26

#: an empty square in a board string and in the text layouts (rows from the far rank down,
#: separated by ``/``) the games write their boards in
EMPTY = "."

_SQUARE = r"[a-z](?:[1-9]|1[0-9]|2[0-6])"
_MOVE = re.compile(rf"({_SQUARE})([-x])({_SQUARE})(?:=([A-Za-z+]{{1,3}}))?")
_DROP = re.compile(rf"([A-Za-z+]{{1,3}})\*({_SQUARE})")
_ACT = re.compile(_SQUARE)
_NAMED_ACT = re.compile(rf"[a-z]+ ({_SQUARE})")
_UCI = re.compile(rf"({_SQUARE})({_SQUARE})([a-z])?")
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_WORD = re.compile(r"[a-z][a-z0-9_-]{0,31}")


def square_name(file: int, rank: int) -> str:
    """``(0, 0)`` -> ``"a1"``: file letter, then the 1-based rank."""
    return f"{FILES[file]}{rank + 1}"


def parse_square(text: str, files: int, ranks: int) -> tuple[int, int]:
    """``"a1"`` -> ``(0, 0)``; ``ValueError`` when it is not a square of the board."""
    if not re.fullmatch(_SQUARE, text):
        raise ValueError(f"{text!r} is not a square")
    file, rank = FILES.index(text[0]), int(text[1:]) - 1
    if file >= files or rank >= ranks:
        raise ValueError(f"{text!r} is off the {files}x{ranks} board")
    return file, rank


@dataclass(frozen=True, slots=True)
class Squares:
    """A rectangular board's squares as ints, ``rank * files + file`` (``a1 = 0``), named the
    way the description and the gestures name them; a game keeps one for its board."""

    files: int
    ranks: int

    def name(self, sq: int) -> str:
        """``0 -> "a1"``; on a 9x10 board ``89 -> "i10"``."""
        return square_name(sq % self.files, sq // self.files)

    def parse(self, text: str) -> int:
        """``"a1" -> 0``, the whole text; :class:`InvalidMove` unless it names a square of
        the board."""
        try:
            file, rank = parse_square(text, self.files, self.ranks)
        except (TypeError, ValueError):
            last = self.name(self.files * self.ranks - 1)
            raise InvalidMove(f"{text!r} is not a square (a1..{last})") from None
        return file + self.files * rank

    @property
    def size(self) -> int:
        """How many squares: ``files * ranks``."""
        return self.files * self.ranks

    def rows(self, board: str) -> str:
        """A board string (one char a square, ``a1`` first) as its text layout: the rows from
        the last rank down to rank 1, separated by ``/``."""
        width = self.files
        return "/".join(board[r * width : (r + 1) * width] for r in reversed(range(self.ranks)))

    def board(self, layout: str) -> str:
        """The inverse of :meth:`rows`; ``ValueError`` unless ``layout`` has a row of
        ``files`` chars for every rank (what the chars may be is the game's business)."""
        lines = layout.split("/")
        if len(lines) != self.ranks or any(len(line) != self.files for line in lines):
            raise ValueError(f"{layout!r}: expected {self.ranks} rows of {self.files} squares")
        return "".join(reversed(lines))


_STEP = re.compile(r"([a-z][0-9]+)([-x])([a-z][0-9]+)")  # squares checked by the board


@dataclass(frozen=True, slots=True)
class Step:
    """A move of one piece from ``src`` to ``dst`` (squares of :attr:`squares`), taking what
    stands on ``dst`` if ``capture``: the gestures ``a1-a2`` and ``a1xa2``. A game whose
    moves are all steps subclasses it with its board and its words::

        class JungleMove(grid.Step):
            __slots__ = ()
            squares, game, forms = SQUARES, "Jungle", "a1-a2, or a1xa2 to capture"

    A game without captures says ``captures = False`` (``a1xa2`` does not parse); one whose
    seat may have to pass says ``passes = True``: ``pass`` is then the move ``(-1, -1)``
    (:attr:`is_pass`).
    """

    src: int
    dst: int
    capture: bool = False

    squares: ClassVar[Squares]
    game: ClassVar[str]
    forms: ClassVar[str]
    captures: ClassVar[bool] = True
    passes: ClassVar[bool] = False

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Parse the whole text; :class:`InvalidMove` (naming the forms) otherwise."""
        if cls.passes and text == "pass":
            return cls.pass_move()
        m = _STEP.fullmatch(text) if isinstance(text, str) else None
        if m is None or (m[2] == "x" and not cls.captures):
            raise InvalidMove(f"{text!r} is not a {cls.game} move ({cls.forms})")
        src, dst = cls.squares.parse(m[1]), cls.squares.parse(m[3])
        if src == dst:
            raise InvalidMove(f"{text!r} does not move")
        return cls(src, dst, m[2] == "x")

    @classmethod
    def pass_move(cls) -> Self:
        """The one pass of a game whose seats may pass (a value: there is one)."""
        move = _PASSES.get(cls)
        if move is None:
            move = _PASSES[cls] = cls(-1, -1)
        return move  # type: ignore[return-value]

    @property
    def is_pass(self) -> bool:
        """Whether this is the pass of a game that has one."""
        return self.src < 0

    def __str__(self) -> str:
        if self.src < 0:
            return "pass"
        name = self.squares.name
        return name(self.src) + ("x" if self.capture else "-") + name(self.dst)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Place:
    """A piece put on the empty square ``dst`` (of :attr:`squares`): the gesture ``c3``. A
    game whose moves are all placements subclasses it as it would :class:`Step`."""

    dst: int

    squares: ClassVar[Squares]
    game: ClassVar[str]
    forms: ClassVar[str]

    @classmethod
    def from_text(cls, text: str) -> Self:
        """Parse the whole text (a square of the board); :class:`InvalidMove` otherwise."""
        if not (isinstance(text, str) and _ACT.fullmatch(text)):
            raise InvalidMove(f"{text!r} is not a {cls.game} move ({cls.forms})")
        return cls(cls.squares.parse(text))

    def __str__(self) -> str:
        return self.squares.name(self.dst)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_text({str(self)!r})"


_PASSES: dict[type[Step], Step] = {}


@dataclass(frozen=True, slots=True)
class Gesture:
    """A move text read as what a hand does on the board (:func:`gesture`)."""

    kind: str  # "move", "drop", "act", "pass"
    src: str | None = None  # from-square (move, act)
    dst: str | None = None  # to-square (move, drop)
    capture: bool = False
    choice: str | None = None  # promotion or other choice (move)
    letter: str | None = None  # hand piece (drop)


def gesture(text: str) -> Gesture | None:
    """The gesture a move text stands for, or ``None`` if it is not in gesture notation."""
    if text == "pass":
        return Gesture("pass")
    if m := _MOVE.fullmatch(text):
        return Gesture("move", m[1], m[3], m[2] == "x", m[4])
    if m := _DROP.fullmatch(text):
        return Gesture("drop", None, m[2], letter=m[1])
    if _ACT.fullmatch(text):
        return Gesture("act", text)
    if m := _NAMED_ACT.fullmatch(text):
        return Gesture("act", m[1])
    if m := _UCI.fullmatch(text):
        return Gesture("move", m[1], m[2], choice=m[3])
    return None


def piece(
    seat: int | None,
    kind: str,
    label: str,
    glyph: str = "",
    *,
    shape: str = "disc",
    fill: str | None = None,
    promoted: bool = False,
    hidden: bool = False,
) -> Json:
    """One piece of the description (a face-down piece: ``hidden=True``, with no kind)."""
    return {
        "seat": seat,
        "kind": kind,
        "label": label,
        "glyph": glyph,
        "shape": shape,
        "fill": fill,
        "promoted": promoted,
        "hidden": hidden,
    }


def describe(
    *,
    files: int,
    ranks: int,
    seats: Sequence[Mapping[str, str]],
    pieces: Mapping[str, Json],
    terrain: Mapping[str, Mapping[str, str]] | None = None,
    cells: Mapping[str, Iterable[str]] | None = None,
    checkered: bool = False,
    style: str = "cells",
    links: Sequence[tuple[str, str]] = (),
    breaks: Sequence[tuple[str, str]] = (),
    hands: Mapping[int, Sequence[Json]] | None = None,
    last: Sequence[str] = (),
    marks: Mapping[str, str] | None = None,
    status: str = "",
    **extras: Any,
) -> Json:
    """The ``view["grid"]`` of a position; :func:`check` holds it to the contract. ``extras``
    are the keys of :data:`EXTRAS`, each left out when empty."""
    unknown = set(extras) - EXTRAS
    if unknown:
        raise TypeError(f"describe() got unknown keys {sorted(unknown)}")
    return {
        "files": files,
        "ranks": ranks,
        "style": style,
        "checkered": checkered,
        "links": [list(pair) for pair in links],
        "breaks": [list(pair) for pair in breaks],
        "terrain": {k: dict(v) for k, v in (terrain or {}).items()},
        "cells": {sq: list(t) for sq, t in (cells or {}).items()},
        "seats": [dict(s) for s in seats],
        "pieces": dict(pieces),
        "hands": {str(s): list(h) for s, h in (hands or {}).items()},
        "last": list(last),
        "marks": dict(marks or {}),
        "status": status,
        **{k: v for k, v in extras.items() if v},
    }


class BadBoard(ValueError):
    """A board description that breaks the contract (what is wrong, where)."""


_KEYS = {
    "files",
    "ranks",
    "style",
    "checkered",
    "links",
    "breaks",
    "terrain",
    "cells",
    "seats",
    "pieces",
    "hands",
    "last",
    "marks",
    "status",
}
#: the keys a description may carry beyond :data:`_KEYS` (the module's docstring)
EXTRAS = frozenset({"fog", "own_last", "arrows", "premoves", "palette", "facts", "said"})
_PIECE_KEYS = {"seat", "kind", "label", "glyph", "shape", "fill", "promoted", "hidden"}
_HAND_KEYS = {"kind", "label", "glyph", "letter", "count"}


def check(desc: Any, n_seats: int) -> None:
    """Raise :class:`BadBoard` unless ``desc`` is a well-formed description for ``n_seats``."""
    if not isinstance(desc, dict) or not _KEYS <= set(desc) <= _KEYS | EXTRAS:
        got = sorted(desc) if isinstance(desc, dict) else type(desc).__name__
        raise BadBoard(
            f"a description has exactly the keys {sorted(_KEYS)} (and any of "
            f"{sorted(EXTRAS)}), got {got}"
        )
    files, ranks = desc["files"], desc["ranks"]
    if not (isinstance(files, int) and 1 <= files <= MAX_FILES):
        raise BadBoard(f"files must be 1..{MAX_FILES}, got {files!r}")
    if not (isinstance(ranks, int) and 1 <= ranks <= MAX_RANKS):
        raise BadBoard(f"ranks must be 1..{MAX_RANKS}, got {ranks!r}")

    def square(text: Any, where: str) -> None:
        try:
            parse_square(text, files, ranks)
        except (ValueError, TypeError) as e:
            raise BadBoard(f"{where}: {e}") from None

    if not isinstance(desc["checkered"], bool):
        raise BadBoard("checkered must be true or false")
    if desc["style"] not in STYLES:
        raise BadBoard(f"style must be one of {STYLES}, got {desc['style']!r}")
    for what in ("links", "breaks"):
        for pair in desc[what]:
            if not (isinstance(pair, list) and len(pair) == 2):
                raise BadBoard(f"{what}: each is a pair of squares, got {pair!r}")
            for sq in pair:
                square(sq, what)
    for a, b in desc["breaks"]:
        (fa, ra), (fb, rb) = parse_square(a, files, ranks), parse_square(b, files, ranks)
        if abs(fa - fb) + abs(ra - rb) != 1:
            raise BadBoard(f"breaks: {a} and {b} are not neighbours on a file or rank")
    for name, t in desc["terrain"].items():
        if not _WORD.fullmatch(name) or not isinstance(t, dict) or not t.get("label"):
            raise BadBoard(f"terrain {name!r} needs a lower-case name and a label")
        if "fill" in t and not _COLOUR.fullmatch(str(t["fill"])):
            raise BadBoard(f"terrain {name!r}: fill must be #rrggbb")
    for sq, names in desc["cells"].items():
        square(sq, "cells")
        for name in names:
            if name not in desc["terrain"] and not _WORD.fullmatch(str(name)):
                raise BadBoard(f"cell {sq}: {name!r} is neither a terrain nor a word")
    seats = desc["seats"]
    if len(seats) != n_seats:
        raise BadBoard(f"{len(seats)} seats described, the game has {n_seats}")
    for i, s in enumerate(seats):
        if s.get("edge") not in EDGES or not s.get("name"):
            raise BadBoard(f"seat {i}: needs a name and an edge in {EDGES}")
        if not _COLOUR.fullmatch(str(s.get("colour"))):
            raise BadBoard(f"seat {i}: colour must be #rrggbb")
    for sq, p in desc["pieces"].items():
        square(sq, "pieces")
        if not isinstance(p, dict) or set(p) != _PIECE_KEYS:
            raise BadBoard(f"piece on {sq}: exactly the keys {sorted(_PIECE_KEYS)}")
        if p["hidden"]:
            if p["kind"] or p["glyph"]:
                raise BadBoard(f"face-down piece on {sq} shows its kind")
        elif not (p["kind"] and p["label"]):
            raise BadBoard(f"piece on {sq} needs a kind and a label")
        if p["seat"] is not None and not (isinstance(p["seat"], int) and 0 <= p["seat"] < n_seats):
            raise BadBoard(f"piece on {sq}: seat {p['seat']!r} is not a seat")
        if p["shape"] not in SHAPES:
            raise BadBoard(f"piece on {sq}: shape {p['shape']!r} not in {SHAPES}")
        if p["fill"] is not None and not _COLOUR.fullmatch(str(p["fill"])):
            raise BadBoard(f"piece on {sq}: fill must be #rrggbb or null")
    for seat, hand in desc["hands"].items():
        if not (seat.isdigit() and int(seat) < n_seats):
            raise BadBoard(f"hand of {seat!r}: not a seat")
        for entry in hand:
            if set(entry) != _HAND_KEYS or not (
                isinstance(entry["count"], int) and entry["count"] > 0
            ):
                raise BadBoard(f"hand of seat {seat}: entries have {sorted(_HAND_KEYS)}, count > 0")
            if not _DROP.fullmatch(f"{entry['letter']}*a1"):
                raise BadBoard(
                    f"hand of seat {seat}: letter {entry['letter']!r} is not a drop letter"
                )
    for sq in (*desc["last"], *desc.get("fog", ()), *desc.get("own_last", ())):
        square(sq, "last, fog, own_last")
    for arrow in desc.get("arrows", ()):
        if not (isinstance(arrow, list) and len(arrow) == 3):
            raise BadBoard(f"arrows: each is [from, to, seat], got {arrow!r}")
        square(arrow[0], "arrows")
        square(arrow[1], "arrows")
    for sq, dests in desc.get("premoves", {}).items():
        for one in (sq, *dests):
            square(one, "premoves")
    for colour in desc.get("palette", {}).values():
        if not _COLOUR.fullmatch(str(colour)):
            raise BadBoard("palette: colours must be #rrggbb")
    for fact in desc.get("facts", ()):
        if not (isinstance(fact, dict) and isinstance(fact.get("text"), str)):
            raise BadBoard(f"facts: each has a text, got {fact!r}")
    for sq in desc["marks"]:
        square(sq, "marks")
    if not isinstance(desc["status"], str):
        raise BadBoard("status must be a string")


def check_gestures(desc: Json, legal: Iterable[str]) -> None:
    """Raise :class:`BadBoard` unless every legal text is a gesture on this board whose
    squares exist and whose from-square holds a piece (a drop's letter is in the hand)."""
    files, ranks = desc["files"], desc["ranks"]
    for text in legal:
        g = gesture(text)
        if g is None:
            raise BadBoard(f"legal move {text!r} is not in gesture notation")
        for sq in (g.src, g.dst):
            if sq is not None:
                try:
                    parse_square(sq, files, ranks)
                except ValueError as e:
                    raise BadBoard(f"legal move {text!r}: {e}") from None
        if g.kind == "move" and g.src not in desc["pieces"]:
            raise BadBoard(f"legal move {text!r} starts from an empty square")
        if g.kind == "drop":
            letters = {e["letter"] for hand in desc["hands"].values() for e in hand}
            if g.letter not in letters:
                raise BadBoard(f"legal drop {text!r}: no {g.letter!r} in any hand")
