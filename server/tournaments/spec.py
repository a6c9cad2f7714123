"""What a tournament's creator chose: :class:`Spec`, parsed and checked from the request
(:meth:`Spec.parse`) with a clear :class:`~server.tournaments.errors.TournamentError` for
each field, and stored in the ``created`` event (:meth:`Spec.to_json`, :meth:`Spec.from_json`).

The request (``tournament_create`` in docs/PROTOCOL.md)::

    {"name": "Friday blitz", "game": "chess", "system": "arena",
     "clock": {"base": 180, "increment": 2}, "minutes": 30,      # arena: minutes or seconds
     "rounds": 5,                                                # swiss
     "interlude": 5,      # swiss, round robin: seconds between a round's end and the next
     "seats": 2, "rated": true, "starts_at": 1790000000, "max_players": 50, "berserk": true}

Unknown fields are refused; every string is matched whole.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import REGISTRY, InvalidOptions, Registry
from .errors import TournamentError
from .values import KEY, NAME_MAX, Json

SYSTEMS = ("arena", "swiss", "round_robin")
ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
FIELDS = frozenset(
    {
        "name",
        "game",
        "system",
        "clock",
        "minutes",
        "seconds",
        "rounds",
        "seats",
        "rated",
        "starts_at",
        "max_players",
        "berserk",
        "interlude",
    }
)
# Limits
MIN_ARENA_BASE = 15  # seconds: a berserked clock keeps half of it
MAX_BASE = 3 * 3600
MAX_INCREMENT = 180
MAX_MINUTES = 720
MIN_SECONDS, MAX_SECONDS = 10.0, MAX_MINUTES * 60.0  # the seconds form (short test events)
MAX_ROUNDS = 20
MAX_PLAYERS = 500
MAX_ROUND_ROBIN = 16  # a round robin is for small fields: 15 rounds at most
#: a Swiss's FIDE Dutch pairing (server/tournaments/swiss.py) grows steeply with the field:
#: measured on a two-core machine, about 0.5 s a round for 32 players, 5 s for 64
MAX_SWISS = 32
MAX_START_AHEAD = 7 * 24 * 3600.0
#: seconds between the end of a Swiss or round-robin round and the next round's games: the
#: players see their result and their next opponent first (0: at once, as before)
DEFAULT_INTERLUDE = 5
MAX_INTERLUDE = 60
DEFAULT_MAX_PLAYERS = {"arena": 100, "swiss": MAX_SWISS, "round_robin": 8}
TOP_PLAYERS = {"arena": MAX_PLAYERS, "swiss": MAX_SWISS, "round_robin": MAX_ROUND_ROBIN}


def _bad(message: str) -> TournamentError:
    return TournamentError("bad_request", message)


def _whole(raw: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = raw[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(f"{name} must be a whole number from {low} to {high}")
    return value


def _flag(raw: Mapping[str, Any], name: str, default: bool) -> bool:
    value = raw.get(name, default)
    if not isinstance(value, bool):
        raise _bad(f"{name} must be true or false")
    return value


@dataclass(frozen=True, slots=True)
class Spec:
    """A tournament as its creator chose it (see the module docstring for the request).

    ``duration_s`` is an arena's length in seconds (60 ``minutes``, or the ``seconds``
    form); ``rounds`` is a Swiss's number of rounds (a round robin's follows from its field
    when it starts). ``starts_at`` ``None``: it starts when ``max_players`` have joined.
    ``interlude``: seconds from the end of a Swiss or round-robin round to the next round's
    games, announced meanwhile (0 in an arena, and in a log written before it existed).
    """

    id: str
    name: str
    game: str
    system: str
    base: int
    increment: int
    seats: int
    minutes: int | None
    rounds: int | None
    rated: bool
    starts_at: float | None
    max_players: int
    creator: str
    berserk: bool
    duration_s: float | None = None
    interlude: float = 0.0

    @classmethod
    def parse(
        cls,
        raw: Any,
        *,
        id: str,
        creator: str,
        now: float,
        registry: Registry = REGISTRY,
    ) -> Spec:
        """Check a creator's request; raise ``TournamentError("bad_request", ...)``."""
        if not isinstance(raw, Mapping):
            raise _bad("a tournament is described by an object")
        unknown = sorted(str(k) for k in set(raw) - FIELDS)
        if unknown:
            raise _bad(f"unknown tournament field(s): {', '.join(unknown)}")
        if not isinstance(id, str) or not ID.fullmatch(id):
            raise _bad("a tournament id is 1-64 letters, digits, _ or -")
        if not isinstance(creator, str) or not KEY.fullmatch(creator):
            raise _bad("the creator's key is malformed")
        for need in ("name", "game", "system", "clock"):
            if need not in raw:
                raise _bad(f"{need} is required")
        name = raw["name"]
        if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
            raise _bad(f"name must be 1 to {NAME_MAX} characters")
        if not name.isprintable() or name != name.strip():
            raise _bad("name must be printable, without spaces at either end")
        game_name = raw["game"]
        if not isinstance(game_name, str) or game_name not in registry:
            raise _bad("game must be the name of a game this server offers")
        game = registry.get(game_name)
        system = raw["system"]
        if system not in SYSTEMS:
            raise _bad(f"system must be one of {', '.join(SYSTEMS)}")

        clock = raw["clock"]
        if not isinstance(clock, Mapping) or set(clock) - {"base", "increment"}:
            raise _bad('clock must be {"base": seconds, "increment": seconds}')
        if "base" not in clock:
            raise _bad("clock base is required")
        low = MIN_ARENA_BASE if system == "arena" else 1
        base = _whole(clock, "base", low, MAX_BASE)
        increment = _whole(clock, "increment", 0, MAX_INCREMENT) if "increment" in clock else 0

        seats = _whole(raw, "seats", 2, 6) if "seats" in raw else game.min_seats
        try:
            game.check_seats(seats)
        except InvalidOptions as e:
            raise _bad(str(e)) from None
        if system != "arena" and seats != 2:
            raise _bad(f"a {system} is for two-seat games; many-seat tables play an arena")

        minutes = rounds = None
        duration = None
        if system == "arena":
            if ("minutes" in raw) == ("seconds" in raw):
                raise _bad("an arena needs its length: minutes (or seconds), one of them")
            if "minutes" in raw:
                minutes = _whole(raw, "minutes", 1, MAX_MINUTES)
                duration = minutes * 60.0
            else:
                secs = raw["seconds"]
                if isinstance(secs, bool) or not isinstance(secs, int | float):
                    raise _bad("seconds must be a number")
                if not MIN_SECONDS <= secs <= MAX_SECONDS:
                    raise _bad(f"seconds must be {MIN_SECONDS:g} to {MAX_SECONDS:g}")
                duration = float(secs)
                minutes = max(1, round(duration / 60))
            if "rounds" in raw:
                raise _bad("an arena has a duration, not rounds")
        else:
            if "minutes" in raw or "seconds" in raw:
                raise _bad(f"a {system} has rounds, not a duration")
            if system == "swiss":
                if "rounds" not in raw:
                    raise _bad("a swiss needs its number of rounds")
                rounds = _whole(raw, "rounds", 1, MAX_ROUNDS)
            elif "rounds" in raw:
                raise _bad("a round robin's rounds follow from its players")

        interlude = 0.0
        if system == "arena":
            if "interlude" in raw:
                raise _bad("an arena has no rounds to pause between: no interlude")
        elif "interlude" in raw:
            value = raw["interlude"]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise _bad("interlude must be a number of seconds")
            if not 0 <= value <= MAX_INTERLUDE:
                raise _bad(f"interlude must be 0 to {MAX_INTERLUDE} seconds")
            interlude = float(value)
        else:
            interlude = float(DEFAULT_INTERLUDE)

        if "max_players" in raw:
            max_players = _whole(raw, "max_players", max(2, seats), TOP_PLAYERS[system])
        else:
            max_players = DEFAULT_MAX_PLAYERS[system]
        starts_at = raw.get("starts_at")
        if starts_at is not None:
            if isinstance(starts_at, bool) or not isinstance(starts_at, int | float):
                raise _bad("starts_at must be a unix time in seconds")
            if not now <= starts_at <= now + MAX_START_AHEAD:
                raise _bad("starts_at must be from now to seven days ahead")
            starts_at = float(starts_at)
        rated = _flag(raw, "rated", False)
        can_berserk = system == "arena" and seats == 2
        berserk = _flag(raw, "berserk", can_berserk)
        if berserk and not can_berserk:
            raise _bad("berserk is for arenas of two-seat games")
        return cls(
            id=id,
            name=name,
            game=game_name,
            system=system,
            base=base,
            increment=increment,
            seats=seats,
            minutes=minutes,
            rounds=rounds,
            rated=rated,
            starts_at=starts_at,
            max_players=max_players,
            creator=creator,
            berserk=berserk,
            duration_s=duration,
            interlude=interlude,
        )

    def to_json(self) -> Json:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "system": self.system,
            "base": self.base,
            "increment": self.increment,
            "seats": self.seats,
            "minutes": self.minutes,
            "rounds": self.rounds,
            "rated": self.rated,
            "starts_at": self.starts_at,
            "max_players": self.max_players,
            "creator": self.creator,
            "berserk": self.berserk,
            "duration_s": self.duration_s,
            "interlude": self.interlude,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Spec:
        # fields added later have defaults: a log written before them still replays
        return cls(**{k: d[k] for k in cls.__dataclass_fields__ if k in d})

    @property
    def clock(self) -> Json:
        """The rooms' clock (a room policy's ``clock``)."""
        return {"type": "fischer", "base": self.base, "increment": self.increment}
