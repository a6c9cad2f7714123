"""What the archive holds and is asked, as plain values: a finished game (:class:`Game`,
its :class:`Seat` s and every event of its log), a query of a player's games
(:class:`Query`), and the migrations kept beside this file.

The archive knows games as these values only; building one from a room (and a room from
one) is the shell's business (``server/net/services/archive/archiving.py``), so this layer imports
nothing of ours.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Json = dict[str, Any]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION = re.compile(r"(\d{4})_([a-z0-9_]+)\.sql")
#: what a result filter may ask for
RESULTS = ("win", "loss", "draw")
#: the most games one page of a player's games holds
MAX_PER_PAGE = 100


class ArchiveError(Exception):
    """The archive could not do what it was asked (nothing was written)."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a finished game: who sat (``account``: the account's name as
    registered, None for a guest or a bot), how it ended for them, and the rating change of
    a rated game; ``bot``: a bot held the seat."""

    seat: int
    name: str | None
    account: str | None
    score: float
    rank: int
    result: str
    rating: float | None = None
    new_rating: float | None = None
    change: float | None = None
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Game:
    """A finished game as archived: its facts, its seats, and every event of its log
    (``{"k": kind, "d": data, "t": time}``, version 1 first: the room is rebuilt from
    them)."""

    id: str
    game: str
    options: Json
    n_seats: int
    created_at: float
    ended_at: float
    reason: str
    outcome: Json
    rated: bool
    category: str | None
    clock: str | None
    seats: tuple[Seat, ...]
    events: tuple[Json, ...] = field(repr=False)
    #: the room's chat as Redis kept it (its last messages), oldest first
    chat: tuple[Json, ...] = field(default=(), repr=False)

    @property
    def version(self) -> int:
        return len(self.events)

    @property
    def chat_at(self) -> float:
        """The time of the newest chat message (0: none): a later write with newer chat
        replaces an archived game of the same version."""
        return max((float(m.get("at") or 0) for m in self.chat), default=0.0)

    def chat_rows(self) -> list[tuple[int, str]]:
        """(seq, data JSON) per chat message; refuses data JSON would change."""
        rows = []
        for i, m in enumerate(self.chat, 1):
            text = json.dumps(m, separators=(",", ":"), allow_nan=False)
            if json.loads(text) != m:
                raise ArchiveError(f"game {self.id}: chat message {i} does not round-trip as JSON")
            rows.append((i, text))
        return rows

    def event_rows(self) -> list[tuple[int, str, float, str]]:
        """(version, kind, time, data JSON) per event; refuses data JSON would change."""
        rows = []
        for i, e in enumerate(self.events, 1):
            text = json.dumps(e["d"], separators=(",", ":"), allow_nan=False)
            if json.loads(text) != e["d"]:
                raise ArchiveError(f"game {self.id}: event {i} does not round-trip as JSON")
            rows.append((i, str(e["k"]), float(e["t"]), text))
        return rows


def result_of(rank: int, ranks: Sequence[int]) -> str:
    """``win``, ``loss`` or ``draw`` for the seat ranked ``rank`` among ``ranks``."""
    if rank != 1:
        return "loss"
    return "draw" if sum(1 for r in ranks if r == 1) > 1 else "win"


@dataclass(frozen=True, slots=True)
class Query:
    """A player's games, newest first, filtered: ``game`` (its name), ``result`` (the
    player's: win, loss, draw), ``rated``, ``opponent`` (an account at the same table),
    ``vs_bot`` (a bot at the same table, or none)."""

    account: str
    game: str | None = None
    result: str | None = None
    rated: bool | None = None
    opponent: str | None = None
    vs_bot: bool | None = None

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}")

    def matches(self, entry: Mapping[str, Any]) -> bool:
        """Whether a history entry (:func:`history_entry`'s shape) passes the filters."""
        players = entry.get("players") or []
        me = next((p for p in players if (p.get("user") or "").lower() == self.account), None)
        if me is None:
            return False
        if self.game is not None and entry.get("game") != self.game:
            return False
        if self.rated is not None and bool(entry.get("rated")) != self.rated:
            return False
        if self.result is not None:
            ranks = [int(p.get("rank", 0)) for p in players]
            if result_of(int(me.get("rank", 0)), ranks) != self.result:
                return False
        if self.opponent is not None:
            others = [(p.get("user") or "").lower() for p in players if p is not me]
            if self.opponent not in others:
                return False
        vs_bot = any(bool(p.get("bot")) for p in players if p is not me)
        return self.vs_bot is None or vs_bot == self.vs_bot


def history_entry(game: Mapping[str, Any], seats: Sequence[Mapping[str, Any]]) -> Json:
    """A game as a player's history shows it: the shape of the rating service's result
    (room, game, category, clock, rated, reason, players, finished)."""
    players = []
    for s in seats:
        p: Json = {
            "name": s["name"],
            "user": s["user_name"],
            "seat": s["seat"],
            "score": s["score"],
            "rank": s["seat_rank"],
            "bot": bool(s.get("bot")),
        }
        if s["new_rating"] is not None:
            p |= {
                "rating": s["rating"],
                "new_rating": s["new_rating"],
                "change": s["rating_change"],
            }
        players.append(p)
    return {
        "room": game["id"],
        "game": game["game"],
        "category": game["category"],
        "clock": game["clock"],
        "rated": bool(game["rated"]),
        "reason": game["reason"],
        "players": players,
        "finished": game["ended_at"],
    }


def migrations() -> list[tuple[int, str, str]]:
    """(number, name, SQL) of every migration file, in order (``NNNN_name.sql``)."""
    out = []
    for path in sorted(MIGRATIONS.iterdir()):
        m = _MIGRATION.fullmatch(path.name)
        if m is None:
            if path.suffix == ".sql":
                raise ArchiveError(f"migration {path.name}: not named NNNN_name.sql")
            continue
        out.append((int(m[1]), m[2], path.read_text()))
    numbers = [n for n, _, _ in out]
    if numbers != list(range(1, len(out) + 1)):
        raise ArchiveError(f"migrations must be numbered 1, 2, 3...: {numbers}")
    return out


def statements(script: str) -> Iterator[str]:
    """The statements of an SQL script, one at a time (comments and blank lines dropped)."""
    buf = ""
    for line in script.splitlines():
        if not buf and (not line.strip() or line.lstrip().startswith("--")):
            continue
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            yield buf.strip()
            buf = ""
    if buf.strip():
        raise ArchiveError(f"an unfinished statement: {buf.strip()[:60]!r}")
