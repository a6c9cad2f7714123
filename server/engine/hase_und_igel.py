"""Hase und Igel (Hare and Hedgehog), 2-6 seats, one runner each (docs/GAMES.md 4, "Decisions").

The 1978 Ravensburger board (4.2), the German rulebook's turn order (4.4) and the 1978-95 hare
deck of 12 cards (4.5: refund x2, take/give x2, fall back x2, one each of the other six). Seat 0
starts, then seat order (4.3 "youngest starts, then clockwise"). Carrots are 68 for 2-4 seats
and 98 for 5-6 (4.3), 3 salads each. Everything except the deck order is open information.

Notation (``str(move)``; ``parse_move`` is case- and space-tolerant, ``carrots 10`` = ``+10``)::

    advance 5      forward 5 fields for T(5) = 15 carrots (4.4 a; also into the goal)
    back           back to the nearest hedgehog, +10 per field (4.4 b)
    carrots +10    stay on a carrot field and take 10 (4.4 c)
    carrots -10    stay on a carrot field and give 10 back (4.4 c)
    card take      the "take or give 10 carrots" hare card: take 10 ...
    card give      ... give 10 ...
    card none      ... or neither (a follow-up decision of the same seat, same turn)

Automatic actions: ``play`` applies the move, then starts the next turns itself until a seat
has a real decision (``to_act``) or the race is over. Starting a turn means, in this order:
(1) the turn counter of the seat goes up (the cap ends the race first if the seat has used
its 300 turns); (2) position-field payout (4.4.2); (3) a forced turn is spent without asking:
a missed turn (card) or eating a salad (4.4.3, or the "eat a salad" card); (4) a seat with no
legal move falls under the stuck rule (4.4.7) and its turn is spent. A seat with exactly one
legal move is still asked. Every such happening is recorded in the state's ``events`` (the
view shows them beside ``last_move``), so clients see what a move caused.

Readings of the rules (docs/GAMES.md numbers):

* 4.4.1 Race position = 1 + runners finished + track runners strictly ahead; runners sharing
  Start share a position. Final ranks: finishers in finishing order, the rest by race position.
* 4.4.2 A position field pays only at the start of the turn after the runner entered it (by
  any move, card moves included): 10 x position when the position is the field's number; the
  flag field pays for 1, 5 or 6. With three runners a "4" field never pays.
* 4.4.3 Entering a salad field (forward or by a card) makes the next turn a forced eating turn:
  salads - 1 and 10 x race position (taken at the start of that turn). The turn after, the
  runner must move on (a salad field offers no "stay" move, so this holds by itself).
* 4.4.4 Forward: T(n) = n(n+1)/2; the target must be free (Start and goal hold any number),
  not a hedgehog, not a salad field without salads. Back: only the nearest hedgehog strictly
  behind; occupied or none -> no back move. Carrot exchange: on a carrot field, any turn
  (also the one after landing there); giving needs >= 10 carrots.
* 4.4.5 Only a forward move (``advance``, also the extra move of "move again") draws a card;
  card moves and ``back`` never do. The drawn card goes under the deck.
* 4.4.6 Goal: salads 0 and, after paying, carrots <= 10 x (finished + 1). A finished runner
  leaves the track (it occupies nothing and never acts again).
* 4.4.7 Stuck: a free nearest hedgehog behind would make ``back`` legal, so a runner without a
  legal move always goes back to Start with the initial carrots (salads unchanged).
* 4.4.8 / Decisions: with ``until: "all"`` the race goes on until one runner is left on the
  track; ``until: "first"`` ends at the first finisher (the rest ranked by race position).
  A seat that has had 300 turns (extra and forced turns count) ends the race when its next
  turn would start: reason ``turn_cap``, ranks by race position. Otherwise reason ``goal``.

Hare cards (4.5), 1978-95 deck (card names as in the ``deck`` option):

* ``miss_turn``: the next turn is skipped.
* ``eat_salad``: as if just arrived on a salad field: the next turn eats (10 x position); with
  no salad left the next turn is simply missed.
* ``next_carrot`` / ``prev_carrot``: free move to the nearest carrot field ahead / behind; if
  that field is occupied, or there is none, no effect (the card text; no search further on).
* ``move_again``: the same seat takes an extra turn at once; if it then has no legal move the
  extra turn lapses (the stuck rule is not applied to a bonus turn).
* ``refund``: the carrots paid for the move onto this hare field come back.
* ``take_give``: a follow-up decision ``card take`` / ``card give`` (needs 10) / ``card none``.
* ``fall_back``: the last runner on the track: no effect. Else to the nearest free field behind
  the next runner behind, skipping salad fields when out of salads (hedgehog fields are fine);
  behind a runner on Start (or with no such field) the runner goes to Start. No carrots.
* ``move_up``: the leader on the track: no effect (finished runners cannot be passed). Else to
  the nearest free field in front of the next runner ahead, skipping hedgehogs and (without
  salads) salad fields; if only the goal remains it may enter it free of charge when the goal
  conditions hold (salads 0, carrots <= 10 x (finished + 1)), else no effect.

The 2008 cards (4.5) are accepted in a custom ``deck`` too: ``give_behind`` (10 to every track
runner behind; if the drawer cannot pay all of them it pays none; receivers do not decline),
``behind_ahead`` (more runners behind than ahead -> miss a turn, else move again),
``set_65`` (carrots become exactly 65), ``salad_carrots`` (10 per salad held; none -> miss a
turn), ``halve`` (lose half, the half lost rounded down: 15 -> lose 7, keep 8), ``show`` (no
effect, carrots are open), ``shuffle`` (the whole deck is reshuffled with the turn's rng, then
1 carrot from every other track runner that has one).

Bot hooks: ``evaluate`` (seed 004's E = Ks*S + Kc*C + Kp*P per runner, see
:func:`runner_score`), ``move_heuristic`` and ``determinize`` (only the deck order is hidden).
Tests and analysis build positions with :func:`position`.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from .base import Game, InvalidMove, InvalidOptions, Json, Option, Outcome, Seat

BOARD_1978 = "SHKH3KHLI42I3KHIF24I3KL2IHK432IHFKH23IKHK2LI34H2FKIH324KILHK2HLHZ"
DECK_1978 = (
    "refund", "refund", "take_give", "take_give", "fall_back", "fall_back",
    "miss_turn", "eat_salad", "next_carrot", "prev_carrot", "move_again", "move_up",
)  # fmt: skip
CARDS_1978 = frozenset(DECK_1978)
CARDS_2008 = frozenset(
    {"give_behind", "behind_ahead", "set_65", "salad_carrots", "halve", "refund", "show",
     "shuffle"}
)  # fmt: skip
CARDS = CARDS_1978 | CARDS_2008
SALADS = 3
TURN_CAP = 300
#: the field of a runner that left the race (resigned or lost on time): off the track
OUT = -1
#: position fields: the race positions each pays for (4.4.2)
PAYS: Mapping[str, tuple[int, ...]] = {"2": (2,), "3": (3,), "4": (4,), "F": (1, 5, 6)}
_CELLS = "HKIL234F"
_CHOICE_DELTA = {"take": 10, "give": -10, "none": 0}


def cost(n: int) -> int:
    """T(n) = n(n+1)/2, the carrots a forward move of ``n`` fields costs (4.4 a)."""
    return n * (n + 1) // 2


def max_distance(carrots: int) -> int:
    """The longest forward move ``carrots`` pay for: the largest n with T(n) <= carrots."""
    return (math.isqrt(8 * max(carrots, 0) + 1) - 1) // 2


def default_carrots(n_seats: int) -> int:
    """68 carrots for 2-4 seats, 98 for 5-6 (4.3, Decisions)."""
    return 68 if n_seats <= 4 else 98


# -- the board -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """A board string with its look-up tables (index 0 Start, last index the goal)."""

    cells: str
    goal: int
    prev_hedgehog: tuple[int, ...]  # nearest hedgehog strictly behind, -1 if none
    next_carrot: tuple[int, ...]  # nearest carrot field strictly ahead, -1 if none
    prev_carrot: tuple[int, ...]  # nearest carrot field strictly behind, -1 if none
    salads_ahead: tuple[int, ...]  # salad fields strictly ahead


@lru_cache(maxsize=64)
def layout(cells: str) -> Layout:
    """The (cached) look-up tables of a board string such as :data:`BOARD_1978`."""
    n = len(cells)

    def nearest(i: int, kind: str, step: int) -> int:
        j = i + step
        while 0 <= j < n and cells[j] != kind:
            j += step
        return j if 0 <= j < n else -1

    return Layout(
        cells=cells,
        goal=n - 1,
        prev_hedgehog=tuple(nearest(i, "I", -1) for i in range(n)),
        next_carrot=tuple(nearest(i, "K", 1) for i in range(n)),
        prev_carrot=tuple(nearest(i, "K", -1) for i in range(n)),
        salads_ahead=tuple(cells[i + 1 :].count("L") for i in range(n)),
    )


def check_board(cells: str) -> str:
    """``cells`` if it is a board string (``S`` + fields of ``HKIL234F`` + ``Z``)."""
    if len(cells) < 3 or cells[0] != "S" or cells[-1] != "Z":
        raise InvalidOptions("option 'board' must start with S, end with Z, have >= 1 field")
    bad = sorted(set(cells[1:-1]) - set(_CELLS))
    if bad:
        raise InvalidOptions(f"option 'board' has unknown field letters {bad} (use {_CELLS})")
    return cells


def parse_deck(text: str) -> tuple[str, ...]:
    """Card names from the ``deck`` option: ``"refund,refund,move_up"`` or ``"refund*2,..."``."""
    cards: list[str] = []
    for item in text.split(","):
        name, _, times = item.strip().partition("*")
        name = name.strip()
        if name not in CARDS:
            raise InvalidOptions(f"unknown hare card {name!r}; known: {', '.join(sorted(CARDS))}")
        if times and not (times.strip().isascii() and times.strip().isdigit()):
            raise InvalidOptions(f"bad card count in {item!r}")
        cards.extend([name] * (int(times) if times else 1))
    if not cards or len(cards) > 100:
        raise InvalidOptions("option 'deck' must hold 1 to 100 cards")
    return tuple(cards)


# -- values --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Runner:
    """One seat's runner. ``pending`` ("miss" or "eat") marks a next turn spent automatically;
    ``arrived`` says it entered ``field`` during its last turn (position fields pay, 4.4.2)."""

    field: int
    carrots: int
    salads: int = SALADS
    pending: str = ""
    arrived: bool = False


@dataclass(frozen=True, slots=True)
class Event:
    """Something a turn caused, for the views: ``kind`` with its seat and details.

    Kinds: advance, back, carrots, finish, card, card_carrots, card_move, no_effect, skip_next,
    eat_next, again, shuffle, payout, eat, miss, lapse, stuck, turn_cap, leave. ``carrots`` is
    always the change of that seat's carrots.
    """

    seat: int
    kind: str
    field: int | None = None
    carrots: int = 0
    card: str | None = None
    place: int | None = None

    def to_json(self) -> Json:
        out: Json = {"seat": self.seat, "kind": self.kind}
        if self.field is not None:
            out["field"] = self.field
        if self.carrots:
            out["carrots"] = self.carrots
        if self.card is not None:
            out["card"] = self.card
        if self.place is not None:
            out["place"] = self.place
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        return cls(
            int(data["seat"]), str(data["kind"]), data.get("field"), int(data.get("carrots", 0)),
            data.get("card"), data.get("place"),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class HaseState:
    """The true state. ``deck`` (top first) is secret; ``current`` is -1 once the race is over.

    ``decision`` is ``"take_give"`` while the current seat answers that card, else ``""``.
    ``out`` lists the seats that left the race, in order; their runners stand on :data:`OUT`.
    ``events`` are those of the last ``play`` (or of ``new``).
    """

    board: str
    runners: tuple[Runner, ...]
    deck: tuple[str, ...]
    start_carrots: int
    until: str = "all"
    finished: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    current: int = 0
    decision: str = ""
    turns: tuple[int, ...] = ()
    ply: int = 0
    end: str = ""
    last_move: str | None = None
    last_seat: int | None = None
    events: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Advance:
    """Move ``n`` fields forward (into the goal too), paying T(n)."""

    n: int

    def __str__(self) -> str:
        return f"advance {self.n}"


@dataclass(frozen=True, slots=True)
class Back:
    """Fall back to the nearest hedgehog behind, taking 10 carrots per field."""

    def __str__(self) -> str:
        return "back"


@dataclass(frozen=True, slots=True)
class Carrots:
    """Stay on a carrot field and take (``+10``) or give (``-10``) ten carrots."""

    delta: int

    def __str__(self) -> str:
        return f"carrots {self.delta:+d}"


@dataclass(frozen=True, slots=True)
class CardChoice:
    """The answer to the take-or-give card: ``take``, ``give`` or ``none``."""

    choice: str

    def __str__(self) -> str:
        return f"card {self.choice}"


@dataclass(frozen=True, slots=True)
class Leave:
    """A runner leaves the race (resignation, or its flag fell): never a legal move of the
    seat, it is what :meth:`HaseUndIgel.leave` gives the room, and the race goes on."""

    reason: str = "resignation"

    def __str__(self) -> str:
        return "leave timeout" if self.reason == "timeout" else "leave"


Move = Advance | Back | Carrots | CardChoice | Leave

_ADVANCE = re.compile(r"(?:advance|forward)\s+\+?([0-9]{1,3})")


def parse(text: str) -> Move:
    """Parse a move's text form; :class:`InvalidMove` if it is not one."""
    if not isinstance(text, str) or len(text) > 40:
        raise InvalidMove(f"{text!r} is not a Hase und Igel move")
    words = " ".join(text.lower().split())
    m = _ADVANCE.fullmatch(words)
    if m and int(m.group(1)) >= 1:
        return Advance(int(m.group(1)))
    if words in ("back", "fallback", "fall back"):
        return Back()
    if words in ("carrots +10", "carrots 10", "carrots + 10"):
        return Carrots(10)
    if words in ("carrots -10", "carrots - 10"):
        return Carrots(-10)
    if words.startswith("card ") and words[5:] in _CHOICE_DELTA:
        return CardChoice(words[5:])
    if words in ("leave", "leave timeout"):
        return Leave("timeout" if words.endswith("timeout") else "resignation")
    raise InvalidMove(
        f"{text!r} is not a move: use 'advance N', 'back', 'carrots +10', 'carrots -10', "
        "'card take', 'card give' or 'card none'"
    )


