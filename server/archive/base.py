"""The archive's interface and the SQL both backends run (PostgreSQL and SQLite read the
same statements; PostgreSQL's placeholders are numbered from SQLite's ``?`` by
:func:`numbered`).

Writing a game is one transaction keyed by its id: the game's row is inserted, or replaced
when the one archived has fewer events (a late event landed in Redis after an earlier write)
or as many and older chat (a late message), else nothing changes — a second write of the
same game duplicates nothing.
"""

from __future__ import annotations

import abc
import re
import time
from collections.abc import Sequence
from typing import Any

from .model import Game, Json, Query, history_entry

UPSERT_GAME = """
INSERT INTO games (id, game, options, n_seats, created_at, ended_at, reason, outcome, rated,
                   category, clock, version, archived_at, chat_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
    game = excluded.game, options = excluded.options, n_seats = excluded.n_seats,
    created_at = excluded.created_at, ended_at = excluded.ended_at,
    reason = excluded.reason, outcome = excluded.outcome, rated = excluded.rated,
    category = excluded.category, clock = excluded.clock, version = excluded.version,
    archived_at = excluded.archived_at, chat_at = excluded.chat_at
WHERE games.version < excluded.version
   OR (games.version = excluded.version AND games.chat_at < excluded.chat_at)
RETURNING id
"""
CLEAR_SEATS = "DELETE FROM seats WHERE game_id = ?"
CLEAR_EVENTS = "DELETE FROM events WHERE game_id = ?"
CLEAR_CHAT = "DELETE FROM chat WHERE game_id = ?"
INSERT_CHAT = "INSERT INTO chat (game_id, seq, data) VALUES (?, ?, ?)"
CHAT = "SELECT data FROM chat WHERE game_id = ? ORDER BY seq"
PUT_ANALYSIS = """
INSERT INTO analyses (game_id, data) VALUES (?, ?) ON CONFLICT (game_id) DO NOTHING
RETURNING game_id
"""
ANALYSIS = "SELECT data FROM analyses WHERE game_id = ?"
INSERT_SEAT = """
INSERT INTO seats (game_id, seat, name, user_name, account, score, seat_rank, result, rating,
                   new_rating, rating_change, ended_at, game, rated, bot)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""
INSERT_EVENT = "INSERT INTO events (game_id, version, kind, at, data) VALUES (?, ?, ?, ?, ?)"
EVENTS = "SELECT version, kind, at, data FROM events WHERE game_id = ? ORDER BY version"
GAME_COLUMNS = "id, game, category, clock, rated, reason, ended_at"
SEAT_COLUMNS = (
    "game_id, seat, name, user_name, score, seat_rank, rating, new_rating, rating_change, bot"
)
RATINGS = """
SELECT s.game_id, g.category, s.ended_at, s.rating, s.new_rating, s.rating_change
FROM seats s JOIN games g ON g.id = s.game_id
WHERE s.account = ? AND s.new_rating IS NOT NULL
ORDER BY s.ended_at, s.game_id
"""
MIGRATED = "SELECT version FROM schema_migrations ORDER BY version"
CREATE_MIGRATIONS = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at DOUBLE PRECISION NOT NULL
)
"""
RECORD_MIGRATION = "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)"


def numbered(sql: str) -> str:
    """SQLite's ``?`` placeholders as PostgreSQL's ``$1, $2, ...``."""
    counter = iter(range(1, 10_000))
    return re.sub(r"\?", lambda _m: f"${next(counter)}", sql)


def filtered(q: Query, *, newer: tuple[float, str] | None = None) -> tuple[str, list[Any]]:
    """The ``FROM ... WHERE`` of a player's games that pass ``q`` (``newer``: only games
    after (ended_at, id)), and its arguments."""
    sql = "FROM seats s WHERE s.account = ?"
    args: list[Any] = [q.account]
    if q.game is not None:
        sql += " AND s.game = ?"
        args.append(q.game)
    if q.result is not None:
        sql += " AND s.result = ?"
        args.append(q.result)
    if q.rated is not None:
        sql += " AND s.rated = ?"
        args.append(q.rated)
    if q.opponent is not None:
        sql += (
            " AND EXISTS (SELECT 1 FROM seats o WHERE o.game_id = s.game_id"
            " AND o.account = ? AND o.seat <> s.seat)"
        )
        args.append(q.opponent)
    if q.vs_bot is not None:
        sql += (
            f" AND {'' if q.vs_bot else 'NOT '}EXISTS (SELECT 1 FROM seats b"
            " WHERE b.game_id = s.game_id AND b.bot AND b.seat <> s.seat)"
        )
    if newer is not None:
        sql += " AND (s.ended_at > ? OR (s.ended_at = ? AND s.game_id > ?))"
        args += [newer[0], newer[0], newer[1]]
    return sql, args


