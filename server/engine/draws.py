"""The bounded draws of games that can cycle: a position repeated, or too long without progress.

A game whose play can go round in circles ends it with one or both of two draws (docs/GAMES.md
says which, per game):

* **repetition**: the same position (the game's key of it: the board and the seat to move, as a
  rule) for the third time since the last irreversible move;
* **no progress**: ``draw_plies`` plies (an option; 0 turns it off) in a row without progress
  (a capture, a flip, a conversion: whatever the game cannot undo).

The state keeps three fields for them: ``quiet`` (plies in a row without progress),
``history`` (the position keys since the last progress, the current one last: a move that
cannot be undone makes every earlier position unreachable) and ``draw_plies`` (the option).
:func:`after` moves the first two on, :func:`drawn` reads the end, :func:`counters` shows them
in the view and :func:`progress_option` is the option.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from .base import Json, Option, Outcome


class Counted(Protocol):
    """What the draw rules read of a state."""

    @property
    def quiet(self) -> int: ...

    @property
    def history(self) -> Sequence[Hashable]: ...

    @property
    def draw_plies(self) -> int: ...


def progress_option(
    default: int, without: str = "a capture", *, unit: str = "plies", minimum: int = 0
) -> Option:
    """The ``draw_plies`` option: that many ``unit`` in a row ``without`` progress draw (0,
    when ``minimum`` allows it: never)."""
    never = " (0: never)" if minimum == 0 else ""
    return Option(
        "int",
        default,
        f"Draw after this many {unit} in a row without {without}{never}",
        minimum=minimum,
        maximum=1000,
    )


def after(state: Counted, key: Hashable, progress: bool) -> dict[str, Any]:
    """The ``quiet`` and ``history`` of the state a move leads to (keyword arguments for its
    constructor): ``key`` is the new position's; ``progress``, whether the move made any."""
    if progress:
        return {"quiet": 0, "history": (key,)}
    return {"quiet": state.quiet + 1, "history": (*state.history, key)}


def repetitions(history: Sequence[Hashable]) -> int:
    """How often the current position (the last key) has stood since the last progress."""
    return history.count(history[-1]) if history else 1


def counters(state: Counted) -> Json:
    """The view's ``counters``: the quiet plies and the current position's repetitions."""
    return {"quiet": state.quiet, "repetitions": repetitions(state.history)}


def drawn(state: Counted, n_seats: int = 2, *, repetition: bool = True) -> Outcome | None:
    """The draw, if any: threefold ``repetition`` (when the game has that rule), then
    ``no_progress`` (when ``draw_plies`` is on)."""
    if repetition and repetitions(state.history) >= 3:
        return Outcome.draw(n_seats, "repetition")
    if state.draw_plies and state.quiet >= state.draw_plies:
        return Outcome.draw(n_seats, "no_progress")
    return None