# -- rules ---------------------------------------------------------------------------------


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


def _choices(r: Runner) -> list[Move]:
    if r.carrots >= 10:
        return [CardChoice("take"), CardChoice("give"), CardChoice("none")]
    return [CardChoice("take"), CardChoice("none")]


class _Turn:
    """A mutable scratch copy of a state while one ``play`` (or ``new``) is worked out."""

    __slots__ = (
        "again", "current", "decision", "deck", "end", "events", "finished", "lay", "out",
        "rng", "runners", "start_carrots", "turns", "until",
    )  # fmt: skip

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
            board=state.board, runners=tuple(self.runners), deck=tuple(self.deck),
            start_carrots=self.start_carrots, until=self.until, finished=tuple(self.finished),
            out=tuple(self.out), current=self.current, decision=self.decision,
            turns=tuple(self.turns), ply=ply, end=self.end, last_move=move, last_seat=seat,
            events=tuple(self.events),
        )  # fmt: skip

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


def _apply(w: _Turn, seat: int, move: Move) -> None:
    """Apply ``seat``'s own move (4.4 a-c, 4.4.5, 4.4.6); cards may set up more."""
    r = w.runners[seat]
    if isinstance(move, CardChoice):
        w.decision = ""
        w.gain(seat, _CHOICE_DELTA[move.choice], "card_carrots", card="take_give")
    elif isinstance(move, Advance):
        paid = cost(move.n)
        w.arrive(seat, r.field + move.n, "advance", -paid)
        if w.lay.cells[r.field + move.n] == "H":
            _draw(w, seat, paid)
    elif isinstance(move, Back):
        h = w.lay.prev_hedgehog[r.field]
        w.arrive(seat, h, "back", 10 * (r.field - h))
    elif isinstance(move, Carrots):
        w.runners[seat] = replace(r, arrived=False)
        w.gain(seat, move.delta, "carrots")


