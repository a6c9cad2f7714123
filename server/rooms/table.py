"""The table of a room: its seats, the game on it, its clocks and its offers, as one
sans-I/O, event-sourced state machine.

* **decide** — a command method (``take_seat``, ``move``, ``resign``, ``tick``, ...) checks the
  command against the current state and returns the :class:`Event` list it would cause. It
  changes nothing; a refused command raises a :class:`~server.rooms.errors.RoomError` (or an
  engine error) with a stable code.
* **fold** — :meth:`Table.fold` folds one event into the state (:data:`_FOLDS`, one entry
  per event kind): the one place the state moves; a replay folds the whole log the same way.

The table holds its parts, each owning its own state and handed what it needs: the seats
(:class:`~server.rooms.seating.Seats`), the clock (:class:`~server.rooms.clock.Clock`), the
draw and rematch offers (:class:`~server.rooms.offers.Offers`), the take-backs
(:class:`~server.rooms.takebacks.TakeBacks`) and the rated flag
(:class:`~server.rooms.standing.Rated`). The table checks who acts and in which phase, asks
the part, and folds each event — into the part, and into the game where it changes it.

The room (:class:`~server.rooms.room.Room`) is this table with its log, what follows the
game (the rematch, the ratings) and what it shows to whom (:mod:`server.rooms.render`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..engine import Game, IllegalMove, Outcome
from ..engine.base import play_rng, turn_rng
from .clock import Clock
from .errors import BadRequest, GameOver, NotSeated, NotStarted, NotYourTurn, StaleVersion, TimeUp
from .offers import ABORTED, Offers
from .policy import Policy
from .seating import Seats
from .standing import Rated
from .takebacks import TakeBacks
from .values import Actor, BotActor, Event, Recent, Turn, Turns, UndoRequest

Json = dict[str, Any]


class Table:
    """A room's game and everything that decides it (see the module docstring)."""

    # a node holds thousands of rooms: slots instead of a dict each
    __slots__ = (
        "_acting",
        "clock",
        "created_at",
        "game",
        "gone",
        "id",
        "last_at",
        "n_seats",
        "offers",
        "options",
        "outcome",
        "past",
        "pending",
        "policy",
        "position_version",
        "rated",
        "seats",
        "seed",
        "started",
        "state",
        "takebacks",
        "turns",
        "version",
    )

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
        self.seats = Seats(n_seats)
        self.clock = Clock.new(policy.clock, n_seats) if policy.clock else None
        self.offers = Offers(n_seats)
        self.takebacks = TakeBacks(policy)
        self.rated: Rated | None = None  # the rating category a rated game is played for
        self.state: Any = game.new(self.options, n_seats, turn_rng(seed, 0))
        self.turns = Turns()
        #: recent states, oldest first, for spectators who see everything N turns late
        self.past = Recent(self.state, policy.spectator_delay + 1)
        self.pending: dict[int, Any] = {}  # sealed moves of the current simultaneous turn
        self.started = False
        self.outcome: Outcome | None = None
        self.gone: set[int] = set()  # seats that left a game that went on without them
        self.version = 0  # how many events were folded in
        #: the version at which the current position arose (seals and requests leave it)
        self.position_version = 0
        self.last_at = created_at
        # the seats to act, cached per state (states are immutable values: identity is a key)
        self._acting: tuple[Any, frozenset[int]] | None = None

    # -- facts -----------------------------------------------------------------------------

    @property
    def status(self) -> str:
        if self.outcome is not None:
            return "over"
        return "playing" if self.started else "waiting"

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
        return self.seats.of_token(token)

    def check_token(self, seat: int, token: str) -> None:
        """Raise unless ``token`` is the secret of person seat ``seat``."""
        self.seats.check_token(seat, token)

    def moved_seats(self) -> set[int]:
        """The seats that have made a move (or left the game) so far."""
        return {int(s) for t in self.turns for s, _ in t.played} | self.gone

    def may_abort(self) -> bool:
        """Before every seat has made its first move (and while the game runs)."""
        moved = {int(s) for t in self.turns for s, _ in t.played}
        return self.started and self.outcome is None and len(moved) < self.n_seats

    @property
    def draw_offer(self) -> int | None:
        """The seat whose draw offer is open, if any."""
        return self.offers.draw_offer

    @property
    def undo_request(self) -> UndoRequest | None:
        return self.takebacks.request

    @property
    def undos(self) -> int:
        """Take-backs so far (bots re-read the game after one)."""
        return self.takebacks.undos

    # -- time ------------------------------------------------------------------------------

    def deadline(self) -> float | None:
        """When the next flag falls, or the first-move wait ends (the shell arms a timer and
        calls :meth:`tick`)."""
        due = self._due()
        return due[0] if due else None

    def _due(self) -> tuple[float, int] | None:
        """The next time a clock runs out, and whose: a flag falls, or before the clocks
        run, the wait for a first move ends."""
        if self.clock is None or self.status != "playing":
            return None
        if not self.clock.running:
            return self.first_move_due()
        return self.clock.deadline(s for s in self.to_act() if s not in self.pending)

    def first_move_due(self) -> tuple[float, int] | None:
        """Before the clocks run: when the game is aborted unless the person to move makes
        their first move (``policy.first_move`` after their turn began), and that seat."""
        clock = self.clock
        if clock is None or clock.running or self.status != "playing":
            return None
        moved = self.moved_seats()
        waiting = (
            s
            for s in self.to_act()
            if s not in moved and s not in self.pending and self.seats[s].kind == "person"
        )
        return clock.first_move_due(self.policy.first_move, waiting)

    def flag_fallen(self, seat: int, now: float) -> bool:
        if self.clock is None or self.status != "playing" or seat in self.pending:
            return False
        return self.clock.fallen(seat, now)

    def tick(self, now: float) -> list[Event]:
        """Apply the timeout rule to the first seat whose flag has fallen by ``now``.

        Turn-based games: that seat loses. A simultaneous turn: the seat forfeits, or with
        ``on_timeout: random`` a random legal move is played for it (the move is in the
        event, so a replay plays the same one). Before the clocks run, a person whose first
        move did not come in time has the game aborted (``no_first_move``: unrated).
        """
        due = self._due()
        if due is None or due[0] > now:
            return []
        seat = due[1]
        assert self.clock is not None
        if not self.clock.running:
            return [Event("abort", {"seat": seat, "reason": "no_first_move"}, now)]
        acting = self.to_act()
        if len(acting) > 1 and self.policy.on_timeout == "random":
            legal = self.game.legal_moves(self.state, seat)
            rng = turn_rng(f"{self.seed}/timeout", self.version)
            return self._move_events(seat, str(rng.choice(legal)), acting, now)
        return [Event("timeout", {"seat": seat}, now)]

    # -- decide: seats ---------------------------------------------------------------------

    def take_seat(
        self,
        seat: int | None,
        token: str,
        name: Any,
        now: float,
        user: str = "",
        rating: Mapping[str, Any] | None = None,
    ) -> list[Event]:
        """A person (``user``: the account seating them) takes an empty seat (None: the first);
        ``rating``: an account's ``{"rating", "provisional"}`` when a pairing seats it."""
        self._not_over()
        return self.seats.take(seat, token, name, now, user, rating)

    def add_bot(self, seat: int, bot: str, name: str, now: float) -> list[Event]:
        """A bot (``bot`` names its kind/strength, checked by the caller) takes a seat, under
        ``name`` — numbered when another seat has it (five easy bots in one race)."""
        self._not_over()
        return self.seats.add_bot(seat, bot, name, now)

    def leave_seat(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """Give a seat back before the game starts (afterwards: resign instead)."""
        self._check_actor(seat, actor)
        if self.started:
            raise BadRequest("the game has started: a seat is kept until the end (resign to quit)")
        return [Event("unseat", {"seat": seat}, now)]

    # -- decide: play ----------------------------------------------------------------------

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

    def abort(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """End the game with no result (unrated) before every seat has moved."""
        self._check_actor(seat, actor)
        self._playing()
        if not self.may_abort():
            raise BadRequest("a game can be aborted only before every seat has moved: resign")
        return [Event("abort", {"seat": seat}, now)]

    def request_undo(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """Ask to take back this seat's last move (and whatever came after it)."""
        self._check_actor(seat, actor)
        self._playing()
        return self.takebacks.request_undo(seat, self.turns, self.seats, now)

    def answer_undo(self, seat: int, actor: Actor, accept: Any, now: float) -> list[Event]:
        self._check_actor(seat, actor)
        self._playing()
        return self.takebacks.answer_undo(seat, accept, self.seats, now)

    # -- decide: offers --------------------------------------------------------------------

    def offer_draw(self, seat: int, actor: Actor, now: float) -> list[Event]:
        """Offer a draw; offering when the opponent's offer is open accepts it."""
        self._check_actor(seat, actor)
        self._playing()
        return self.offers.offer_draw(seat, now)

    def answer_draw(self, seat: int, actor: Actor, accept: Any, now: float) -> list[Event]:
        self._check_actor(seat, actor)
        self._playing()
        return self.offers.answer_draw(seat, accept, now)

    # -- fold ------------------------------------------------------------------------------

    def fold(self, event: Event) -> None:
        """Fold ``event`` into the state (the room also appends it to its log)."""
        handler = _FOLDS.get(event.kind)
        if handler is None:
            raise ValueError(f"unknown room event {event.kind!r}")
        was_started = self.started
        handler(self, event.data, event.at)
        self.last_at = event.at
        self.version += 1
        if event.kind in ("move", "undo") or self.started != was_started:
            self.position_version = self.version

    def _apply_seat(self, d: Mapping[str, Any], at: float) -> None:
        self.seats.seat(d)
        if not self.started and not self.seats.free():  # the last seat: the game starts
            self.started = True
            if self.clock:
                self.clock.start_turn(at)
            self._check_end()

    def _apply_sealed(self, d: Mapping[str, Any], at: float) -> None:
        seat = d["seat"]
        self.pending[seat] = self.game.parse_move(self.state, seat, d["move"])
        if self.clock:
            self.clock.stop(seat, at)

    def _apply_move(self, d: Mapping[str, Any], at: float) -> None:
        moves = {int(s): self.game.parse_move(self.state, int(s), t) for s, t in d["moves"].items()}
        self._play(moves)
        self.turns.add(d["moves"].items(), at)
        self.offers.lapse_draw_offer(moves)
        self.past.append(self.state)
        self.pending.clear()
        self.takebacks.lapse()
        self._clocks_after(moves, at)
        self._check_end()

    def _apply_resign(self, d: Mapping[str, Any], at: float) -> None:
        seat = d["seat"]
        leave = self.game.leave(self.state, seat, d["reason"])
        if leave is not None:  # the game goes on without this seat
            self._leave_game(seat, leave, at)
            return
        self._end(self.game.resign(self.state, seat, self.n_seats, d["reason"]), at)
        self.takebacks.lapse()

    def _apply_timeout(self, d: Mapping[str, Any], at: float) -> None:
        if self.clock:
            self.clock.flag(d["seat"])
        self._apply_resign({"seat": d["seat"], "reason": "timeout"}, at)

    def _apply_draw(self, d: Mapping[str, Any], at: float) -> None:
        self._end(Outcome.draw(self.n_seats, d["reason"]), at)

    def _apply_abort(self, d: Mapping[str, Any], at: float) -> None:
        self._end(Outcome.draw(self.n_seats, ABORTED), at)

    def _apply_undo(self, d: Mapping[str, Any], at: float) -> None:
        """Take moves back: replay the turns before ``to_turn`` from the seed."""
        self.takebacks.taken_back()
        keep = self.turns[: d["to_turn"]]
        self.state = self.game.new(self.options, self.n_seats, turn_rng(self.seed, 0))
        self.turns = Turns()
        self.past.clear()
        self.past.append(self.state)
        parse = self.game.parse_move
        for turn in keep:
            self._play({int(s): parse(self.state, int(s), t) for s, t in turn.played})
            self.turns.append(turn)
            self.past.append(self.state)
        self.pending.clear()
        if self.clock:
            self.clock.start_turn(at)

    def _apply_ratings(self, d: Mapping[str, Any], at: float) -> None:
        assert self.rated is not None
        self.rated.fold(d["changes"])

    def _play(self, moves: Mapping[int, Any]) -> None:
        """Play the next turn's ``moves`` (parsed, and checked when they were decided)."""
        rng = play_rng(self.game, self.seed, len(self.turns) + 1)
        self.state = self.game.play(self.state, moves, rng, check=False)

    def _leave_game(self, seat: int, move: Any, at: float) -> None:
        """``seat`` leaves a game that goes on: its leaving is a turn of the log (a take-back
        replays it too), its clock stops for good, the others' turn goes on."""
        was_acting = seat in self.to_act()
        self._play({seat: move})
        self.turns.append(Turn.of({str(seat): str(move)}, at))
        self.takebacks.left_at(len(self.turns))
        self.gone.add(seat)
        self.past.append(self.state)
        self.pending.pop(seat, None)
        self.takebacks.lapse()
        if self.clock and was_acting and self.clock.since is not None:
            self.clock.charge(seat, at)  # no increment
            self._clocks_after((), at)
        self._check_end()

    def _clocks_after(self, movers: Iterable[int], at: float) -> None:
        """A turn was played at ``at`` by ``movers``: the clocks charge them, run once every
        seat has moved, and begin the next turn's time."""
        clock = self.clock
        if clock is not None:
            everyone = clock.running or len(self.moved_seats()) >= self.n_seats
            clock.after_turn(movers, everyone, at)

    def _end(self, outcome: Outcome, at: float) -> None:
        """The game ends at ``at`` (a resignation, a draw, an abort) with ``outcome``."""
        if self.clock:
            self.clock.end(self.to_act(), at)
        self.outcome = outcome
        self.pending.clear()
        self.offers.close_draw_offer()

    def _check_end(self) -> None:
        if self.started and self.outcome is None:
            self.outcome = self.game.outcome(self.state)

    # -- checks ----------------------------------------------------------------------------

    def _check_actor(self, seat: Any, actor: Actor) -> None:
        self.seats.check(seat)
        if isinstance(actor, BotActor):
            if self.seats[seat].kind != "bot":
                raise NotSeated(f"seat {seat} is not a bot seat")
            return
        self.seats.check_token(seat, actor)

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


#: each event kind's fold: the table's own, where it changes the game, or its part's
_FOLDS: dict[str, Callable[[Table, Mapping[str, Any], float], None]] = {
    "seat": Table._apply_seat,
    "unseat": lambda t, d, at: t.seats.unseat(d["seat"]),
    "sealed": Table._apply_sealed,
    "move": Table._apply_move,
    "resign": Table._apply_resign,
    "timeout": Table._apply_timeout,
    "undo_request": lambda t, d, at: t.takebacks.asked(d["seat"], d["to_turn"]),
    "undo_answer": lambda t, d, at: t.takebacks.answered(d["seat"], d["accept"]),
    "undo": Table._apply_undo,
    "draw_offer": lambda t, d, at: t.offers.offered_draw(d["seat"]),
    "draw_answer": lambda t, d, at: t.offers.close_draw_offer(),
    "draw": Table._apply_draw,
    "abort": Table._apply_abort,
    "rematch_offer": lambda t, d, at: t.offers.asked_rematch(d["seat"]),
    "rematch_declined": lambda t, d, at: t.offers.declined_rematch(),
    "rematch": lambda t, d, at: t.offers.settled_rematch(d),
    "ratings": Table._apply_ratings,
    "berserk": lambda t, d, at: t.clock.halve(d["seat"]) if t.clock else None,
}


__all__ = ["Table"]
