"""The embedded archive: SQLite in a file (``./kibitz-data/archive.sqlite3`` by default),
through the standard library's ``sqlite3``, off the event loop.

One connection, used by one thread (a one-worker executor): every call is a short
transaction, run in order, while the loop goes on. The file is in WAL mode with
``synchronous=FULL``: a transaction that returned is on disk (a node killed after ``put``
keeps the game). Writers in other processes (``--workers``) wait for the file's lock, up to
``busy_timeout``.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from .base import (
    ANALYSIS,
    CHAT,
    CLEAR_CHAT,
    CLEAR_EVENTS,
    CLEAR_SEATS,
    CREATE_MIGRATIONS,
    EVENTS,
    GAME_COLUMNS,
    INSERT_CHAT,
    INSERT_EVENT,
    INSERT_SEAT,
    MIGRATED,
    PUT_ANALYSIS,
    RATINGS,
    RECORD_MIGRATION,
    SEAT_COLUMNS,
    UPSERT_GAME,
    Archive,
    assemble,
    filtered,
    game_row,
    in_list,
    page_sql,
    seat_rows,
)
from .model import ArchiveError, Game, Json, Query, migrations, statements

T = TypeVar("T")


class SqliteArchive(Archive):
    kind = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="archive")
        self._conn: sqlite3.Connection | None = None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        def call() -> T:
            if self._conn is None:
                raise ArchiveError("the archive is not started")
            return fn(self._conn)

        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, call)
        except sqlite3.Error as exc:
            raise ArchiveError(f"archive ({self.path}): {exc}") from None

    async def start(self) -> None:
        def open_and_migrate() -> None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=10000")
            self._conn = conn
            with _transaction(conn):
                conn.execute(CREATE_MIGRATIONS)
                done = {r[0] for r in conn.execute(MIGRATED)}
                for number, name, sql in migrations():
                    if number in done:
                        continue
                    for statement in statements(sql):
                        conn.execute(statement)
                    conn.execute(RECORD_MIGRATION, (number, name, time.time()))

        try:
            await asyncio.get_running_loop().run_in_executor(self._pool, open_and_migrate)
        except (sqlite3.Error, OSError) as exc:
            raise ArchiveError(f"cannot open the archive {self.path}: {exc}") from None

    async def close(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await asyncio.get_running_loop().run_in_executor(self._pool, conn.close)
        self._pool.shutdown(wait=False)

    async def migrated(self) -> list[int]:
        return await self._run(lambda c: [r[0] for r in c.execute(MIGRATED)])

    async def put(self, game: Game) -> bool:
        return await self.put_many([game]) == 1

    async def put_many(self, games: Sequence[Game]) -> int:
        rows = [(game, game.event_rows(), game.chat_rows()) for game in games]

        def write(c: sqlite3.Connection) -> int:
            written = 0
            with _transaction(c):
                for game, events, chat in rows:
                    got = c.execute(UPSERT_GAME, game_row(game, json.dumps)).fetchone()
                    if got is None:
                        continue
                    c.execute(CLEAR_SEATS, (game.id,))
                    c.execute(CLEAR_EVENTS, (game.id,))
                    c.execute(CLEAR_CHAT, (game.id,))
                    c.executemany(INSERT_SEAT, seat_rows(game))
                    c.executemany(INSERT_EVENT, [(game.id, *row) for row in events])
                    c.executemany(INSERT_CHAT, [(game.id, *row) for row in chat])
                    written += 1
            return written

        return await self._run(write)

    async def events(self, game_id: str) -> list[Json] | None:
        rows = await self._run(lambda c: c.execute(EVENTS, (game_id,)).fetchall())
        if not rows:
            return None
        return [{"k": r[1], "d": json.loads(r[3]), "t": r[2]} for r in rows]

    async def chat(self, game_id: str) -> list[Json]:
        rows = await self._run(lambda c: c.execute(CHAT, (game_id,)).fetchall())
        return [json.loads(r[0]) for r in rows]

    async def put_analysis(self, game_id: str, data: Json) -> bool:
        text = json.dumps(data)

        def write(c: sqlite3.Connection) -> bool:
            with _transaction(c):
                return c.execute(PUT_ANALYSIS, (game_id, text)).fetchone() is not None

        try:
            return await self._run(write)
        except sqlite3.IntegrityError:
            raise ArchiveError(f"game {game_id} is not archived") from None

    async def analysis(self, game_id: str) -> Json | None:
        row = await self._run(lambda c: c.execute(ANALYSIS, (game_id,)).fetchone())
        return None if row is None else dict(json.loads(row[0]))

    async def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        ids = list(game_ids)
        if not ids:
            return {}
        sql = f"SELECT id, version FROM games WHERE id IN {in_list(len(ids))}"
        return dict(await self._run(lambda c: c.execute(sql, ids).fetchall()))

    async def count(self, q: Query, *, newer: tuple[float, str] | None = None) -> int:
        where, args = filtered(q, newer=newer)
        sql = f"SELECT COUNT(DISTINCT s.game_id) {where}"
        return int(await self._run(lambda c: c.execute(sql, args).fetchone()[0]))

    async def games(self, q: Query, offset: int, limit: int) -> list[Json]:
        sql, args = page_sql(q)

        def read(c: sqlite3.Connection) -> list[Json]:
            ids = [r[0] for r in c.execute(sql, [*args, limit, offset])]
            if not ids:
                return []
            marks = in_list(len(ids))
            games = c.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id IN {marks}", ids)
            seats = c.execute(f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id IN {marks}", ids)
            return assemble(ids, games.fetchall(), seats.fetchall())

        return await self._run(read)

    async def ratings(self, account: str) -> list[Json]:
        rows = await self._run(lambda c: c.execute(RATINGS, (account.lower(),)).fetchall())
        return [self.rating_entry(r) for r in rows]


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on an error) on an autocommit
    connection: the write lock is taken at the start, so two writers never deadlock."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        self.conn.execute("ROLLBACK" if exc_type is not None else "COMMIT")
