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
very same ``apply``. The log holds true events (seed, sealed moves); it never leaves the
server: what clients get are renderings for one recipient (:meth:`Room.render`).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..engine import REGISTRY, Game, IllegalMove, InvalidOptions, Outcome, Registry
from ..engine.base import play_rng, turn_rng
from .clock import Clock
from .errors import (
    BadRequest,
    BadToken,
    GameOver,
    NoSuchSeat,
    NotSeated,
    NotStarted,
    NotYourTurn,
    StaleVersion,
    TimeUp,
)
from .offers import Offers
from .policy import Policy
from .render import RESYNC_EVENT_LIMIT, Change, Recipient, Rendering
from .seating import Seating
from .standing import Rated, Standing
from .takebacks import TakeBacks
from .timing import Timing
from .values import (
    BOT,
    MAX_CIDS,
    Actor,
    BotActor,
    Event,
    PackedLog,
    Recent,
    Seat,
    Turn,
    Turns,
    UndoRequest,
    hash_token,
)

Json = dict[str, Any]


class Room(Seating, Offers, TakeBacks, Timing, Standing, Rendering):
    """One game room. Build it with :meth:`create` + :meth:`from_created`, or :meth:`replay`.

    The rendering half (snapshots, deltas, records) is :class:`~server.rooms.render.Rendering`;
    who sits where, :class:`~server.rooms.seating.Seating`.
    """

    # a node holds thousands of rooms: slots instead of a dict each (over 30 attributes
    # make an instance dict a full table, ~1.6 KB)
    __slots__ = (
        "_acting", "_seats_json", "_settings", "_shown", "_shown_common", "_tokens", "_views",
        "cids", "clock", "created_at", "draw_offer", "game", "gone", "id", "last_at", "log",
        "n_seats", "options", "outcome", "past", "pending", "policy", "position_version", "rated",
        "rematch", "rematch_votes", "seats", "seed", "started", "state", "turns", "undo_floor",
        "undo_request", "undos", "version"
    )  # fmt: skip

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
        self.id = room_id
        self.game = game
        self.options = dict(options)
        self.seed = seed
        self.n_seats = n_seats
        self.policy = policy
        self.created_at = created_at
        self.seats: list[Seat] = [Seat() for _ in range(n_seats)]
        self.state: Any = game.new(self.options, n_seats, turn_rng(seed, 0))
        self.turns = Turns()
        self.pending: dict[int, Any] = {}  # sealed moves of the current simultaneous turn
        self.undo_request: UndoRequest | None = None
        self.draw_offer: int | None = None
        self.rematch_votes: set[int] = set()
        self.rematch: Json | None = None
        self.started = False
        self.outcome: Outcome | None = None
        self.log = PackedLog()  # packed (a live room keeps it small); `events` unpacks it
        self.undos = 0  # take-backs so far (bots re-read the game after one)
        self.undo_floor = 0  # a take-back never goes behind a seat's leaving the game
        self.gone: set[int] = set()  # seats that left a game that went on without them
        self.version = 0
        #: the version at which the current position arose (seals and requests leave it)
        self.position_version = 0
        self.last_at = created_at
        self.clock = Clock.new(policy.clock, n_seats) if policy.clock else None
        self.rated: Rated | None = None  # the rating category a rated game is played for
        # per-state caches: states are immutable values, so identity is a safe key
        self._acting: tuple[Any, frozenset[int]] | None = None
        self._views: tuple[Any, dict[Recipient | str, Json]] = (None, {})
        #: recent states, oldest first, for spectators who see everything N turns late
        self.past = Recent(self.state, policy.spectator_delay + 1)
        self._shown: dict[Recipient, Json] = {}
        self._shown_common: Json | None = None
        #: outcomes of recent commands that carried a command id: a retry gets the same
        self.cids: dict[str, Json] = {}  # in insertion order: the oldest goes first
        self._settings: Json | None = None
        self._seats_json: list[Json] | None = None
        #: the hashes of tokens that proved right here (a seated player sends theirs with
        #: every move): SHA-256 once per token, not per move; only right ones, so bounded
        self._tokens: dict[str, str] = {}

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

    @classmethod
    def replay(cls, events: Iterable[Event], registry: Registry = REGISTRY) -> Room:
        """Rebuild a room from its whole log (the first event is ``created``)."""
        it = iter(events)
        room = cls.from_created(next(it), registry)
        for event in it:
            room.fold(event)
        return room

    # -- derived facts ---------------------------------------------------------------------

    def to_act(self) -> frozenset[int]:
        if not self.started or self.outcome is not None:
            return frozenset()
        cached = self._acting
        if cached is None or cached[0] is not self.state:
            cached = self._acting = (self.state, self.game.to_act(self.state))
        return cached[1]

    def bot_seats_to_act(self) -> list[int]:
        """Bot seats that owe a move now (and have not sealed one)."""
        return sorted(
            s for s in self.to_act() if self.seats[s].kind == "bot" and s not in self.pending
        )

    def seat_of_token(self, token: str) -> list[int]:
        h = hash_token(token)
        return [i for i, s in enumerate(self.seats) if s.kind == "person" and s.token_hash == h]

    def check_token(self, seat: int, token: str) -> None:
        """Raise unless ``token`` is the secret of person seat ``seat``."""
        self._seat(seat)
        s = self.seats[seat]
        if s.kind != "person":
            raise NotSeated(f"seat {seat} is not held by a person")
        if not isinstance(token, str):
            raise BadToken(f"wrong token for seat {seat}")
        known = self._tokens.get(token)
        if not hmac.compare_digest(s.token_hash, hash_token(token) if known is None else known):
            raise BadToken(f"wrong token for seat {seat}")
        if known is None:
            if len(self._tokens) >= 2 * self.n_seats:  # seats changed hands: start again
                self._tokens.clear()
            self._tokens[token] = s.token_hash

    # -- decide: commands ------------------------------------------------------------------

    def move(
        self,
        seat: int,
        actor: Actor,
        text: Any,
        now: float,
        expect_version: int | None = None,
    ) -> list[Event]:
        """A seat moves. In a simultaneous turn the move is sealed until all are in."""
        self._check_version(expect_version)
        self._check_actor(seat, actor)
        self._playing()
        acting = self.to_act()
        if seat not in acting:
            raise NotYourTurn(f"seat {seat} is not to move now")
        if not isinstance(text, str) or not text or len(text) > 64:
            raise BadRequest("a move is a non-empty string of at most 64 characters")
        if self.flag_fallen(seat, now):
            raise TimeUp(f"seat {seat} has run out of time")
        mv = self.game.parse_move(self.state, seat, text)
        if not self.game.is_legal(self.state, seat, mv):
            raise IllegalMove(f"{text} is not a legal move for seat {seat} now")
        return self._move_events(seat, str(mv), acting, now)

    def _move_events(self, seat: int, wire: str, acting: frozenset[int], now: float) -> list[Event]:
        """A move of ``seat``: sealed until every acting seat is in, then one joint move."""
        if len(acting) > 1:
            sealed = {s: str(m) for s, m in self.pending.items()}
            sealed[seat] = wire
            if set(sealed) == set(acting):
                moves = {str(s): sealed[s] for s in sorted(sealed)}
                return [Event("move", {"moves": moves}, now)]
            return [Event("sealed", {"seat": seat, "move": wire}, now)]
        return [Event("move", {"moves": {str(seat): wire}}, now)]

    def resign(
        self, seat: int, actor: Actor, now: float, reason: str = "resignation"
    ) -> list[Event]:
        self._check_actor(seat, actor)
        self._playing()
        if seat in self.gone:
            raise BadRequest(f"seat {seat} has already left the game")
        return [Event("resign", {"seat": seat, "reason": reason}, now)]

    # -- apply: events -> state + messages -------------------------------------------------

    def apply(self, event: Event) -> list[tuple[Recipient, Json]]:
        """Fold ``event`` into the room; return the full update for every recipient."""
        self.fold(event)
        return [(r, self.update(r, [event])) for r in self.recipients()]

    def apply_all(self, events: list[Event], records: list[Json] | None = None) -> list[Change]:
        """Fold ``events`` (one command's) in; return every recipient's delta and update.
        ``records``: their :meth:`Event.to_record`, when the caller made them already (for
        the store)."""
        if not self._shown:  # first change since creation or replay: the bases are now
            self.changes([])
        for i, event in enumerate(events):
            self.fold(event, None if records is None else records[i])
        return self.changes(events)

    def fold(self, event: Event, record: Json | None = None) -> None:
        """Fold ``event`` into the room's state; render nothing (replays use this).
        ``record``: ``event.to_record()``, when the caller has it."""
        handler = _FOLDS.get(event.kind)
        if handler is None:
            raise ValueError(f"unknown room event {event.kind!r}")
        was_started = self.started
        handler(self, event.data, event.at)
        self.last_at = event.at
        self.log.append(event.to_record() if record is None else record)
        self.version += 1
        if event.kind in ("move", "undo") or self.started != was_started:
            self.position_version = self.version
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

    def _apply_sealed(self, d: Mapping[str, Any], at: float) -> None:
        seat = d["seat"]
        self.pending[seat] = self.game.parse_move(self.state, seat, d["move"])
        if self.clock:
            self.clock.stop(seat, at)

    def _apply_move(self, d: Mapping[str, Any], at: float) -> None:
        moves = {int(s): self.game.parse_move(self.state, int(s), t) for s, t in d["moves"].items()}
        rng = play_rng(self.game, self.seed, len(self.turns) + 1)
        self.state = self.game.play(self.state, moves, rng, check=False)
        self.turns.add(d["moves"].items(), at)
        if self.draw_offer is not None:
            self.lapse_draw_offer(set(moves))
        self.past.append(self.state)
        self.pending.clear()
        self.undo_request = None
        self._clocks_after(moves, at)
        self._check_end()

    def _apply_resign(self, d: Mapping[str, Any], at: float) -> None:
        seat = d["seat"]
        leave = self.game.leave(self.state, seat, d["reason"])
        if leave is not None:  # the game goes on without this seat
            self._leave_game(seat, leave, at)
            return
        self.draw_offer = None
        self._stop_clocks(at)
        self.outcome = self.game.resign(self.state, seat, self.n_seats, d["reason"])
        self.pending.clear()
        self.undo_request = None

    def _leave_game(self, seat: int, move: Any, at: float) -> None:
        """``seat`` leaves a game that goes on: its leaving is a turn of the log (a take-back
        replays it too), its clock stops for good, the others' turn goes on."""
        was_acting = seat in self.to_act()
        rng = play_rng(self.game, self.seed, len(self.turns) + 1)
        self.state = self.game.play(self.state, {seat: move}, rng, check=False)
        self.turns.append(Turn.of({str(seat): str(move)}, at))
        self.undo_floor = len(self.turns)
        self.gone.add(seat)
        self.past.append(self.state)
        self.pending.pop(seat, None)
        self.undo_request = None
        if self.clock and was_acting and self.clock.since is not None:
            if seat not in self.clock.stopped and self.clock.running:  # charged, no increment
                self.clock.left[seat] = max(0.0, self.clock.left[seat] - (at - self.clock.since))
            self._clocks_after((), at)
        self._check_end()

    def _check_end(self) -> None:
        if self.started and self.outcome is None:
            self.outcome = self.game.outcome(self.state)

    # -- checks ----------------------------------------------------------------------------

    def _seat(self, seat: Any) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n_seats:
            raise NoSuchSeat(f"there is no seat {seat!r} (seats are 0..{self.n_seats - 1})")

    def _check_actor(self, seat: Any, actor: Actor) -> None:
        self._seat(seat)
        if isinstance(actor, BotActor):
            if self.seats[seat].kind != "bot":
                raise NotSeated(f"seat {seat} is not a bot seat")
            return
        self.check_token(seat, actor)

    def _check_version(self, expect: int | None) -> None:
        """A move chosen at version ``expect`` is stale if the position changed since
        (a sealed move or a take-back request of another seat does not change it)."""
        if expect is not None and not self.position_version <= expect <= self.version:
            raise StaleVersion(
                f"the position changed at version {self.position_version} "
                f"(the room is at {self.version}); the move was chosen at {expect}"
            )

    def _not_over(self) -> None:
        if self.outcome is not None:
            raise GameOver("the game is over")

    def _playing(self) -> None:
        self._not_over()
        if not self.started:
            raise NotStarted("the game starts when every seat is taken")


#: each event kind's fold, ``Room._apply_<kind>``, found once (not a subclass's own folds)
_FOLDS: dict[str, Callable[..., None]] = {
    name.removeprefix("_apply_"): getattr(Room, name)
    for name in dir(Room)
    if name.startswith("_apply_")
}


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
