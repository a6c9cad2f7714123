"""The board description (:mod:`.grid`) of the games played with chess figures on a checkered
board — chess, Dark Chess, Apocalypse: White at the south edge and Black at the north, the
figures (pieces of shape ``figure``), the squares' colours, and where a waiting figure may be
premoved (lichess's rule: by the way it moves, whatever stands in between)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import grid, grid_views
from .base import Outcome
from .grid import FILES, Json

SEATS = grid_views.seats(("White", "#f4f1ea", "south"), ("Black", "#222222", "north"))
SIDES = ("white", "black")
#: the squares' colours (lichess's brown board)
PALETTE = {"light": "#efd9b4", "dark": "#b58863"}
#: a figure's name by its letter
NAMES = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
#: what an unseen square holds in a Dark Chess FEN
UNSEEN = "?"


def placement(fen: str) -> dict[str, str]:
    """Square -> letter (``?``: unseen) from a FEN's first field."""
    out: dict[str, str] = {}
    for i, row in enumerate(fen.split(" ")[0].split("/")):
        rank, file = 8 - i, 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                out[f"{FILES[file]}{rank}"] = ch
                file += 1
    return out


def figure(ch: str, names: Mapping[str, str] = NAMES) -> Json:
    """The piece of the description for a letter (upper case: White's)."""
    seat = 0 if ch.isupper() else 1
    kind = names[ch.lower()]
    return grid.piece(seat, kind, f"{SIDES[seat]} {kind}", ch.upper(), shape="figure")


#: the figures of :data:`NAMES`, made once: a description shares them (nobody changes a view)
_FIGURES = {ch: figure(ch) for name in NAMES for ch in (name, name.upper())}


def figures(board: Mapping[str, str], names: Mapping[str, str] = NAMES) -> dict[str, Json]:
    """The description's pieces of a square -> letter map (unseen squares left out)."""
    made = _FIGURES if names is NAMES else {ch: figure(ch, names) for ch in set(board.values())}
    return {sq: made[ch] for sq, ch in board.items() if ch != UNSEEN}


def _reaches(board: Mapping[str, str], ch: str, f: int, r: int, f2: int, r2: int) -> bool:
    """Whether the figure ``ch`` on (f, r) moves to (f2, r2) on an empty 8x8 board (a pawn
    also diagonally; a king from its first square also two files aside or onto a rook)."""
    white = ch.isupper()
    kind = ch.lower()
    df, dr = abs(f2 - f), r2 - r
    adr = abs(dr)
    home = 0 if white else 7
    if kind == "p":
        fwd = 1 if white else -1
        double = r == home + fwd and dr == 2 * fwd
        return (df == 0 and (dr == fwd or double)) or (df == 1 and dr == fwd)
    if kind == "n":
        return df * adr == 2
    if kind == "b":
        return df == adr
    if kind == "r":
        return df == 0 or adr == 0
    if kind == "q":
        return df == adr or df == 0 or adr == 0
    rook = board.get(f"{FILES[f2]}{r2 + 1}") == ("R" if white else "r")
    return (df <= 1 and adr <= 1) or (r == home and r2 == home and (df == 2 or rook))


def _targets(board: Mapping[str, str], ch: str, sq: str) -> list[str]:
    f, r = FILES.index(sq[0]), int(sq[1:]) - 1
    return [
        f"{FILES[f2]}{r2 + 1}"
        for f2 in range(8)
        for r2 in range(8)
        if (f2, r2) != (f, r) and _reaches(board, ch, f, r, f2, r2)
    ]


#: a figure's premove squares by its letter and square (a king on its first rank: and that
#: rank, for its rooks), made on first use: a description shares them (nobody changes a view)
_TARGETS: dict[tuple[str, ...], list[str]] = {}


def premoves(board: Mapping[str, str], white: bool | None = None) -> dict[str, list[str]]:
    """Where each figure of ``white``'s side (None: of both sides) may be premoved (8x8)."""
    out: dict[str, list[str]] = {}
    for sq, ch in board.items():
        if ch == UNSEEN or (white is not None and ch.isupper() != white):
            continue
        key: tuple[str, ...] = (ch, sq)
        home = "1" if ch == "K" else "8"
        if ch in "Kk" and sq[1:] == home:
            key = (ch, sq, "".join(board.get(f + home, "") for f in FILES[:8]))
        targets = _TARGETS.get(key)
        if targets is None:
            targets = _TARGETS[key] = _targets(board, ch, sq)
        out[sq] = targets
    return out


def status(to_move: int, outcome: Outcome | None, *, check: bool = False) -> str:
    """``White to move``, ``White to move — check!``, ``Black wins: checkmate``."""
    reasons = {outcome.reason: outcome.reason.replace("_", " ")} if outcome else {}
    line = grid_views.status(("White", "Black"), to_move, outcome, reasons)
    return f"{line} — check!" if check and outcome is None else line


def move_squares(text: str | None) -> list[str]:
    """The from- and to-square of a move in squares (``e2e4``, ``e7e8q``)."""
    if not text:
        return []
    return [text[:2], text[2:4]]


def describe(
    board: Mapping[str, str],
    *,
    size: int = 8,
    names: Mapping[str, str] = NAMES,
    last: Sequence[str] = (),
    marks: Mapping[str, str] | None = None,
    status: str,
    palette: Mapping[str, str] = PALETTE,
    **extras: Any,
) -> Json:
    """The description of a position of figures (``board``: square -> letter, ``?`` for an
    unseen square); ``extras`` as :func:`.grid.describe` takes them."""
    return grid.describe(
        files=size,
        ranks=size,
        seats=SEATS,
        pieces=figures(board, names),
        checkered=True,
        last=last,
        marks=marks,
        status=status,
        palette=palette,
        **extras,
    )
