"""Hase und Igel values: runners, the state, the events a turn causes, and the moves."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..base import InvalidMove, Json
from .board import (
    CHOICE_DELTA,
    SALADS,
)


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
            int(data["seat"]),
            str(data["kind"]),
            data.get("field"),
            int(data.get("carrots", 0)),
            data.get("card"),
            data.get("place"),
        )


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
    if words.startswith("card ") and words[5:] in CHOICE_DELTA:
        return CardChoice(words[5:])
    if words in ("leave", "leave timeout"):
        return Leave("timeout" if words.endswith("timeout") else "resignation")
    raise InvalidMove(
        f"{text!r} is not a move: use 'advance N', 'back', 'carrots +10', 'carrots -10', "
        "'card take', 'card give' or 'card none'"
    )
