"""BanQi's board described (:mod:`..grid`): face-down discs as face-down pieces (no kind), the
colours named on the seats once the first flip decides them, the last action marked."""

from __future__ import annotations

from .. import grid, grid_views
from ..base import Json, Outcome
from .board import COLOUR_NAMES, SQUARES, TYPE_NAMES, colour_of
from .values import BanqiState

#: the seats' colours on the board (XiangQi's red and black); before the first flip: none
COLOURS = ("#c0392b", "#222222")
UNDECIDED = "#8d6e63"
LETTERS = {t: t.upper() for t in TYPE_NAMES}
ORDER = "gaerhcs"


def _piece(ch: str, colours: tuple[int, ...] | None) -> Json:
    colour = colour_of(ch)
    seat = colours.index(colour) if colours is not None else None
    kind = TYPE_NAMES[ch.lower()]
    return grid.piece(seat, kind, f"{COLOUR_NAMES[colour]} {kind}", LETTERS[ch.lower()])


def said(view: Json) -> str:
    """The last action in words: ``flipped c3: red cannon``, ``a1xa2: took the black horse``."""
    ev, last = view["last_event"], view["last_move"] or ""
    if ev and ev["type"] == "flip":
        return f"flipped {ev['square']}: {ev['piece']['colour']} {ev['piece']['type']}"
    if ev and ev["type"] == "capture":
        return f"{last}: took the {ev['piece']['colour']} {ev['piece']['type']}"
    return last


def describe(state: BanqiState, view: Json, outcome: Outcome | None) -> Json:
    """The description, from the state and the rest of its (public) view."""
    colours = state.colours
    names: tuple[str, ...]
    if colours is None:
        seats = grid_views.seats(("First", UNDECIDED, "south"), ("Second", UNDECIDED, "north"))
        names = ("First", "Second")
    else:
        names = tuple(COLOUR_NAMES[c].capitalize() for c in colours)
        seats = grid_views.seats(
            (names[0], COLOURS[colours[0]], "south"), (names[1], COLOURS[colours[1]], "north")
        )
    pieces: dict[str, Json] = {}
    for sq, ch in enumerate(state.board):
        if sq in state.hidden:
            pieces[SQUARES.name(sq)] = grid.piece(None, "", "face-down piece", hidden=True)
        elif ch != grid.EMPTY:
            pieces[SQUARES.name(sq)] = _piece(ch, colours)
    last = state.last_move
    marks: dict[str, str] = {}
    ev = view["last_event"]
    if ev and ev["type"] in ("flip", "capture"):
        marks[ev["square"]] = ev["type"]
    counters = view["counters"]
    quiet = str(counters["quiet"])
    if view["draw_plies"]:
        quiet = f"{quiet} of {view['draw_plies']}"
    decided = f"{names[0]}: first seat, {names[1]}: second seat"
    facts = [
        {"label": "Colours", "text": "decided by the first flip" if colours is None else decided},
        {"label": "Face-down", "text": str(counters["hidden"]), "name": "face-down"},
        {"label": "Quiet moves", "text": quiet, "name": "quiet"},
        {"label": "Rules", "text": f"{view['variant']}, cannon {view['cannon_quiet']}"},
    ]
    if last is not None:
        facts.append({"label": "Last action", "text": said(view), "name": "last-action"})
    for colour, name in enumerate(COLOUR_NAMES):
        lost = sorted(
            (ch.lower() for ch in state.captured if colour_of(ch) == colour), key=ORDER.index
        )
        words = ", ".join(TYPE_NAMES[t] for t in lost) or "nothing"
        facts.append({"label": f"{name.capitalize()} lost", "text": words})
    reasons = {outcome.reason: outcome.reason.replace("_", " ")} if outcome else {}
    moved = [] if last is None else [last.src] if last.dst is None else [last.src, last.dst]
    return grid.describe(
        files=SQUARES.files,
        ranks=SQUARES.ranks,
        seats=seats,
        pieces=pieces,
        last=[SQUARES.name(sq) for sq in moved],
        marks=marks,
        status=grid_views.status(names, state.to_move, outcome, reasons),
        facts=facts,
        said=said(view),
    )
