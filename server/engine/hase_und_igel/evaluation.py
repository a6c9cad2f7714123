"""Hase und Igel evaluation for the bots (seed 004: E = Ks*S + Kc*C + Kp*P per runner)."""

from __future__ import annotations

from collections.abc import Sequence

from .board import (
    PAYS,
    Layout,
    cost,
    layout,
)
from .race import CMAX, OVER, deck_cards, turns_table
from .track import race_place
from .values import HaseState, Runner

#: piece-wise linear carrot value: (up to this many carrots, value per carrot) segments
C0: tuple[tuple[float, float], ...] = ((30, 1.0), (60, 0.6), (100, 0.3), (160, 0.1))
C1: tuple[tuple[float, float], ...] = ((20, 1.0), (40, 0.5), (70, 0.2), (100, 0.0))
C1_BEYOND = -0.1  # per carrot above the last C1 segment
#: S[salads held][salad fields ahead, capped at 4]
S_TABLE: tuple[tuple[float, ...], ...] = (
    (40, 40, 40, 40, 40),
    (-40, 10, 18, 22, 24),
    (-80, -30, 2, 10, 14),
    (-120, -70, -30, -4, 4),
)
KS, KC, KP = 1.0, 1.0, 1.0
FINISH_BONUS = 50.0  # C when the runner can finish next move without excess carrots
FINISHED_BASE = 400.0  # above any runner on the track; + 50 per place better than last
HARE_PESSIMISM = 7  # move_heuristic: a hare field costs this many carrots more (seed 004)
RACE_BASE = 500.0  # search_evaluate: this minus the turn the runner expects to finish on
RACE_FINISHED = 1000.0  # search_evaluate of a finished runner: + 200 per place better than last
#: turns_left: the chance that a position field's payout due now (the runner holds the
#: position it pays for) is still paid when its next turn starts (the others move first);
#: tuned against the greedy bot: 1.0 gave 59 % firsts, 0.3 66 % (1,200 dev races each)
PAYOUT_KEPT = 0.3


def _piecewise(x: float, segments: Sequence[tuple[float, float]], beyond: float) -> float:
    value, low = 0.0, 0.0
    for high, slope in segments:
        if x <= high:
            return value + (x - low) * slope
        value += (high - low) * slope
        low = high
    return value + (x - low) * beyond


def runner_score(lay: Layout, r: Runner, place: int, n_finished: int) -> float:
    """E = Ks*S + Kc*C + Kp*P for a runner on the track, seed 004's shape.

    P = 3 x field. Carrots first get the income due at the start of the next turn (a salad to
    eat or a matching position field: 10 x place). C then depends on the phase: C2 when the
    runner has no salads and can pay the move into the goal: FINISH_BONUS minus a penalty that
    grows with the excess (e = carrots left after that move above 10 x (finished + 1):
    penalty e + e^2/40); else C0 (first half of the board, each carrot worth less as the
    stock grows: 1.0 up to 30, 0.6 to 60, 0.3 to 100, 0.1 to 160, 0 beyond) or C1 (second
    half, faster decline: 1.0 to 20, 0.5 to 40, 0.2 to 70, 0 to 100, -0.1 beyond). S is a
    table over salads held (0-3) x salad fields still ahead (0-4+): no salad left is best; a
    salad with few or no salad fields ahead is a heavy debt. A missed turn ahead costs 8.
    """
    carrots = r.carrots
    cell = lay.cells[r.field]
    if (r.pending == "eat" and r.salads > 0) or (r.arrived and place in PAYS.get(cell, ())):
        carrots += 10 * place
    salads = r.salads - (1 if r.pending == "eat" and r.salads > 0 else 0)
    distance = lay.goal - r.field
    if salads == 0 and carrots >= cost(distance):
        excess = max(0, carrots - cost(distance) - 10 * (n_finished + 1))
        c = FINISH_BONUS - excess - excess * excess / 40
    elif 2 * r.field < lay.goal:
        c = _piecewise(carrots, C0, 0.0)
    else:
        c = _piecewise(carrots, C1, C1_BEYOND)
    s = S_TABLE[min(salads, 3)][min(lay.salads_ahead[r.field], 4)]
    p = 3.0 * r.field - (8.0 if r.pending == "miss" else 0.0)
    return KS * s + KC * c + KP * p


def turns_left(state: HaseState, seat: int) -> float:
    """The expected turns ``seat``'s runner (on the track) needs to finish, alone on the
    board (:func:`.race.turns_table`), counting what is already due: a position field's
    payout (with the chance :data:`PAYOUT_KEPT`) and a salad to eat at the start of its next
    turn (10 x its race position now), a missed turn, and the take-or-give choice it is
    making (the best of the three)."""
    lay = layout(state.board)
    r = state.runners[seat]
    carrots, salads, extra = r.carrots, r.salads, 0.0
    place = race_place(state.runners, seat)
    table = turns_table(
        state.board,
        deck_cards(state.deck),
        state.start_carrots,
        len(state.finished),
        len(state.runners),
    )
    pays = [p for p in PAYS.get(lay.cells[r.field], ()) if p <= len(state.runners)]
    payout = 0
    if r.arrived and place in pays:
        carrots += 10 * place
        payout = 10 * place
    if r.pending:
        extra = 1.0
        if r.pending == "eat" and salads > 0:
            salads -= 1
            carrots += 10 * place
    row = table[r.field][min(salads, 3)]

    def at(c: int) -> float:
        c = max(c, 0)
        return row[c] if c <= CMAX else row[CMAX] + OVER * (c - CMAX)

    def best(c: int) -> float:
        if state.decision == "take_give" and state.current == seat:
            return min([at(c + 10), at(c)] + ([at(c - 10)] if c >= 10 else []))
        return at(c)

    if payout:  # the payout due, with the chance it is still due when its turn starts
        return extra + PAYOUT_KEPT * best(carrots) + (1.0 - PAYOUT_KEPT) * best(carrots - payout)
    return extra + best(carrots)


def finish_turn(state: HaseState, seat: int) -> float:
    """The turn (the seat's own turn counter, forced turns included) on which ``seat``'s
    runner expects to finish: the turns it has had plus :func:`turns_left`. Searches compare
    positions after different forced turns (a salad eaten, a turn missed) by it."""
    used = state.turns[seat] if state.turns else 0
    if state.current == seat and not state.decision:
        used -= 1  # the turn it is deciding now is counted in turns_left
    return used + turns_left(state, seat)
