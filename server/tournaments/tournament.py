"""A tournament: its players, its games and its standings, as one sans-I/O, event-sourced
state machine, like a room (:mod:`server.rooms.room`):

* **decide** — a request method (:meth:`~Tournament.join`, :meth:`~Tournament.withdraw`,
  :meth:`~Tournament.cancel`, :meth:`~Tournament.berserk`, :meth:`~Tournament.result`,
  :meth:`~Tournament.tick`) checks the request against the state and returns the
  :class:`TournamentEvent` list it causes. It changes nothing; a refused request raises
  :class:`TournamentError` with a stable code.
* **fold** — :meth:`State.fold` (:mod:`server.tournaments.state`) folds one event into the
  state: the one place the state moves; :meth:`Tournament.replay` folds the whole log.

The shell (``server/net``) appends the events to the durable log between the two (log
first), and folds them once stored. A pairing is a ``paired`` event, stored before its room
exists; a result is folded once (a second result for the same room decides nothing).

What happens with time and results — the start, pairings, the next round, the end — is
:meth:`Tournament.tick`'s (:mod:`server.tournaments.progress`); what anyone is shown is
:func:`server.tournaments.view.view`'s.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .arena import REPEAT_WAIT
from .errors import TournamentError
from .progress import step
from .records import GameRecord
from .spec import Spec
from .state import CANCELLED, FINISHED, RUNNING, UPCOMING, State
from .values import Entrant, Json, TournamentEvent
from .view import view

REASON = re.compile(r"[a-z0-9_]{1,40}")


def counted(game: GameRecord) -> bool:
    """The game's result is in: a second one decides nothing (a result is folded once)."""
    return game.over


