"""A room: one game with its seats, spectators' view, sealed turns, take-backs and end.

The room is a sans-I/O, event-sourced state machine:

* **decide** — a command method (``take_seat``, ``move``, ``resign``, ...) checks the command
  against the current state and returns the :class:`Event` list it would cause. It changes
  nothing; a refused command raises a :class:`~server.rooms.errors.RoomError` (or an engine
  error) with a stable code.
* **apply** — :meth:`Room.apply` folds one event into the state and returns the messages it
  causes, one per recipient (a seat number, or ``None`` for spectators), each built from
  ``game.view(state, recipient)`` only.

The shell appends the events to the durable log *between* the two, so nothing is shown to
anyone before it is stored, and :meth:`Room.replay` rebuilds a room from its log with the
very same fold. The log holds true events (seed, sealed moves); it never leaves the server:
what clients get are renderings for one recipient (:meth:`Room.changes`).

Deciding and folding are the table's (:class:`~server.rooms.table.Table`, with its parts:
seats, clock, offers, take-backs); a room is a table with an audience: its
:class:`~server.rooms.render.Renderer` renders the table for each recipient.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..engine import REGISTRY, Game, InvalidOptions, Registry
from ..engine.base import turn_rng
from . import render
from .errors import BadRequest, Forbidden, NotFinished
from .policy import Policy
from .render import RESYNC_EVENT_LIMIT, Change, Recipient, Renderer
from .standing import Rated
from .table import Table
from .values import BOT, MAX_CIDS, Actor, Event, PackedLog, Seat, hash_token

Json = dict[str, Any]
#: the outcome's reason when a player's leaving is claimed (:meth:`Room.claim_victory`)
ABANDONED = "abandoned"
#: the abort's reason when a game everybody left is ended (:meth:`Room.end_idle`)
IDLE = "idle"


class Room(Table):
    """One game room. Build it with :meth:`create` + :meth:`from_created`, or :meth:`replay`."""

    # (a node holds thousands of rooms: slots instead of a dict each)
    __slots__ = ("cids", "log", "renderer")

    def __init__(
        self,
        room_id: str,
        game: Game[Any, Any],
        options: Mapping[str, Any],
        seed: str,
        n_seats: int,
        policy: Policy,
        created_at: float,
    ) -> None:
        super().__init__(room_id, game, options, seed, n_seats, policy, created_at)
        self.log = PackedLog()  # packed (a live room keeps it small); `events` unpacks it
        #: outcomes of recent commands that carried a command id: a retry gets the same
        self.cids: dict[str, Json] = {}  # in insertion order: the oldest goes first
        self.renderer = Renderer()

    # -- creation --------------------------------------------------------------------------

    @staticmethod
    def create(
        room_id: str,
        game_name: str,
        options: Mapping[str, Any] | None,
        n_seats: int | None,
        seed: str,
        now: float,
        policy: Mapping[str, Any] | None = None,
        registry: Registry = REGISTRY,
        rated: str | None = None,
    ) -> Event:
        """Decide a ``created`` event (raises on an unknown game or bad options/seats);
        ``rated``: the rating category of a rated game (set by the shell, never a client)."""
        if game_name not in registry:
            raise KeyError(game_name)
        game = registry.get(game_name)
        seats = game.min_seats if n_seats is None else n_seats
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise InvalidOptions("seats must be a whole number")
        game.check_seats(seats)
        if options is not None and not isinstance(options, Mapping):
            raise InvalidOptions("options must be an object")
        opts = game.check_options(options)
        pol = Policy.parse(policy, game)
        # build once to surface option errors that only the game's setup can see
        game.new(opts, seats, turn_rng(seed, 0))
        data = {
            "room": room_id,
            "game": game_name,
            "options": opts,
            "seed": seed,
            "n_seats": seats,
            "policy": pol.to_json(),
        }
        return Event("created", data | ({"rated": rated} if rated else {}), now)

    @classmethod
    def from_created(cls, event: Event, registry: Registry = REGISTRY) -> Room:
        d = event.data
        game = registry.get(d["game"])
        room = cls(
            d["room"],
            game,
            d["options"],
            d["seed"],
            d["n_seats"],
            Policy.parse(d["policy"], game),
            event.at,
        )
        room.log.append(event.to_record())
        room.version = 1
        room.rated = Rated(d["rated"]) if d.get("rated") else None
        return room

    def seat_unseen(self, sit: Iterable[tuple[str, Mapping[str, Any]]], now: float) -> list[Json]:
        """Decide and fold the seats of a room nobody has seen yet, each ``("take_seat",
        args)`` or ``("add_bot", args)`` in turn; return their records, for the shell to
        append with the ``created`` event in one append (a failed append drops the room
        unseen: the log still comes before anybody hears). Raises as the commands do."""
        records: list[Json] = []
        for op, args in sit:
            if op not in ("take_seat", "add_bot"):
                raise ValueError(f"a room is created with seats taken, not {op!r}")
            events = getattr(self, op)(**args, now=now)
            more = [e.to_record() for e in events]
            self.apply_all(events, more)
            records += more
        return records

    @classmethod
    def replay(cls, events: Iterable[Event], registry: Registry = REGISTRY) -> Room:
        """Rebuild a room from its whole log (the first event is ``created``)."""
        it = iter(events)
        room = cls.from_created(next(it), registry)
        for event in it:
            room.fold(event)
        return room

    # -- a player who left ------------------------------------------------------------------

    def claim_victory(
        self, seat: int, actor: Actor, absent: Sequence[int], now: float, draw: bool = False
    ) -> list[Event]:
        """End a two-player game whose other player left: a win for ``seat`` (their
        resignation, reason ``abandoned``), or with ``draw`` a draw. ``absent`` are the seats
        the shell found gone past the countdown (nobody connected to them): the claim is
        refused unless the other seat is one of them."""
        self._check_actor(seat, actor)
        self._playing()
        if self.n_seats != 2:
            raise BadRequest("victory is claimed in two-player games only")
        other = 1 - seat
        if other not in absent or self.seats[other].kind != "person":
            raise BadRequest("your opponent has not left the game: nothing to claim yet")
        if draw:
            return [Event("draw", {"reason": ABANDONED}, now)]
        return [Event("resign", {"seat": other, "reason": ABANDONED}, now)]

    def end_idle(self, now: float, idle: float) -> list[Event]:
        """End a game nothing happened in for ``idle`` seconds and whose players all left
        (the shell's sweep: no seat connected on any node): no result, unrated (``abort``
        with reason ``idle``). Nothing if an event came since, or the game is not on."""
        if self.status != "playing" or now - self.last_at <= idle:
            return []
        seat = min(self.to_act(), default=0)  # whose turn it was
        return [Event("abort", {"seat": seat, "reason": IDLE}, now)]

    # -- after the game: the rematch, the ratings -----------------------------------------

    def offer_rematch(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """Ask for a rematch once the game is over. When every person seated has asked,
        :meth:`rematch_agreed` says so and the shell creates the new room."""
        self._check_actor(seat, actor)
        if self.outcome is None:
            raise NotFinished("a rematch is offered once the game is over")
        if not self.policy.rematch:
            raise Forbidden("this game has no rematch: its tournament pairs the next game")
        return self.offers.offer_rematch(seat, now)

    def decline_rematch(self, seat: int, actor: Actor, now: float) -> list[Event]:
        self._check_actor(seat, actor)
        return self.offers.decline_rematch(seat, now)

    def rematch_agreed(self) -> bool:
        """Every person seated asked for the rematch (bots accept by policy)."""
        return self.offers.rematch_agreed(self.seats.people())

    def settle_rematch(self, new_room: str, tokens: Mapping[int, str], now: float) -> Event:
        """The event recording the new room and each person's seat token there (seat ``s``
        of this room sits at :meth:`rematch_seat` in the new one)."""
        return self.offers.settle_rematch(new_room, tokens, now)

    def rematch_seat(self, seat: int) -> int:
        return self.offers.rematch_seat(seat)

    def record_ratings(self, players: Iterable[Mapping[str, Any]], now: float) -> list[Event]:
        """The ``ratings`` event for a finished rated game (see :meth:`Rated.decide`)."""
        if self.outcome is None:
            raise NotFinished("ratings change when the game is over")
        if self.rated is None:
            raise BadRequest("this game is not rated")
        return self.rated.decide(players, self.n_seats, now)

    def berserk(self, seat: int, now: float) -> list[Event]:
        """A tournament player goes berserk (the shell's command, never a client's): half
        their Fischer clock, before their first move; a second time decides nothing."""
        if self.clock is None or self.clock.spec.kind != "fischer":
            raise BadRequest("berserk needs a Fischer clock")
        self._playing()
        if not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise BadRequest("no such seat")
        if seat in self.clock.halved:
            return []
        if seat in self.moved_seats():
            raise BadRequest("berserk only before your first move")
        return [Event("berserk", {"seat": seat}, now)]

    # -- the log ---------------------------------------------------------------------------

    def fold(self, event: Event, record: Json | None = None) -> None:
        """Fold ``event`` into the table and append it to the log; render nothing (replays
        use this). ``record``: ``event.to_record()``, when the caller has it."""
        super().fold(event)
        self.log.append(event.to_record() if record is None else record)
        cid = event.data.get("cid")
        if cid is not None:  # the last event of a command that carried an id
            made = self.events_since(self.version - int(event.data.get("n", 1)))
            self.cids[cid] = {
                "version": self.version,
                "events": [{"kind": e.kind, "seat": e.data.get("seat")} for e in made],
            }
            while len(self.cids) > MAX_CIDS:
                del self.cids[next(iter(self.cids))]

    @property
    def events(self) -> list[Event]:
        """The whole log, unpacked (replays, resyncs, tests)."""
        return [Event.from_record(r) for r in self.log.records()]

    def events_since(self, version: int) -> list[Event]:
        """The events after ``version``."""
        return [Event.from_record(r) for r in self.log.records(version)]

    def recall(self, cid: str) -> Json | None:
        """The outcome of an earlier command with this id, if it changed the room."""
        return self.cids.get(cid)

    @staticmethod
    def stamp(events: list[Event], cid: str) -> list[Event]:
        """``events`` of one command, the last one carrying its id (see :meth:`recall`)."""
        if not events:
            return events
        last = events[-1]
        data = {**last.data, "cid": cid, "n": len(events)}
        return [*events[:-1], Event(last.kind, data, last.at)]

    # -- apply: events -> state + messages -------------------------------------------------

    def apply(self, event: Event) -> list[tuple[Recipient, Json]]:
        """Fold ``event`` into the room; return the full update for every recipient."""
        self.fold(event)
        return [(r, self.update(r, [event])) for r in self.recipients()]

    def apply_all(self, events: list[Event], records: list[Json] | None = None) -> list[Change]:
        """Fold ``events`` (one command's) in; return every recipient's delta and update.
        ``records``: their :meth:`Event.to_record`, when the caller made them already (for
        the store)."""
        if not self.renderer.has_bases:  # first change since creation or replay: bases now
            self.changes([])
        for i, event in enumerate(events):
            self.fold(event, None if records is None else records[i])
        return self.changes(events)

    # -- renderings (server/rooms/render.py) -----------------------------------------------

    def recipients(self) -> list[Recipient]:
        return render.recipients(self)

    def render_event(self, event: Event, r: Recipient) -> Json:
        """What ``r`` may learn from ``event`` itself: public facts only (who, not what)."""
        return render.render_event(self, event, r)

    def common(self) -> Json:
        """The part of a snapshot that is the same for every recipient."""
        return self.renderer.common(self)

    def snapshot(self, r: Recipient, common: Json | None = None) -> Json:
        """The whole room as ``r`` may see it now, built from ``game.view(state, r)``."""
        return self.renderer.snapshot(self, r, common)

    def view_for(self, r: Recipient) -> Json:
        """``game.view`` for ``r`` (spectators: as late as the spectator delay says)."""
        return self.renderer.view_for(self, r)

    def update(self, r: Recipient, events: Sequence[Event] | None) -> Json:
        """An ``update`` message: the rendered events (``None``: too many to list) + snapshot."""
        return self.renderer.update(self, r, events)

    def changes(self, events: Sequence[Event]) -> list[Change]:
        """Every recipient's full ``update`` for ``events`` (just folded in), and a ``delta``
        against what that recipient was shown last (None the first time)."""
        return self.renderer.changes(self, events)

    def resync(self, r: Recipient, since: int | None) -> Json:
        """What ``r`` missed after version ``since``: the events one by one, or just the state."""
        if since is None or since > self.version or since < 1:
            return self.update(r, None)
        if self.version - since > RESYNC_EVENT_LIMIT:
            return self.update(r, None)
        return self.update(r, self.events_since(since))

    def history(self, r: Recipient) -> Json:
        """What ``r`` was shown after every turn so far, rebuilt from the seed and the turns."""
        return render.history(self, r)

    def summary(self) -> Json:
        """The lobby entry: public facts only."""
        return render.summary(self)

    def record(self, *, seated: bool = False) -> Json:
        """The full record (seed, options, every move, outcome), as far as it may be shown."""
        return render.record(self, seated=seated)


def clamp_since(value: Any) -> int | None:
    """A client's ``since`` version, or None when absent/invalid."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


__all__ = [
    "BOT",
    "RESYNC_EVENT_LIMIT",
    "Event",
    "Policy",
    "Recipient",
    "Room",
    "Seat",
    "clamp_since",
    "hash_token",
]