def _next_turn(w: _Turn, first: int | None = None) -> None:
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


def _begin(w: _Turn, seat: int, extra: bool) -> bool:
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


def _leave(state: HaseState, seat: int, move: Leave, rng: random.Random) -> HaseState:
    """``seat``'s runner leaves the track (it frees its field and never acts again); if it
    was to act, the next runner's turn starts; one runner left on the track ends the race."""
    w = _Turn(state, rng)
    w.out.append(seat)
    w.runners[seat] = replace(w.runners[seat], field=OUT, pending="", arrived=False)
    w.log(seat, "leave")
    if w.over():
        w.end, w.current, w.decision = move.reason, -1, ""
    elif w.current == seat:
        w.decision, w.again = "", False
        _next_turn(w)
    return w.freeze(state, state.ply + 1, str(move), seat)


# -- hare cards (4.5) ------------------------------------------------------------------------


def _draw(w: _Turn, seat: int, paid: int) -> None:
    if not w.deck:
        return
    card = w.deck.pop(0)
    w.deck.append(card)
    w.log(seat, "card", card=card)
    _CARD_RULES[card](w, seat, paid)


def _card_move(w: _Turn, seat: int, target: int | None, card: str) -> None:
    if target is None or target == w.runners[seat].field:
        w.log(seat, "no_effect", card=card)
    else:
        w.arrive(seat, target, "card_move")


