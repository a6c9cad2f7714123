"""The archive on PostgreSQL (``kibitz serve --archive postgresql://...``), through asyncpg's
pool. Migrations run under an advisory lock, so nodes starting together apply each once."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, ParamSpec, TypeVar

import asyncpg

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
    numbered,
    page_sql,
    seat_rows,
)
from .model import ArchiveError, Game, Json, Query, migrations, statements

T = TypeVar("T")
P = ParamSpec("P")

#: the advisory lock migrations run under (any fixed number: "kibitz" in ASCII)
_LOCK = 0x6B6962697A


def _failing(fn: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """The driver's failures (the server gone, a broken connection) as :class:`ArchiveError`."""

    @functools.wraps(fn)
    async def call(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await fn(*args, **kwargs)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise ArchiveError(f"archive (PostgreSQL): {exc}") from None

    return call


class PostgresArchive(Archive):
    kind = "postgresql"

    def __init__(self, url: str, *, min_size: int = 1, max_size: int = 8) -> None:
        self.url = url
        self._sizes = (min_size, max_size)
        self._pool: Any = None

    @property
    def pool(self) -> Any:
        if self._pool is None:
            raise ArchiveError("the archive is not started")
        return self._pool

    async def start(self) -> None:
        try:
            self._pool = await asyncpg.create_pool(
                self.url, min_size=self._sizes[0], max_size=self._sizes[1]
            )
        except (OSError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise ArchiveError(f"cannot reach the archive's PostgreSQL: {exc}") from None
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK)
            await conn.execute(CREATE_MIGRATIONS)
            done = {r[0] for r in await conn.fetch(MIGRATED)}
            for number, name, sql in migrations():
                if number in done:
                    continue
                for statement in statements(sql):
                    await conn.execute(statement)
                await conn.execute(numbered(RECORD_MIGRATION), number, name, time.time())

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @_failing
    async def migrated(self) -> list[int]:
        return [r[0] for r in await self.pool.fetch(MIGRATED)]

    async def put(self, game: Game) -> bool:
        return await self.put_many([game]) == 1

    @_failing
    async def put_many(self, games: Sequence[Game]) -> int:
        rows = [(game, game.event_rows(), game.chat_rows()) for game in games]
        written = 0
        async with self.pool.acquire() as conn, conn.transaction():
            for game, events, chat in rows:
                got = await conn.fetchval(numbered(UPSERT_GAME), *game_row(game, json.dumps))
                if got is None:
                    continue
                await conn.execute(numbered(CLEAR_SEATS), game.id)
                await conn.execute(numbered(CLEAR_EVENTS), game.id)
                await conn.execute(numbered(CLEAR_CHAT), game.id)
                await conn.executemany(numbered(INSERT_SEAT), seat_rows(game))
                await conn.executemany(numbered(INSERT_EVENT), [(game.id, *row) for row in events])
                if chat:
                    await conn.executemany(numbered(INSERT_CHAT), [(game.id, *row) for row in chat])
                written += 1
        return written

    @_failing
    async def events(self, game_id: str) -> list[Json] | None:
        rows = await self.pool.fetch(numbered(EVENTS), game_id)
        if not rows:
            return None
        return [{"k": r[1], "d": json.loads(r[3]), "t": r[2]} for r in rows]

    @_failing
    async def chat(self, game_id: str) -> list[Json]:
        rows = await self.pool.fetch(numbered(CHAT), game_id)
        return [json.loads(r[0]) for r in rows]

    @_failing
    async def put_analysis(self, game_id: str, data: Json) -> bool:
        try:
            got = await self.pool.fetchval(numbered(PUT_ANALYSIS), game_id, json.dumps(data))
        except asyncpg.ForeignKeyViolationError:
            raise ArchiveError(f"game {game_id} is not archived") from None
        return got is not None

    @_failing
    async def analysis(self, game_id: str) -> Json | None:
        raw = await self.pool.fetchval(numbered(ANALYSIS), game_id)
        return None if raw is None else dict(json.loads(raw))

    @_failing
    async def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        if not game_ids:
            return {}
        rows = await self.pool.fetch(
            "SELECT id, version FROM games WHERE id = ANY($1::text[])", list(game_ids)
        )
        return {r[0]: r[1] for r in rows}

    @_failing
    async def count(self, q: Query, *, newer: tuple[float, str] | None = None) -> int:
        where, args = filtered(q, newer=newer)
        sql = f"SELECT COUNT(DISTINCT s.game_id) {where}"
        return int(await self.pool.fetchval(numbered(sql), *args))

    @_failing
    async def games(self, q: Query, offset: int, limit: int) -> list[Json]:
        sql, args = page_sql(q)
        async with self.pool.acquire() as conn:
            ids = [r[0] for r in await conn.fetch(numbered(sql), *args, limit, offset)]
            if not ids:
                return []
            games = await conn.fetch(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id = ANY($1::text[])", ids
            )
            seats = await conn.fetch(
                f"SELECT {SEAT_COLUMNS} FROM seats WHERE game_id = ANY($1::text[])", ids
            )
        return assemble(ids, [tuple(r) for r in games], [tuple(r) for r in seats])

    @_failing
    async def ratings(self, account: str) -> list[Json]:
        rows = await self.pool.fetch(numbered(RATINGS), account.lower())
        return [self.rating_entry(tuple(r)) for r in rows]
