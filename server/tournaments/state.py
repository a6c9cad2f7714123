"""The state of a tournament and its fold: what its events make of it.

:class:`State` holds the players (:class:`~server.tournaments.records.Player`), the games
(:class:`~server.tournaments.records.GameRecord`), the status and the round, and
:meth:`State.fold` is the one place they change (one method per event kind, :data:`_FOLDS`).
The decisions are :class:`~server.tournaments.tournament.Tournament`'s; the time-driven
steps :mod:`~server.tournaments.progress`'s, the view :mod:`~server.tournaments.view`'s: both
read a state and change nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .records import ABORTED, BYE, FORFEIT_LOSS, FORFEIT_WIN, REST, GameRecord, Mark, Player
from .scoring import arena_points, game_score, next_streak, outcome
from .spec import Spec
from .values import Entrant, Json, TournamentEvent

UPCOMING, RUNNING, FINISHED, CANCELLED = "upcoming", "running", "finished", "cancelled"


class State:
    """A tournament's state (see the module docstring)."""

    def __init__(self, spec: Spec, created_at: float) -> None:
        self.spec = spec
        self.created_at = created_at
        self.status = UPCOMING
        self.version = 0
        self.started_at: float | None = None
        self.ends_at: float | None = None  # an arena's end
        self.finished_at: float | None = None
        self.end_reason: str | None = None
        self.players: dict[str, Player] = {}  # in the order they joined
        self.games: dict[str, GameRecord] = {}  # in the order they were paired
        self.current: dict[str, str] = {}  # player -> the room of their unfinished game
        self.order: list[str] = []  # swiss/round robin: the players by starting rank
        self.round = 0
        self.rounds: int | None = spec.rounds
        #: swiss/round robin: the pairs (seat order) of the round announced and not seated
        #: yet, and when they are seated (the interlude's end)
        self.pending: list[tuple[str, ...]] = []
        self.next_round_at: float | None = None
        self.last_at = created_at  # the time of the last event folded
        #: when :meth:`tick` last looked, and the version it saw (not state: only ``due``
        #: reads them, so that what a tick found nothing to do with is not due again)
        self.ticked = float("-inf")
        self.ticked_version = -1

    def fold(self, event: TournamentEvent) -> None:
        """Fold one event in (the one place the state changes)."""
        _FOLDS[event.kind](self, event.data, event.at)
        self.version += 1
        self.last_at = event.at

    # -- facts ----------------------------------------------------------------------------

    @property
    def arena(self) -> bool:
        return self.spec.system == "arena"

    def active(self) -> list[Player]:
        """Players not paused (arena) or withdrawn (swiss, round robin)."""
        return [p for p in self.players.values() if not p.paused]

    def pending_pair(self, key: str) -> tuple[str, ...] | None:
        """``key``'s pair of the round announced and not seated yet, or None."""
        return next((pair for pair in self.pending if key in pair), None)

    def current_game(self, key: str) -> Json | None:
        """``{"room", "seat"}`` of ``key``'s unfinished game, or None."""
        room = self.current.get(key)
        if room is None:
            return None
        return {"room": room, "seat": self.games[room].players.index(key)}

    # -- folds ------------------------------------------------------------------------------

    def _joined(self, d: Mapping[str, Any], at: float) -> None:
        entrant = Entrant.from_json(d["entrant"])
        self.players[entrant.key] = Player(entrant, at, since=at)

    def _withdrew(self, d: Mapping[str, Any], at: float) -> None:
        if self.status == UPCOMING:
            del self.players[d["key"]]
        else:
            self.players[d["key"]].paused = True

    def _returned(self, d: Mapping[str, Any], at: float) -> None:
        p = self.players[d["key"]]
        p.paused = False
        p.since = at

    def _cancelled(self, d: Mapping[str, Any], at: float) -> None:
        self.status = CANCELLED
        self.end_reason = d.get("reason")
        self.finished_at = at

    def _started(self, d: Mapping[str, Any], at: float) -> None:
        self.status = RUNNING
        self.started_at = at
        self.order = list(d.get("order", ()))
        if self.arena:
            assert self.spec.duration_s is not None
            self.ends_at = at + self.spec.duration_s
            for p in self.players.values():
                p.since = at
        elif self.spec.system == "round_robin":
            self.rounds = len(self.order) - 1 + len(self.order) % 2

    def _round(self, d: Mapping[str, Any], at: float) -> None:
        self.round = n = int(d["round"])
        system_bye = BYE if self.spec.system == "swiss" else REST
        for key in d.get("byes", ()):
            p = self.players[key]
            points = 1.0 if system_bye == BYE else 0.0
            p.sheet.append(Mark(system_bye, points, round=n))
            p.points += points
            p.byes += 1
            p.colours.append("-")
        for winner, loser in d.get("forfeits", ()):
            for key, mark, points in ((winner, FORFEIT_WIN, 1.0), (loser, FORFEIT_LOSS, 0.0)):
                p = self.players[key]
                other = loser if key == winner else winner
                p.sheet.append(Mark(mark, points, round=n, opponents=(other,)))
                p.points += points
                p.colours.append("-")
        if "pairs" in d:  # announced: seated at ``starts_at`` (the interlude's end)
            self.pending = [tuple(pair) for pair in d["pairs"]]
            self.next_round_at = float(d.get("starts_at", at))

    def _forfeit(self, d: Mapping[str, Any], at: float) -> None:
        """A pair of the announced round that is not seated: who withdrew during the
        interlude loses it, the other wins it (as a round robin's game not played)."""
        pair, absent, n = tuple(d["players"]), set(d["absent"]), int(d["round"])
        for key in pair:
            p = self.players[key]
            others = tuple(k for k in pair if k != key)
            mark, points = (FORFEIT_LOSS, 0.0) if key in absent else (FORFEIT_WIN, 1.0)
            p.sheet.append(Mark(mark, points, round=n, opponents=others))
            p.points += points
            p.colours.append("-")
        self._seated(pair)

    def _seated(self, pair: tuple[str, ...]) -> None:
        if pair in self.pending:
            self.pending.remove(pair)
        if not self.pending:
            self.next_round_at = None

    def _paired(self, d: Mapping[str, Any], at: float) -> None:
        keys = tuple(d["players"])
        room = d["room"]
        self.games[room] = GameRecord(room, keys, d.get("round"), at)
        for seat, key in enumerate(keys):
            p = self.players[key]
            self.current[key] = room
            p.last = frozenset(keys) - {key}
            if len(keys) == 2:
                p.colours.append("wb"[seat])
        self._seated(keys)

    def _berserk(self, d: Mapping[str, Any], at: float) -> None:
        self.games[d["room"]].berserk.add(d["key"])

    def _result(self, d: Mapping[str, Any], at: float) -> None:
        game = self.games[d["room"]]
        game.over = True
        game.ended_at = at
        game.reason = d["reason"]
        ranks = None if d["ranks"] is None else tuple(d["ranks"])
        game.ranks = ranks
        for seat, key in enumerate(game.players):
            p = self.players[key]
            if self.current.get(key) == game.room:
                del self.current[key]
            p.since = at
            others = tuple(k for k in game.players if k != key)
            if ranks is None:
                p.sheet.append(Mark(ABORTED, 0, game.room, game.round, others))
                continue
            if self.arena:
                berserked = key in game.berserk
                s = arena_points(ranks, seat, streak=p.streak, berserked=berserked)
                mark = Mark(s.outcome, s.points, game.room, None, others, s.fire, berserked)
                p.sheet.append(mark)
                p.points += s.points
                p.streak = next_streak(p.streak, s.outcome)
            else:
                score = game_score(ranks, seat)
                p.sheet.append(Mark(outcome(ranks, seat), score, game.room, game.round, others))
                p.points += score

    def _finished(self, d: Mapping[str, Any], at: float) -> None:
        self.status = FINISHED
        self.finished_at = at
        self.end_reason = d.get("reason")


Fold = Callable[[State, Mapping[str, Any], float], None]
_FOLDS: dict[str, Fold] = {
    "joined": State._joined,
    "withdrew": State._withdrew,
    "returned": State._returned,
    "cancelled": State._cancelled,
    "started": State._started,
    "round": State._round,
    "paired": State._paired,
    "forfeit": State._forfeit,
    "berserk": State._berserk,
    "result": State._result,
    "finished": State._finished,
}
