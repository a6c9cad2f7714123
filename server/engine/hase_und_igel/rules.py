"""Hase und Igel: a turn from move to the next decision (docs/GAMES.md 4.4), leaving the race,
and positions built for tests and analysis."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from .board import (
    BOARD_1978,
    CHOICE_DELTA,
    DECK_1978,
    OUT,
    PAYS,
    TURN_CAP,
    check_board,
    cost,
    default_carrots,
    layout,
)
from .cards import draw_card
from .track import generate, race_place
from .turn import Turn
from .values import Advance, Back, CardChoice, Carrots, HaseState, Leave, Move, Runner


def apply_move(w: Turn, seat: int, move: Move) -> None:
    """Apply ``seat``'s own move (4.4 a-c, 4.4.5, 4.4.6); cards may set up more."""
    r = w.runners[seat]
    if isinstance(move, CardChoice):
        w.decision = ""
        w.gain(seat, CHOICE_DELTA[move.choice], "card_carrots", card="take_give")
    elif isinstance(move, Advance):
        paid = cost(move.n)
        w.arrive(seat, r.field + move.n, "advance", -paid)
        if w.lay.cells[r.field + move.n] == "H":
            draw_card(w, seat, paid)
    elif isinstance(move, Back):
        h = w.lay.prev_hedgehog[r.field]
        w.arrive(seat, h, "back", 10 * (r.field - h))
    elif isinstance(move, Carrots):
        w.runners[seat] = replace(r, arrived=False)
        w.gain(seat, move.delta, "carrots")


def next_turn(w: Turn, first: int | None = None) -> None:
    """Start turns, spending forced ones, until a seat must decide or the race ends."""
    extra = w.again and first is None
    w.again = False
    if first is not None:
        seat = first
    else:
        seat = w.current if extra else w.after(w.current)
    while True:
        if w.over():
            w.end, w.current, w.decision = "goal", -1, ""
            return
        if w.turns[seat] >= TURN_CAP:
            w.log(seat, "turn_cap")
            w.end, w.current, w.decision = "turn_cap", -1, ""
            return
        w.turns[seat] += 1
        if _begin(w, seat, extra):
            w.current = seat
            return
        extra = False
        seat = w.after(seat)


def _begin(w: Turn, seat: int, extra: bool) -> bool:
    """The start of ``seat``'s turn (4.4.2, 4.4.3, 4.4.7); True if it must now decide."""
    r = w.runners[seat]
    if r.arrived:
        place = race_place(w.runners, seat)
        if place in PAYS.get(w.lay.cells[r.field], ()):
            w.gain(seat, 10 * place, "payout", field=r.field, place=place)
        w.runners[seat] = r = replace(w.runners[seat], arrived=False)
    if r.pending:
        w.runners[seat] = replace(r, pending="")
        if r.pending == "eat" and r.salads > 0:
            place = race_place(w.runners, seat)
            w.runners[seat] = replace(w.runners[seat], salads=r.salads - 1)
            w.gain(seat, 10 * place, "eat", field=r.field, place=place)
        else:
            w.log(seat, "miss")
        return False
    if generate(w.lay, w.runners, len(w.finished), seat):
        return True
    if extra:
        w.log(seat, "lapse")
    else:
        w.runners[seat] = replace(r, field=0, carrots=w.start_carrots, arrived=False)
        w.log(seat, "stuck", field=0, carrots=w.start_carrots - r.carrots)
    return False


def leave_race(state: HaseState, seat: int, move: Leave, rng: random.Random) -> HaseState:
    """``seat``'s runner leaves the track (it frees its field and never acts again); if it
    was to act, the next runner's turn starts; one runner left on the track ends the race."""
    w = Turn(state, rng)
    w.out.append(seat)
    w.runners[seat] = replace(w.runners[seat], field=OUT, pending="", arrived=False)
    w.log(seat, "leave")
    if w.over():
        w.end, w.current, w.decision = move.reason, -1, ""
    elif w.current == seat:
        w.decision, w.again = "", False
        next_turn(w)
    return w.freeze(state, state.ply + 1, str(move), seat)


def position(
    runners: Sequence[Runner],
    *,
    current: int = 0,
    deck: Sequence[str] = DECK_1978,
    board: str = BOARD_1978,
    start_carrots: int | None = None,
    until: str = "all",
    finished: Sequence[int] = (),
    decision: str = "",
    turns: Sequence[int] | None = None,
    begin: bool = False,
) -> HaseState:
    """Build a state from given runners (tests, analysis). ``deck`` is used in the order
    given (top first); finished seats are put on the goal. With ``begin=True`` the start of
    ``current``'s turn is run as ``play`` would (payouts, forced turns, stuck rule)."""
    lay = layout(check_board(board))
    n = len(runners)
    rs = [replace(r, field=lay.goal) if s in finished else r for s, r in enumerate(runners)]
    state = HaseState(
        board=board,
        runners=tuple(rs),
        deck=tuple(deck),
        start_carrots=start_carrots or default_carrots(n),
        until=until,
        finished=tuple(finished),
        current=current,
        decision=decision,
        turns=tuple(turns) if turns is not None else (0,) * n,
    )
    if not begin:
        return state
    w = Turn(state, random.Random(0))
    next_turn(w, first=current)
    return w.freeze(state, 0, None, None)
