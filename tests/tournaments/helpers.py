"""Building tournaments for the tests: specs, entrants, and a driver that folds what the
tournament decides (as the net does: decide, then fold) and keeps the log's records."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from server.tournaments import Entrant, Spec, Tournament, TournamentEvent, Waiting, arena

T0 = 1_000_000.0


def spec(system: str = "arena", **over: Any) -> Spec:
    raw: dict[str, Any] = {
        "name": "Friday blitz",
        "game": "chess",
        "system": system,
        "clock": {"base": 60, "increment": 0},
    }
    if system == "arena":
        raw["minutes"] = 30
    elif system == "swiss":
        raw["rounds"] = 5
    if system != "arena":  # the rounds follow each other at once (test_interlude.py pauses)
        raw["interlude"] = 0
    raw["starts_at"] = T0 + 60
    raw.update(over)
    raw = {k: v for k, v in raw.items() if v is not None}
    return Spec.parse(raw, id="t1", creator="u:Creator", now=T0)


def person(name: str, rating: float = 1500.0) -> Entrant:
    return Entrant(f"u:{name}", name, rating)


class Driver:
    """A tournament with its log: every decision's events are recorded and folded."""

    def __init__(self, s: Spec, seed: int = 1) -> None:
        self.t, events = Tournament.create(s, T0)
        self.records = [e.to_record() for e in events]
        self.rng = random.Random(seed)
        self.now = T0

    def apply(self, events: Iterable[TournamentEvent]) -> list[TournamentEvent]:
        out = list(events)
        for e in out:
            self.records.append(e.to_record())
            self.t.fold(e)
        return out

    def join(self, *entrants: Entrant) -> None:
        for e in entrants:
            self.apply(self.t.join(e, self.now))

    def tick(self, at: float | None = None, busy: set[str] | None = None) -> list[TournamentEvent]:
        if at is not None:
            self.now = at
        return self.apply(self.t.tick(self.now, busy or set(), self.rng))

    def start(self) -> list[TournamentEvent]:
        return self.tick(T0 + 60)

    def finish(self, room: str, ranks: list[int] | None, dt: float = 1.0) -> list[TournamentEvent]:
        self.now += dt
        return self.apply(self.t.result(room, ranks, "checkmate" if ranks else "aborted", self.now))

    def ongoing(self) -> list[tuple[str, tuple[str, ...]]]:
        return [(g.room, g.players) for g in self.t.games.values() if not g.over]

    def win(self, winner: str, dt: float = 1.0) -> list[TournamentEvent]:
        """``winner`` (a key) wins their current game."""
        room = self.t.current[winner]
        players = self.t.games[room].players
        return self.finish(room, [0 if k == winner else 1 for k in players], dt)

    def draw(self, key: str, dt: float = 1.0) -> list[TournamentEvent]:
        room = self.t.current[key]
        return self.finish(room, [0] * len(self.t.games[room].players), dt)

    def replayed(self) -> Tournament:
        return Tournament.replay(self.records)


def old_levels(order: Sequence[Waiting], size: int, patient: arena.Patient) -> list[arena.Fits]:
    """The rule before: nobody beside a player of their last table unless both waited
    REPEAT_WAIT, whatever the table's size (a table's worth of free players waited)."""

    def fresh(t: Sequence[int]) -> bool:
        return all(arena._fresh(order[a], order[b]) for a, b in combinations(t, 2))

    def again(t: Sequence[int]) -> bool:
        return all(
            arena._fresh(order[a], order[b]) or (patient(order[a]) and patient(order[b]))
            for a, b in combinations(t, 2)
        )

    return [fresh, again]
