"""The values a room is made of: events, turns, seats, the bot actor, take-back requests.

Plain immutable data (or nearly), shared by the state machine (``table.py``), its parts
(``seating.py``, ``offers.py``, ``takebacks.py``, ...) and its rendering (``render.py``).
"""

from __future__ import annotations

import hashlib
import marshal
import sys
from array import array
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Self, overload

from .errors import BadRequest

Json = dict[str, Any]

MAX_NAME = 32

#: how many command ids (idempotent retries) a room remembers
MAX_CIDS = 256


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a room's log (and, as :class:`~server.tournaments.values.TournamentEvent`,
    of a tournament's). ``data`` is JSON/msgpack-ready; ``at`` is wall time (s)."""

    kind: str
    data: Mapping[str, Any]
    at: float

    def to_record(self) -> Json:
        return {"k": self.kind, "d": dict(self.data), "t": self.at}

    @classmethod
    def from_record(cls, rec: Mapping[str, Any]) -> Self:
        return cls(str(rec["k"]), dict(rec["d"]), float(rec["t"]))


@dataclass(frozen=True, slots=True)
class Turn:
    """One played turn: each moving seat's move text (seat numbers as strings), and when."""

    played: tuple[tuple[str, str], ...]
    at: float

    @classmethod
    def of(cls, moves: Mapping[str, str], at: float) -> Turn:
        return cls(tuple((s, t) for s, t in moves.items()), at)

    @property
    def moves(self) -> dict[str, str]:
        return dict(self.played)


class Turns:
    """The turns of a room, stored compactly (a live room holds one per turn): each turn's
    moves as one interned text (``"0 e2e4"``, ``"0 a1b2|1 c3d4"`` — texts repeat across
    every room of a node) in a list, and the times in an array of doubles; indexing and
    iteration give :class:`Turn` values."""

    __slots__ = ("_at", "_moves")

    def __init__(self, turns: Iterable[Turn] = ()) -> None:
        self._moves: list[str] = []
        self._at = array("d")
        for turn in turns:
            self.append(turn)

    def append(self, turn: Turn) -> None:
        self.add(turn.played, turn.at)

    def add(self, played: Iterable[tuple[str, str]], at: float) -> None:
        """Append the turn of ``played`` (seat, move text) pairs at ``at`` without building a
        :class:`Turn` (a live room's every move)."""
        self._moves.append(sys.intern("|".join([f"{s} {t}" for s, t in played])))
        self._at.append(at)

    def _turn(self, i: int) -> Turn:
        played = tuple(tuple(p.split(" ", 1)) for p in self._moves[i].split("|"))
        return Turn(played, self._at[i])  # type: ignore[arg-type]

    def __len__(self) -> int:
        return len(self._moves)

    @overload
    def __getitem__(self, i: int) -> Turn: ...

    @overload
    def __getitem__(self, i: slice) -> list[Turn]: ...

    def __getitem__(self, i: int | slice) -> Turn | list[Turn]:
        if isinstance(i, slice):
            return [self._turn(j) for j in range(*i.indices(len(self)))]
        return self._turn(range(len(self))[i])

    def __iter__(self) -> Iterator[Turn]:
        return (self._turn(i) for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Turns):
            return self._moves == other._moves and self._at == other._at
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat: ``kind`` is ``empty``, ``person`` (holds ``token_hash``) or ``bot``; a person
    seated by a logged-in account has its name in ``user`` (a guest: "")."""

    kind: str = "empty"
    name: str = ""
    token_hash: str = ""
    bot: str = ""
    user: str = ""
    #: a rated pairing's seat: the account's rating in the game's speed when it began (a
    #: field of its own, never pasted into ``name``), and whether it is still provisional
    rating: float | None = None
    provisional: bool = False

    def public(self) -> Json:
        out: Json = {"kind": self.kind, "name": self.name}
        if self.kind == "bot":
            out["bot"] = self.bot
        elif self.kind == "person":
            out["account"] = bool(self.user)  # an account's name, or a guest's
        if self.rating is not None:
            out["rating"] = round(self.rating)
            out["provisional"] = self.provisional
        return out


class BotActor:
    """Marker: a command issued by the server's bot runner for a bot seat."""

    def __repr__(self) -> str:
        return "BOT"


BOT = BotActor()
Actor = str | BotActor  # a seat token, or BOT


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(slots=True)
class UndoRequest:
    seat: int
    to_turn: int
    accepted: set[int] = field(default_factory=set)


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise BadRequest(f"a name is a non-empty string of at most {MAX_NAME} characters")
    if not name.isprintable():
        raise BadRequest("a name may not hold control characters")
    return name.strip()


class PackedLog:
    """A room's log in memory: every event record packed (``marshal``) into one growing
    buffer with an array of offsets, instead of a bytes object per event (a live room of
    40 moves keeps about 3.5 KB, not 5). ``records(v)`` gives the records after version
    ``v``; the bytes never leave this process."""

    __slots__ = ("_data", "_ends")

    def __init__(self) -> None:
        self._data = bytearray()
        self._ends = array("I")

    def append(self, record: Json) -> None:
        self._data += marshal.dumps(record)
        self._ends.append(len(self._data))

    def __len__(self) -> int:
        return len(self._ends)

    def records(self, start: int = 0) -> Iterator[Json]:
        """The records from index ``start`` (version ``start + 1``) on, unpacked."""
        ends = self._ends
        data = memoryview(self._data)
        begin = ends[start - 1] if start > 0 else 0
        for i in range(max(start, 0), len(ends)):
            yield dict(marshal.loads(data[begin : ends[i]]))
            begin = ends[i]


class Recent:
    """The last ``size`` states (oldest first) — a list kept short by hand: a deque costs a
    512-byte block even for one item, and a node holds one of these per room."""

    __slots__ = ("_items", "size")

    def __init__(self, first: Any, size: int) -> None:
        self._items = [first]
        self.size = size

    def append(self, item: Any) -> None:
        items = self._items
        items.append(item)
        if len(items) > self.size:
            del items[0]

    def clear(self) -> None:
        self._items.clear()

    def __getitem__(self, i: int) -> Any:
        return self._items[i]

    def __len__(self) -> int:
        return len(self._items)