def _refund(w: _Turn, seat: int, paid: int) -> None:
    w.gain(seat, paid, "card_carrots", card="refund")


def _take_give(w: _Turn, seat: int, paid: int) -> None:
    w.decision = "take_give"


def _miss_turn(w: _Turn, seat: int, paid: int) -> None:
    w.runners[seat] = replace(w.runners[seat], pending="miss")
    w.log(seat, "skip_next")


def _eat_salad(w: _Turn, seat: int, paid: int) -> None:
    w.runners[seat] = replace(w.runners[seat], pending="eat")
    w.log(seat, "eat_next")


def _move_again(w: _Turn, seat: int, paid: int) -> None:
    w.again = True
    w.log(seat, "again")


def _next_carrot(w: _Turn, seat: int, paid: int) -> None:
    t = w.lay.next_carrot[w.runners[seat].field]
    _card_move(w, seat, t if t > 0 and w.free(t, seat) else None, "next_carrot")


def _prev_carrot(w: _Turn, seat: int, paid: int) -> None:
    t = w.lay.prev_carrot[w.runners[seat].field]
    _card_move(w, seat, t if t > 0 and w.free(t, seat) else None, "prev_carrot")


def _fall_back(w: _Turn, seat: int, paid: int) -> None:
    r = w.runners[seat]
    behind = [
        o.field for i, o in enumerate(w.runners) if i != seat and OUT < o.field < r.field
    ]
    if not behind:
        _card_move(w, seat, None, "fall_back")
        return
    t = max(behind) - 1
    while t > 0 and not (w.free(t, seat) and (w.lay.cells[t] != "L" or r.salads > 0)):
        t -= 1
    _card_move(w, seat, max(t, 0), "fall_back")


