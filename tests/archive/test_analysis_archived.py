"""A game's analysis goes with it to the archive (PostgreSQL and SQLite): one analysed in
Redis is moved when the game is archived and still read through every door; one asked for
after the game was archived is kept in the archive at once, once."""

from __future__ import annotations

import asyncio

from server.engine import Registry

from ..net.analysis_helpers import SCHOLAR, analysed, finished, http, settings
from .helpers import archived_server, where


async def test_an_analysis_goes_with_its_game_to_the_archive(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    async with archived_server(
        redis_url, prefix, registry, archive_url, analysis=settings()
    ) as srv:
        assert srv.archiver is not None and srv.store is not None and srv.archive is not None
        before = await finished(srv, SCHOLAR)  # analysed while in Redis
        await http(srv, "POST", f"/api/rooms/{before}/analysis")
        first = await analysed(srv, before)
        key = srv.store.rk("analysis", before)
        assert await srv.store.redis.exists(key)
        after = await finished(srv, SCHOLAR)  # analysed once archived
        for _ in range(200):  # the game-end hooks run after the last event: both marked
            if {before, after} <= set(await srv.archiver.pending()):
                break
            await asyncio.sleep(0.02)
        assert await srv.archiver.sweep(everything=True) == 2
        for room in (before, after):
            assert await where(srv.store, srv.archive, room) == (False, True)
        assert not await srv.store.redis.exists(key)  # moved, not copied
        assert await srv.archive.analysis(before) == first
        assert await analysed(srv, before) == first  # read from the archive
        status, pgn, _ = await http(srv, "GET", f"/game/export/{before}?evals=true")
        assert status == 200 and "Nf6??" in pgn
        await http(srv, "POST", f"/api/rooms/{after}/analysis")
        second = await analysed(srv, after)
        assert await srv.archive.analysis(after) == second
        assert not await srv.store.redis.exists(srv.store.rk("analysis", after))
        assert not await srv.archive.put_analysis(after, {"other": 1})  # the first stays
        assert await srv.archive.analysis(after) == second
