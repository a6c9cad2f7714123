"""The database SIGKILLed as a game's keys leave Redis (the step after the archive's write
and its read-back): the write it acknowledged survives its crash, so a game whose keys are
gone is in the archive — never in neither, never twice — and a node that died there with it
leaves the rest (the account traces, the pending mark) to the next node, which finishes."""

from __future__ import annotations

import subprocess

from server.engine import Registry
from server.net.services.archive.archiving import Crash

from .conftest import PrivatePostgres, pg_bin
from .helpers import archived_server, finished_game, other_archive, where


def count(url: str, table: str) -> int:
    sql = f"SELECT count(*) FROM {table}"
    out = subprocess.run(
        [pg_bin("psql"), url, "-tA", "-v", "ON_ERROR_STOP=1", "-c", sql],
        check=True,
        capture_output=True,
        text=True,
    )
    return int(out.stdout.strip())


async def test_the_database_killed_as_the_keys_leave_redis(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    pg = PrivatePostgres()
    pg.start()
    try:
        async with archived_server(redis_url, prefix, registry, pg.url) as srv:
            assert srv.archiver is not None and srv.store is not None and srv.hub is not None
            archiver = srv.archiver
            carried, c1 = await finished_game(srv, "chess", 2, "keys leave, node lives")
            left, c2 = await finished_game(srv, "kono", 2, "keys leave, node dies")
            before = {r: await srv.hub.read(r, "record", {}) for r in (carried, left)}
            for c in (*c1.values(), *c2.values()):
                await c.close()

            # the database dies as the keys are deleted; the node carries on: the deletion
            # is Redis's alone, and the write was read back before it
            def db_dies(at: str) -> None:
                if at == "checked":
                    pg.kill9()

            archiver.fault = db_dies
            assert await archiver.archive_one(carried)
            assert not await srv.store.exists(carried)
            assert carried not in await archiver.pending()
            pg.start()  # crash recovery from the WAL: the acknowledged write is there

            # the database and the node die together, right after the keys left Redis
            def both_die(at: str) -> None:
                if at == "dropped":
                    pg.kill9()
                    raise Crash(at)

            archiver.fault = both_die
            try:
                await archiver.archive_one(left)
            except Crash:
                pass
            else:
                raise AssertionError("the node was not stopped at the step")
            archiver.fault = lambda _at: None
            assert not await srv.store.exists(left)
            assert left in await archiver.pending()  # the rest of the job is left
            pg.start()
        # the next node, on the recovered database, finishes the job
        archive = await other_archive(pg.url)
        try:
            async with archived_server(redis_url, prefix, registry, pg.url) as nxt:
                assert nxt.archiver is not None and nxt.store is not None and nxt.hub is not None
                assert await nxt.archiver.archive_one(left)
                assert await nxt.archiver.pending() == []
                assert await nxt.archiver.sweep(everything=True) == 0
                for room, record in before.items():
                    assert await where(nxt.store, archive, room) == (False, True)
                    assert await nxt.hub.read(room, "record", {}) == record
                    events = await archive.events(room)
                    assert events is not None and len(events) == record["version"]
        finally:
            await archive.close()
        # each game once, each event once
        assert count(pg.url, "games") == 2
        assert count(pg.url, "events") == sum(r["version"] for r in before.values())
    finally:
        pg.stop()