def _move_up(w: _Turn, seat: int, paid: int) -> None:
    r, goal, cells = w.runners[seat], w.lay.goal, w.lay.cells
    ahead = [o.field for i, o in enumerate(w.runners) if i != seat and r.field < o.field < goal]
    target: int | None = None
    if ahead:
        t = min(ahead) + 1
        while t < goal and not (
            w.free(t, seat) and cells[t] != "I" and (cells[t] != "L" or r.salads > 0)
        ):
            t += 1
        if t < goal or w.can_finish(r, r.carrots):
            target = t
    _card_move(w, seat, target, "move_up")


def _give_behind(w: _Turn, seat: int, paid: int) -> None:
    mine = w.runners[seat].field
    behind = [
        i for i, o in enumerate(w.runners) if i != seat and w.racing(i) and o.field < mine
    ]
    if not behind or w.runners[seat].carrots < 10 * len(behind):
        w.log(seat, "no_effect", card="give_behind")
        return
    for i in behind:
        w.gain(seat, -10, "card_carrots", card="give_behind")
        w.gain(i, 10, "card_carrots", card="give_behind")


def _behind_ahead(w: _Turn, seat: int, paid: int) -> None:
    mine = w.runners[seat].field
    others = [o for i, o in enumerate(w.runners) if i != seat and i not in w.out]
    behind = sum(1 for o in others if o.field < mine)
    ahead = sum(1 for o in others if o.field > mine)
    (_miss_turn if behind > ahead else _move_again)(w, seat, paid)


