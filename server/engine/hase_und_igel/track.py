"""Hase und Igel: where runners stand (race positions, standings) and what they may do."""

from __future__ import annotations

from collections.abc import Sequence

from .board import (
    Layout,
    cost,
    max_distance,
)
from .values import Advance, Back, CardChoice, Carrots, HaseState, Move, Runner


def race_place(runners: Sequence[Runner], seat: int) -> int:
    """Race position of a runner on the track (4.4.1): finished runners sit on the goal
    field, so "1 + runners on a further field" counts them too."""
    mine = runners[seat].field
    return 1 + sum(1 for r in runners if r.field > mine)


def standings(state: HaseState) -> list[int]:
    """Race position of every seat: finishers by finishing order, the rest by 4.4.1, and
    the runners that left the race last (the first to leave last of all)."""
    out = [race_place(state.runners, s) for s in range(len(state.runners))]
    for i, s in enumerate(state.finished):
        out[s] = i + 1
    racing = len(state.runners) - len(state.out)
    for i, s in enumerate(reversed(state.out)):
        out[s] = racing + i + 1
    return out


def generate(lay: Layout, runners: Sequence[Runner], n_finished: int, seat: int) -> list[Move]:
    """The moves of ``seat`` at a normal decision (4.4 a-c, 4.4.6), in a fixed order."""
    r = runners[seat]
    pos, goal = r.field, lay.goal
    taken = {o.field for i, o in enumerate(runners) if i != seat}
    out: list[Move] = []
    for n in range(1, min(max_distance(r.carrots), goal - pos) + 1):
        t = pos + n
        if t == goal:
            if r.salads == 0 and r.carrots - cost(n) <= 10 * (n_finished + 1):
                out.append(Advance(n))
            continue
        cell = lay.cells[t]
        if t in taken or cell == "I" or (cell == "L" and r.salads == 0):
            continue
        out.append(Advance(n))
    h = lay.prev_hedgehog[pos]
    if h > 0 and h not in taken:
        out.append(Back())
    if lay.cells[pos] == "K":
        out.append(Carrots(10))
        if r.carrots >= 10:
            out.append(Carrots(-10))
    return out


def choices(r: Runner) -> list[Move]:
    if r.carrots >= 10:
        return [CardChoice("take"), CardChoice("give"), CardChoice("none")]
    return [CardChoice("take"), CardChoice("none")]
