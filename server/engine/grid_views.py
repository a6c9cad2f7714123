"""What the views of grid games share: their seats, the last move's squares, the status line
and the description of a board of fixed squares (the format is :mod:`.grid`'s)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .base import Outcome
from .grid import Json, Place, Squares, Step, describe, piece


def marked(move: Step | Place | None) -> tuple[str, ...]:
    """The squares of the last move for the description's ``last`` (none before the first)."""
    if isinstance(move, Place):
        return (move.squares.name(move.dst),)
    if move is None or move.is_pass:
        return ()
    return (move.squares.name(move.src), move.squares.name(move.dst))


def seats(*seats: tuple[str, str, str]) -> tuple[Json, ...]:
    """The description's ``seats`` from ``(name, colour, edge)`` triples, in seat order."""
    return tuple({"name": name, "colour": colour, "edge": edge} for name, colour, edge in seats)


#: the seats of a game of black and white stones (Kono, Ming-Mang): Black at the south edge,
#: White at the north; and the stone of each
STONE_SEATS = (
    {"name": "Black", "colour": "#222222", "edge": "south"},
    {"name": "White", "colour": "#f4f1ea", "edge": "north"},
)
STONES = tuple(piece(s, "stone", f"{seat['name']} stone") for s, seat in enumerate(STONE_SEATS))


def describe_board(
    squares: Squares,
    seats: Sequence[Mapping[str, str]],
    pieces: Mapping[str, Json],
    *,
    move: Step | Place | None,
    status: str,
    **more: Any,
) -> Json:
    """:func:`describe` for a board of fixed ``squares`` whose last move was ``move`` (its
    squares are marked); ``more`` are :func:`describe`'s other keywords."""
    return describe(
        files=squares.files,
        ranks=squares.ranks,
        seats=seats,
        pieces=pieces,
        last=marked(move),
        status=status,
        **more,
    )


def status(
    names: Sequence[str],
    to_move: int,
    outcome: Outcome | None,
    reasons: Mapping[str, str],
    *,
    loser_has: bool = False,
) -> str:
    """The description's status line in a game of turns: ``Red to move``, ``Draw: threefold
    repetition``, ``Red wins: a piece entered the den`` (with ``loser_has``, two seats:
    ``Black wins: White has no legal move``); ``reasons`` words each outcome's reason."""
    if outcome is None:
        return f"{names[to_move]} to move"
    why = reasons[outcome.reason]
    if outcome.winner is None:
        return f"Draw: {why}"
    if loser_has:
        why = f"{names[1 - outcome.winner]} has {why}"
    return f"{names[outcome.winner]} wins: {why}"