def _set_65(w: _Turn, seat: int, paid: int) -> None:
    w.gain(seat, 65 - w.runners[seat].carrots, "card_carrots", card="set_65")


def _salad_carrots(w: _Turn, seat: int, paid: int) -> None:
    salads = w.runners[seat].salads
    if salads:
        w.gain(seat, 10 * salads, "card_carrots", card="salad_carrots")
    else:
        _miss_turn(w, seat, paid)


def _halve(w: _Turn, seat: int, paid: int) -> None:
    w.gain(seat, -(w.runners[seat].carrots // 2), "card_carrots", card="halve")


def _show(w: _Turn, seat: int, paid: int) -> None:
    w.log(seat, "no_effect", card="show")


def _shuffle(w: _Turn, seat: int, paid: int) -> None:
    w.rng.shuffle(w.deck)
    w.log(seat, "shuffle")
    for i, o in enumerate(w.runners):
        if i != seat and w.racing(i) and o.carrots > 0:
            w.gain(i, -1, "card_carrots", card="shuffle")
            w.gain(seat, 1, "card_carrots", card="shuffle")


_CARD_RULES: dict[str, Callable[[_Turn, int, int], None]] = {
    "refund": _refund,
    "take_give": _take_give,
    "miss_turn": _miss_turn,
    "eat_salad": _eat_salad,
    "move_again": _move_again,
    "next_carrot": _next_carrot,
    "prev_carrot": _prev_carrot,
    "fall_back": _fall_back,
    "move_up": _move_up,
    "give_behind": _give_behind,
    "behind_ahead": _behind_ahead,
    "set_65": _set_65,
    "salad_carrots": _salad_carrots,
    "halve": _halve,
    "show": _show,
    "shuffle": _shuffle,
}


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
        board=board, runners=tuple(rs), deck=tuple(deck),
        start_carrots=start_carrots or default_carrots(n), until=until,
        finished=tuple(finished), current=current, decision=decision,
        turns=tuple(turns) if turns is not None else (0,) * n,
    )  # fmt: skip
    if not begin:
        return state
    w = _Turn(state, random.Random(0))
    _next_turn(w, first=current)
    return w.freeze(state, 0, None, None)


# -- evaluation (seed 004: E = Ks*S + Kc*C + Kp*P) -------------------------------------------

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


# -- the game ------------------------------------------------------------------------------


class HaseUndIgel(Game[HaseState, Move]):
    name = "hase_und_igel"
    title = "Hase und Igel"
    description = (
        "Race of hares: pay carrots to run, eat your three salads, draw hare cards; "
        "the 1978 Ravensburger board."
    )
    min_seats = 2
    max_seats = 6
    hidden_information = True  # the hare deck's order
    options = {
        "board": Option("str", BOARD_1978, "Board: S, fields of HKIL234F, Z (docs/GAMES.md 4.2)"),
        "deck": Option("str", ",".join(DECK_1978), "Hare cards, comma list (name*k repeats)"),
        "carrots": Option(
            "int", 0, "Starting carrots; 0 = 68 (2-4 seats) or 98", minimum=0, maximum=10000
        ),
        "until": Option(
            "str", "all", "Race until all but one finished, or the first", choices=("all", "first")
        ),
    }

    # -- setup ---------------------------------------------------------------------------

    def check_options(self, raw: Mapping[str, Any] | None) -> dict[str, Any]:
        opts = super().check_options(raw)
        check_board(opts["board"])
        parse_deck(opts["deck"])
        return opts

    def new(self, options: Mapping[str, Any], n_seats: int, rng: random.Random) -> HaseState:
        self.check_seats(n_seats)
        opts = self.check_options(options)
        deck = list(parse_deck(opts["deck"]))
        rng.shuffle(deck)
        carrots = opts["carrots"] or default_carrots(n_seats)
        state = position(
            [Runner(0, carrots)] * n_seats, deck=deck, board=opts["board"],
            start_carrots=carrots, until=opts["until"],
        )  # fmt: skip
        w = _Turn(state, rng)
        _next_turn(w, first=0)
        return w.freeze(state, 0, None, None)

    # -- playing -------------------------------------------------------------------------

    def to_act(self, state: HaseState) -> frozenset[Seat]:
        return frozenset() if state.end else frozenset({state.current})

    def legal_moves(self, state: HaseState, seat: Seat) -> list[Move]:
        if state.end or seat != state.current:
            return []
        if state.decision == "take_give":
            return _choices(state.runners[seat])
        return generate(layout(state.board), state.runners, len(state.finished), seat)

    def parse_move(self, state: HaseState, seat: Seat, text: str) -> Move:
        return parse(text)

    def play(
        self,
        state: HaseState,
        moves: Mapping[Seat, Move],
        rng: random.Random,
        *,
        check: bool = True,
    ) -> HaseState:
        if check:
            self.check_moves(state, moves)
        if len(moves) == 1:
            [(seat, move)] = moves.items()
            if isinstance(move, Leave):
                return _leave(state, seat, move, rng)
        seat = state.current
        move = moves[seat]
        w = _Turn(state, rng)
        _apply(w, seat, move)
        if not w.decision:
            _next_turn(w)
        return w.freeze(state, state.ply + 1, str(move), seat)

    def outcome(self, state: HaseState) -> Outcome | None:
        if not state.end:
            return None
        return Outcome.from_ranks(standings(state), state.end)

    def leave(self, state: HaseState, seat: Seat, reason: str) -> Move | None:
        """A runner still on the track leaves and the race goes on for the others."""
        if state.end or seat in state.finished or seat in state.out:
            return None
        return Leave(reason)

    def resign(
        self, state: HaseState, seat: Seat, n_seats: int, reason: str = "resignation"
    ) -> Outcome:
        """The resigner ranks last; the others keep their race order (ties shared)."""
        places = standings(state)
        others = [s for s in range(n_seats) if s != seat]
        ranks = [n_seats] * n_seats
        for s in others:
            ranks[s] = 1 + sum(1 for o in others if places[o] < places[s])
        return Outcome.from_ranks(ranks, reason)

    def ply(self, state: HaseState) -> int:
        return state.ply

    def view(self, state: HaseState, seat: Seat | None) -> Json:
        """Everything but the deck order (its size and card counts are public)."""
        places = standings(state)
        cards: dict[str, int] = {}
        for card in sorted(state.deck):
            cards[card] = cards.get(card, 0) + 1
        return {
            "board": state.board,
            "seat": seat,
            "ply": state.ply,
            "to_act": sorted(self.to_act(state)),
            "decision": None if state.end else ("card" if state.decision else "move"),
            "runners": [
                {
                    "seat": s,
                    "field": r.field,
                    "carrots": r.carrots,
                    "salads": r.salads,
                    "place": places[s],
                    "finished": s in state.finished,
                    "out": s in state.out,
                    "pending": r.pending or None,
                    "arrived": r.arrived,
                    "turns": state.turns[s],
                }
                for s, r in enumerate(state.runners)
            ],
            "finished": list(state.finished),
            "out": list(state.out),
            "start_carrots": state.start_carrots,
            "until": state.until,
            "turn_cap": TURN_CAP,
            "deck_size": len(state.deck),
            "cards": cards,
            "last_move": state.last_move,
            "last_seat": state.last_seat,
            "events": [e.to_json() for e in state.events],
            "over": bool(state.end),
            "reason": state.end or None,
        }

    # -- bot hooks -----------------------------------------------------------------------

    def evaluate(self, state: HaseState, seat: Seat) -> list[float]:
        """E per seat (:func:`runner_score`); finished runners score above anyone running.
        Open information, so the result does not depend on ``seat``."""
        lay = layout(state.board)
        n = len(state.runners)
        out = []
        for s, r in enumerate(state.runners):
            if s in state.finished:
                out.append(FINISHED_BASE + 50.0 * (n - 1 - state.finished.index(s)))
            elif s in state.out:
                out.append(-FINISHED_BASE)
            else:
                place = race_place(state.runners, s)
                out.append(runner_score(lay, r, place, len(state.finished)))
        return out

    def move_heuristic(self, state: HaseState, seat: Seat, move: Move) -> float:
        """Change of the mover's E by ``move`` without chance: a hare field counts as
        HARE_PESSIMISM carrots lost (seed 004's "hare trap"); finishing scores high."""
        lay = layout(state.board)
        r = state.runners[seat]
        k = len(state.finished)
        before = runner_score(lay, r, race_place(state.runners, seat), k)
        if isinstance(move, CardChoice):
            after = replace(r, carrots=r.carrots + _CHOICE_DELTA[move.choice])
        elif isinstance(move, Carrots):
            after = replace(r, carrots=r.carrots + move.delta, arrived=False)
        else:
            if isinstance(move, Advance):
                field, delta = r.field + move.n, -cost(move.n)
                if field == lay.goal:
                    return FINISHED_BASE - before
                if lay.cells[field] == "H":
                    delta -= HARE_PESSIMISM
            else:
                field = lay.prev_hedgehog[r.field]
                delta = 10 * (r.field - field)
            pending = "eat" if lay.cells[field] == "L" else ""
            after = replace(
                r, field=field, carrots=max(0, r.carrots + delta), arrived=True, pending=pending
            )
        runners = list(state.runners)
        runners[seat] = after
        return runner_score(lay, after, race_place(runners, seat), k) - before

    def determinize(self, views: Sequence[Json], seat: Seat, rng: random.Random) -> HaseState:
        """A true state matching the last view. Only the deck order is unknown: the cards
        seen drawn since the last shuffle lie at the bottom in draw order (a drawn card goes
        under the deck), the rest are shuffled on top."""
        view = views[-1]
        seen: list[str] = []
        last_ply = None
        for v in views:
            if v["ply"] == last_ply:
                continue
            last_ply = v["ply"]
            for e in v["events"]:
                if e["kind"] == "shuffle":
                    seen.clear()
                elif e["kind"] == "card":
                    seen.append(str(e["card"]))
        pool = Counter({str(c): int(k) for c, k in view["cards"].items()})
        size, bottom = sum(pool.values()), list[str]()
        for card in reversed(seen):
            if len(bottom) == size or pool[card] == 0:
                break
            pool[card] -= 1
            bottom.append(card)
        top = sorted(pool.elements())
        rng.shuffle(top)
        rs = view["runners"]
        return HaseState(
            board=str(view["board"]),
            runners=tuple(
                Runner(r["field"], r["carrots"], r["salads"], r["pending"] or "", r["arrived"])
                for r in rs
            ),
            deck=tuple(top + bottom[::-1]),
            start_carrots=int(view["start_carrots"]),
            until=str(view["until"]),
            finished=tuple(view["finished"]),
            out=tuple(view.get("out", ())),
            current=view["to_act"][0] if view["to_act"] else -1,
            decision="take_give" if view["decision"] == "card" else "",
            turns=tuple(r["turns"] for r in rs),
            ply=int(view["ply"]),
            end=view["reason"] or "",
            last_move=view["last_move"],
            last_seat=view["last_seat"],
            events=tuple(Event.from_json(e) for e in view["events"]),
        )

    # -- snapshots -----------------------------------------------------------------------

    def encode_state(self, state: HaseState) -> Json:
        return {
            "board": state.board,
            "runners": [
                [r.field, r.carrots, r.salads, r.pending, r.arrived] for r in state.runners
            ],
            "deck": list(state.deck),
            "start_carrots": state.start_carrots,
            "until": state.until,
            "finished": list(state.finished),
            "out": list(state.out),
            "current": state.current,
            "decision": state.decision,
            "turns": list(state.turns),
            "ply": state.ply,
            "end": state.end,
            "last_move": state.last_move,
            "last_seat": state.last_seat,
            "events": [e.to_json() for e in state.events],
        }

    def decode_state(self, data: Mapping[str, Any]) -> HaseState:
        return HaseState(
            board=str(data["board"]),
            runners=tuple(
                Runner(int(f), int(c), int(s), str(p), bool(a)) for f, c, s, p, a in data["runners"]
            ),
            deck=tuple(str(c) for c in data["deck"]),
            start_carrots=int(data["start_carrots"]),
            until=str(data["until"]),
            finished=tuple(int(s) for s in data["finished"]),
            out=tuple(int(s) for s in data.get("out", ())),
            current=int(data["current"]),
            decision=str(data["decision"]),
            turns=tuple(int(t) for t in data["turns"]),
            ply=int(data["ply"]),
            end=str(data["end"]),
            last_move=data["last_move"],
            last_seat=data["last_seat"],
            events=tuple(Event.from_json(e) for e in data["events"]),
        )


GAMES = (HaseUndIgel(),)
