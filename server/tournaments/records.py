"""What a tournament remembers of each player and each game (folded from its events)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .values import Entrant

#: sheet marks that are not played games
BYE, REST, FORFEIT_WIN, FORFEIT_LOSS, ABORTED = "B", "R", "+", "-", "A"


@dataclass(frozen=True, slots=True)
class Mark:
    """One line of a player's sheet: a game (``room``) with its outcome (``W``/``D``/``L``),
    or a round without a game: ``B`` a Swiss bye (1 point), ``R`` a round-robin rest
    (nothing), ``+``/``-`` a round-robin game not played because a player withdrew, ``A`` an
    aborted game (nothing)."""

    outcome: str
    points: float
    room: str | None = None
    round: int | None = None
    opponents: tuple[str, ...] = ()
    fire: bool = False
    berserk: bool = False

    @property
    def played(self) -> bool:
        return self.room is not None and self.outcome in ("W", "D", "L")


@dataclass(slots=True)
class Player:
    """A player's standing: points, sheet, streak, colours, and whether they are paused
    (arena) or withdrawn (swiss, round robin)."""

    entrant: Entrant
    joined_at: float
    since: float  # free to play since (arena waiting order)
    paused: bool = False
    points: float = 0.0
    streak: int = 0
    byes: int = 0
    #: seat 0 / seat 1 of two-seat games, in order ("w", "b"; "-" a round without a game)
    colours: list[str] = field(default_factory=list)
    sheet: list[Mark] = field(default_factory=list)
    last: frozenset[str] = frozenset()  # the others at their last table

    @property
    def key(self) -> str:
        return self.entrant.key

    def count(self, outcome: str) -> int:
        return sum(1 for m in self.sheet if m.outcome == outcome and m.room is not None)

    @property
    def games(self) -> int:
        return sum(1 for m in self.sheet if m.played)

    @property
    def fire(self) -> bool:
        return self.streak >= 2


@dataclass(slots=True)
class GameRecord:
    """A paired game: its players in seat order, the round (swiss, round robin), its
    result when it has one (``ranks`` ``None`` and ``over``: aborted)."""

    room: str
    players: tuple[str, ...]
    round: int | None
    at: float
    over: bool = False
    ranks: tuple[int, ...] | None = None
    reason: str | None = None
    ended_at: float | None = None
    berserk: set[str] = field(default_factory=set)