class Tournament(State):
    """One tournament. Build it with :meth:`create` or :meth:`replay`."""

    # -- creation, replay ----------------------------------------------------------------

    @classmethod
    def create(cls, spec: Spec, now: float) -> tuple[Tournament, list[TournamentEvent]]:
        """A new tournament and its first event (``created``), already folded in."""
        event = TournamentEvent("created", {"spec": spec.to_json()}, now)
        t = cls(spec, now)
        t.version = 1
        return t, [event]

    @classmethod
    def replay(cls, records: Iterable[Mapping[str, Any]]) -> Tournament:
        """Rebuild a tournament from its log's records (the first is ``created``)."""
        it = iter(records)
        first = TournamentEvent.from_record(next(it))
        if first.kind != "created":
            raise ValueError(f"a tournament's log begins with created, not {first.kind}")
        t = cls(Spec.from_json(first.data["spec"]), first.at)
        t.version = 1
        for rec in it:
            t.fold(TournamentEvent.from_record(rec))
        return t

    def me(self, key: str) -> Json:
        """What one player is told about themselves beside the view: joined, paused, their
        game being played, and during a round's interlude their ``next`` (:meth:`next_for`)."""
        p = self.players.get(key)
        out: Json = {
            "joined": p is not None,
            "paused": bool(p and p.paused),
            "game": self.current_game(key),
        }
        coming = self.next_for(key)
        if coming is not None:  # a round's interlude: the next game, or a bye
            out["next"] = coming
        return out

    def next_for(self, key: str) -> Json | None:
        """During a round's interlude (a Swiss or round robin announced its next round and
        seats it at ``starts_at``): the player's next game — ``{"round", "rounds",
        "starts_at", "seat", "opponents": [names]}`` — or their ``"bye"`` (a rest) in it;
        None otherwise, and for a player out of it (withdrawn, or not in the tournament).
        ``last`` is their last finished game's mark (the result just seen)."""
        p = self.players.get(key)
        if not self.pending or p is None or p.paused or self.next_round_at is None:
            return None
        out: Json = {"round": self.round, "rounds": self.rounds, "starts_at": self.next_round_at}
        pair = self.pending_pair(key)
        if pair is None:
            out["bye"] = True
        else:
            out["seat"] = pair.index(key)
            out["opponents"] = [self.players[k].entrant.name for k in pair if k != key]
        last = next(
            (m for m in reversed(p.sheet) if m.round is not None and m.round < self.round), None
        )
        if last is not None:
            out["last"] = {"round": last.round, "outcome": last.outcome, "points": last.points}
        out["points"] = p.points
        return out

    def due(self) -> float | None:
        """When :meth:`tick` has something to do next (a time in the past: now): the start
        (its time, or at once when full), an arena's end, pairings for players who became
        free (or waited long enough to meet their last opponent again), a Swiss or
        round-robin round after its last game, the games of a round announced when its
        interlude ends. What a tick found nothing to do with, with
        nothing folded since, is not due again before its time."""
        changed = self.version != self.ticked_version
        if self.status == UPCOMING:
            if self.spec.starts_at is not None:
                return self.spec.starts_at
            return self.last_at if len(self.players) >= self.spec.max_players else None
        if self.status != RUNNING:
            return None
        if not self.arena:
            if self.pending:  # a round announced: seated when its interlude ends
                return self.next_round_at
            done = all(g.over for g in self.games.values())
            return self.last_at if changed and done else None
        assert self.ends_at is not None
        times = [self.ends_at]
        idle = [p for p in self.active() if p.key not in self.current]
        for p in idle:
            expiry = p.since + REPEAT_WAIT
            if p.last and expiry > self.ticked:
                times.append(expiry)
        if changed and len(idle) >= self.spec.seats:
            times.append(self.last_at)
        return min(times)

    def view(self) -> Json:
        """The one view of the tournament for every door (:mod:`server.tournaments.view`)."""
        return view(self)

    # -- decisions --------------------------------------------------------------------------

    def join(self, entrant: Entrant, now: float) -> list[TournamentEvent]:
        """Enter the tournament; a paused arena player (or a withdrawn Swiss player) comes
        back with the same request."""
        key = entrant.key
        if self.status in (FINISHED, CANCELLED):
            raise TournamentError("not_open", f"the tournament is {self.status}")
        known = self.players.get(key)
        if known is not None:
            if not known.paused:
                raise TournamentError("already_joined", "you are in this tournament already")
            if self.spec.system == "round_robin":
                raise TournamentError("not_open", "a round robin takes nobody back")
            return [TournamentEvent("returned", {"key": key}, now)]
        if self.status == RUNNING and not self.arena:
            raise TournamentError("not_open", f"a {self.spec.system} takes no new players")
        if len(self.players) >= self.spec.max_players:
            raise TournamentError("full", "the tournament is full")
        return [TournamentEvent("joined", {"entrant": entrant.to_json()}, now)]

    def withdraw(self, key: str, now: float) -> list[TournamentEvent]:
        """Leave before the start; once running: an arena player pauses (no new games), a
        Swiss or round-robin player is out of the later rounds. A game being played goes on."""
        if self.status not in (UPCOMING, RUNNING):
            raise TournamentError("not_open", f"the tournament is {self.status}")
        p = self.players.get(key)
        if p is None or p.paused:
            raise TournamentError("not_joined", "you are not playing in this tournament")
        return [TournamentEvent("withdrew", {"key": key}, now)]

    def cancel(self, key: str, now: float) -> list[TournamentEvent]:
        """The creator calls the tournament off before it starts."""
        if key != self.spec.creator:
            raise TournamentError("forbidden", "only the creator cancels a tournament")
        if self.status != UPCOMING:
            raise TournamentError("not_open", "a tournament is cancelled before it starts")
        return [TournamentEvent("cancelled", {"reason": "creator"}, now)]

    def berserk(self, key: str, room: str, now: float) -> list[TournamentEvent]:
        """Go berserk in ``room`` (the net checks that no move of the player's was made and
        halves their clock); a second time decides nothing."""
        if not self.spec.berserk:
            raise TournamentError("bad_request", "this tournament has no berserk")
        game = self.games.get(room)
        if game is None:
            raise TournamentError("not_found", "no such game in this tournament")
        if key not in game.players:
            raise TournamentError("not_joined", "you do not play this game")
        if game.over:
            raise TournamentError("game_over", "the game is over")
        if key in game.berserk:
            return []
        return [TournamentEvent("berserk", {"key": key, "room": room}, now)]

    def result(
        self, room: str, ranks: Sequence[int] | None, reason: str, now: float
    ) -> list[TournamentEvent]:
        """A game of the tournament ended: ``ranks`` in seat order (smaller is better, equal
        is a tie), or ``None`` for an aborted game (no points). Idempotent: the result of a
        game that has one decides nothing."""
        game = self.games.get(room)
        if game is None:
            raise TournamentError("not_found", "no such game in this tournament")
        if counted(game):
            return []
        if ranks is not None:
            if not isinstance(ranks, list | tuple) or len(ranks) != len(game.players):
                raise TournamentError("bad_request", "ranks: one whole number per seat")
            if any(isinstance(r, bool) or not isinstance(r, int) for r in ranks):
                raise TournamentError("bad_request", "ranks: one whole number per seat")
        if not isinstance(reason, str) or not REASON.fullmatch(reason):
            raise TournamentError("bad_request", "a result's reason is a word (a-z, 0-9, _)")
        data = {"room": room, "ranks": None if ranks is None else list(ranks), "reason": reason}
        return [TournamentEvent("result", data, now)]

    def tick(self, now: float, busy: set[str], rng: random.Random) -> list[TournamentEvent]:
        """Everything due at ``now``: the start (or a cancel for too few players), pairings,
        the next round, the end. ``busy``: players the net knows to be in a game."""
        self.ticked, self.ticked_version = now, self.version
        events: list[TournamentEvent] = []
        state = self
        while True:
            done, final = step(state, now, busy, rng)
            events += done
            if final or not done:
                return events
            if state is self:  # later steps see the earlier ones folded in, on a copy
                state = copy.deepcopy(self)
            for e in done:
                state.fold(e)
