"""Hase und Igel: one turn being worked out on a mutable copy of the state."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from .board import (
    layout,
)
from .values import Event, HaseState, Runner


class Turn:
    """A mutable scratch copy of a state while one ``play`` (or ``new``) is worked out."""

    __slots__ = (
        "again",
        "current",
        "decision",
        "deck",
        "end",
        "events",
        "finished",
        "lay",
        "out",
        "rng",
        "runners",
        "start_carrots",
        "turns",
        "until",
    )

    def __init__(self, state: HaseState, rng: random.Random) -> None:
        self.lay = layout(state.board)
        self.rng = rng
        self.runners = list(state.runners)
        self.finished = list(state.finished)
        self.out = list(state.out)
        self.deck = list(state.deck)
        self.turns = list(state.turns)
        self.current = state.current
        self.decision = state.decision
        self.start_carrots = state.start_carrots
        self.until = state.until
        self.end = state.end
        self.events: list[Event] = []
        self.again = False

    def freeze(self, state: HaseState, ply: int, move: str | None, seat: int | None) -> HaseState:
        return HaseState(
            board=state.board,
            runners=tuple(self.runners),
            deck=tuple(self.deck),
            start_carrots=self.start_carrots,
            until=self.until,
            finished=tuple(self.finished),
            out=tuple(self.out),
            current=self.current,
            decision=self.decision,
            turns=tuple(self.turns),
            ply=ply,
            end=self.end,
            last_move=move,
            last_seat=seat,
            events=tuple(self.events),
        )

    def log(self, seat: int, kind: str, **details: Any) -> None:
        self.events.append(Event(seat, kind, **details))

    def free(self, field: int, seat: int) -> bool:
        if field == 0 or field == self.lay.goal:
            return True
        return all(o.field != field for i, o in enumerate(self.runners) if i != seat)

    def gain(self, seat: int, delta: int, kind: str, **details: Any) -> None:
        r = self.runners[seat]
        self.runners[seat] = replace(r, carrots=r.carrots + delta)
        self.log(seat, kind, carrots=delta, **details)

    def arrive(self, seat: int, field: int, kind: str, delta: int = 0) -> None:
        """Put the runner on ``field`` (paying/receiving ``delta``); salad -> eat next turn."""
        r = self.runners[seat]
        pending = "eat" if self.lay.cells[field] == "L" else ""
        self.runners[seat] = replace(
            r, field=field, carrots=r.carrots + delta, arrived=True, pending=pending
        )
        self.log(seat, kind, field=field, carrots=delta)
        if field == self.lay.goal:
            self.finished.append(seat)
            self.runners[seat] = replace(self.runners[seat], pending="", arrived=False)
            self.log(seat, "finish", place=len(self.finished))

    def can_finish(self, r: Runner, carrots_after: int) -> bool:
        return r.salads == 0 and carrots_after <= 10 * (len(self.finished) + 1)

    def racing(self, seat: int) -> bool:
        """On the track: neither finished nor out of the race."""
        return seat not in self.finished and seat not in self.out

    def after(self, seat: int) -> int:
        n = len(self.runners)
        s = (seat + 1) % n
        while not self.racing(s) and s != seat:
            s = (s + 1) % n
        return s

    def over(self) -> bool:
        """The race is over: ``until: "first"`` and a runner finished, or one runner (or
        none) left on the track."""
        on_track = sum(1 for s in range(len(self.runners)) if self.racing(s))
        return on_track <= 1 or (self.until == "first" and bool(self.finished))