def game_row(g: Game, json_dumps: Any) -> list[Any]:
    return [
        g.id,
        g.game,
        json_dumps(g.options),
        g.n_seats,
        float(g.created_at),
        float(g.ended_at),
        g.reason,
        json_dumps(g.outcome),
        g.rated,
        g.category,
        g.clock,
        g.version,
        time.time(),
        g.chat_at,
    ]


def seat_rows(g: Game) -> list[list[Any]]:
    return [
        [
            g.id,
            s.seat,
            s.name,
            s.account,
            s.account.lower() if s.account else None,
            float(s.score),
            s.rank,
            s.result,
            _f(s.rating),
            _f(s.new_rating),
            _f(s.change),
            float(g.ended_at),
            g.game,
            g.rated,
            s.bot,
        ]
        for s in g.seats
    ]


def _f(x: float | None) -> float | None:
    return None if x is None else float(x)


class Archive(abc.ABC):
    """Where finished games go: written once per game id, read back whole, and queried by
    player. Every method is a coroutine; a failure raises :class:`ArchiveError` (or the
    driver's own error) and changes nothing."""

    #: ``postgresql`` or ``sqlite``
    kind = ""

    @abc.abstractmethod
    async def start(self) -> None:
        """Connect and apply the migrations not applied yet (each once, recorded in
        ``schema_migrations``; nodes starting together apply each once)."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def migrated(self) -> list[int]:
        """The numbers of the migrations applied."""

    @abc.abstractmethod
    async def put(self, game: Game) -> bool:
        """Write ``game`` in one transaction: True if written now, False if the archive
        holds it already with as many events or more (nothing changed)."""

    @abc.abstractmethod
    async def put_many(self, games: Sequence[Game]) -> int:
        """Write ``games`` in one transaction, each as :meth:`put` would (a bulk load: an
        import, a benchmark's archive); how many were written now."""

    @abc.abstractmethod
    async def events(self, game_id: str) -> list[Json] | None:
        """Every event of an archived game's log (``{"k", "d", "t"}``), None if absent."""

    @abc.abstractmethod
    async def chat(self, game_id: str) -> list[Json]:
        """An archived game's chat, oldest first, as it was kept (empty: none, or no such
        game)."""

    @abc.abstractmethod
    async def put_analysis(self, game_id: str, data: Json) -> bool:
        """Keep an archived game's analysis: True if kept now, False if one is kept already
        (the first stays). The game must be archived (an :class:`ArchiveError` else)."""

    @abc.abstractmethod
    async def analysis(self, game_id: str) -> Json | None:
        """An archived game's analysis (None: none kept)."""

    @abc.abstractmethod
    async def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """For each of ``game_ids`` that is archived, its archived version."""

    @abc.abstractmethod
    async def count(self, q: Query, *, newer: tuple[float, str] | None = None) -> int:
        """How many of the player's games pass ``q`` (``newer``: ended after (time, id))."""

    @abc.abstractmethod
    async def games(self, q: Query, offset: int, limit: int) -> list[Json]:
        """A page of the player's games passing ``q``, newest first, each as the history
        shows it (:func:`~server.archive.model.history_entry`)."""

    @abc.abstractmethod
    async def ratings(self, account: str) -> list[Json]:
        """Every rating change of the account, oldest first, with its game and category."""

    @staticmethod
    def rating_entry(row: Sequence[Any]) -> Json:
        return {
            "room": row[0],
            "category": row[1],
            "finished": row[2],
            "rating": row[3],
            "new_rating": row[4],
            "change": row[5],
        }


def page_sql(q: Query) -> tuple[str, list[Any]]:
    """The ids of a page of the player's games (LIMIT and OFFSET are the last two ``?``)."""
    where, args = filtered(q)
    sql = (
        f"SELECT DISTINCT s.game_id, s.ended_at {where}"
        " ORDER BY s.ended_at DESC, s.game_id DESC LIMIT ? OFFSET ?"
    )
    return sql, args


def in_list(n: int) -> str:
    return "(" + ", ".join("?" * n) + ")"


def assemble(
    ids: Sequence[str], games: Sequence[Sequence[Any]], seats: Sequence[Sequence[Any]]
) -> list[Json]:
    """History entries in ``ids``' order from rows of :data:`GAME_COLUMNS` and
    :data:`SEAT_COLUMNS`."""
    by_game: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(seats, key=lambda r: (r[0], r[1])):
        by_game.setdefault(row[0], []).append(dict(zip(SEAT_COLUMNS.split(", "), row, strict=True)))
    facts = {row[0]: dict(zip(GAME_COLUMNS.split(", "), row, strict=True)) for row in games}
    return [history_entry(facts[i], by_game.get(i, [])) for i in ids if i in facts]
