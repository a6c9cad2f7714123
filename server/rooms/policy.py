"""Room settings: how a room runs a game, as opposed to the game's own rules (options)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import Game, InvalidOptions
from .clock import ClockSpec
from .ratings import speed

Json = dict[str, Any]

MAX_SPECTATOR_DELAY = 50
KEYS = {
    "undo",
    "bots_accept_undo",
    "clock",
    "on_timeout",
    "spectator_delay",
    "spectators_see_all",
    "first_move",
    "rematch",
}
#: seconds to make the first move, by speed, as lichess gives them (lila's
#: ``Game.timeForFirstMove``, outside tournaments); untimed games never abort
FIRST_MOVE = {"ultrabullet": 15, "bullet": 20, "blitz": 25, "rapid": 30, "classical": 35}
MAX_FIRST_MOVE = 3600
#: the least delay under which spectators of a hidden-information game may see everything
MIN_SEE_ALL_DELAY = 2


@dataclass(frozen=True, slots=True)
class Policy:
    """Room settings (``create_room.settings``).

    Attributes:
        undo: take-backs allowed. Default: on for full-information games, off where the
            game hides something (a take-back would let a seat retry with what the undone
            move revealed — a flipped BanQi piece, squares seen through the fog, the
            opponent's sealed move).
        bots_accept_undo: bots accept take-back requests.
        clock: the game clock, or None for untimed games.
        on_timeout: what a flag fall does in a simultaneous turn: ``forfeit`` (the seat
            that has not moved loses) or ``random`` (a random legal move is played for it).
            In a turn-based game the seat always loses.
        spectator_delay: 0 — spectators see the game live; N > 0 — spectators see it N
            turns late (every read path: updates, resync, records, PGN, the lobby).
        spectators_see_all: in a hidden-information game, spectators see every seat's view
            (the truth), ``spectator_delay`` turns late — only when the room's creator asks
            for it, with a delay of at least :data:`MIN_SEE_ALL_DELAY` turns. Anybody can
            open a second connection, so a player could watch their own game this way: the
            lobby and the room page say so. Without it, a delay never reveals hidden
            information: spectators get the public view, late.
        first_move: with a clock, seconds a person has to make their first move (counted
            from when their first turn began): past it the game is aborted, unrated. No
            clock runs until every seat has moved. Default: lichess's by speed
            (:data:`FIRST_MOVE`: 15 s ultrabullet to 35 s classical); 0: never.
        rematch: the players may ask for a rematch once the game is over (off in a
            tournament's games: the tournament pairs the next one).
    """

    undo: bool
    bots_accept_undo: bool = True
    clock: ClockSpec | None = None
    on_timeout: str = "forfeit"
    spectator_delay: int = 0
    spectators_see_all: bool = False
    first_move: float = 0
    rematch: bool = True

    @classmethod
    def parse(cls, raw: Mapping[str, Any] | None, game: Game[Any, Any]) -> Policy:
        raw = dict(raw or {})
        unknown = sorted(set(raw) - KEYS)
        if unknown:
            raise InvalidOptions(f"unknown room setting(s): {', '.join(unknown)}")
        for key in ("undo", "bots_accept_undo", "spectators_see_all", "rematch"):
            if key in raw and not isinstance(raw[key], bool):
                raise InvalidOptions(f"room setting {key!r} must be true or false")
        on_timeout = raw.get("on_timeout", "forfeit")
        if on_timeout not in ("forfeit", "random"):
            raise InvalidOptions("on_timeout must be 'forfeit' or 'random'")
        delay = raw.get("spectator_delay", 0)
        if isinstance(delay, bool) or not isinstance(delay, int):
            raise InvalidOptions("spectator_delay must be a whole number of turns")
        if not 0 <= delay <= MAX_SPECTATOR_DELAY:
            raise InvalidOptions(f"spectator_delay must be 0 to {MAX_SPECTATOR_DELAY}")
        see_all = raw.get("spectators_see_all", False)
        if see_all and delay < MIN_SEE_ALL_DELAY:
            raise InvalidOptions(
                f"spectators_see_all needs a spectator_delay of at least {MIN_SEE_ALL_DELAY} "
                "turns (a player could watch their own game through a second connection)"
            )
        clock = ClockSpec.parse(raw.get("clock"))
        first = raw.get("first_move")
        if first is None:
            first = FIRST_MOVE.get(speed(clock.to_json()), 0) if clock else 0
        if isinstance(first, bool) or not isinstance(first, int | float):
            raise InvalidOptions("first_move must be a number of seconds")
        if first and not 5 <= first <= MAX_FIRST_MOVE:
            raise InvalidOptions(f"first_move must be 0 (never) or 5 to {MAX_FIRST_MOVE} s")
        return cls(
            first_move=first if clock else 0,
            spectators_see_all=see_all,
            undo=raw.get("undo", not game.hidden_information),
            bots_accept_undo=raw.get("bots_accept_undo", True),
            clock=clock,
            on_timeout=on_timeout,
            spectator_delay=delay,
            rematch=raw.get("rematch", True),
        )

    def to_json(self) -> Json:
        return {
            "undo": self.undo,
            "bots_accept_undo": self.bots_accept_undo,
            "clock": self.clock.to_json() if self.clock else None,
            "on_timeout": self.on_timeout,
            "spectator_delay": self.spectator_delay,
            "spectators_see_all": self.spectators_see_all,
            "first_move": self.first_move,
            "rematch": self.rematch,
        }
