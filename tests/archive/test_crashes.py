"""The database and Redis killed (SIGKILL) in the middle of archiving: the game waits in
Redis while the database is down, a write the database acknowledged survives its crash, and
a Redis restarted from its append-only file still has every game not yet archived — the
next sweeps finish the job, each game once."""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable

import pytest
import redis as sync_redis
from redis.exceptions import RedisError

from server.archive import ArchiveError
from server.engine import Registry
from server.net.services.archive.archiving import Archiver
from server.store.redis_process import redis_binary

from ..conftest import free_port
from .conftest import PrivatePostgres
from .helpers import archived_server, finished_game, other_archive, where


def kill_at(step: str, kill: Callable[[], None]) -> Callable[[str], None]:
    def fault(at: str) -> None:
        if at == step:
            kill()

    return fault


async def sweep_until_done(archiver: Archiver, want: int, tries: int = 10) -> int:
    """Sweep until ``want`` games moved (a pool's connections to a restarted database
    fail once each before they reconnect)."""
    done = 0
    for _ in range(tries):
        done += await archiver.sweep(everything=True)
        if done >= want:
            break
    return done


async def test_the_database_killed_before_and_after_its_write(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    pg = PrivatePostgres()
    pg.start()
    try:
        async with archived_server(redis_url, prefix, registry, pg.url) as srv:
            assert srv.archiver is not None and srv.store is not None and srv.hub is not None
            archiver = srv.archiver
            first, c1 = await finished_game(srv, "chess", 2, "db before")
            second, c2 = await finished_game(srv, "xiangqi", 2, "db after")
            before = {r: await srv.hub.read(r, "record", {}) for r in (first, second)}
            for step, room in (("read", first), ("written", second)):
                archiver.fault = kill_at(step, pg.kill9)
                with pytest.raises(ArchiveError):  # the database went away under it
                    await archiver.archive_one(room)
                archiver.fault = lambda _at: None
                assert await srv.store.exists(room)  # the game waits in Redis
                pg.start()  # crash recovery from the WAL
            archive = await other_archive(pg.url)
            try:
                # the write acknowledged before the crash is there; the other is not yet
                assert await archive.versions([first, second]) == {
                    second: before[second]["version"]
                }
                assert await sweep_until_done(archiver, 2) == 2
                for room, record in before.items():
                    assert await where(srv.store, archive, room) == (False, True)
                    assert await srv.hub.read(room, "record", {}) == record
                    events = await archive.events(room)
                    assert events is not None and len(events) == record["version"]
            finally:
                await archive.close()
            for c in (*c1.values(), *c2.values()):
                await c.close()
    finally:
        pg.stop()


async def test_redis_killed_mid_archiving_keeps_every_game(
    prefix: str, registry: Registry, archive_url: str
) -> None:
    data = tempfile.mkdtemp(prefix="kibitz-redis-")
    port = free_port()
    args = [
        redis_binary(),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        data,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
    ]
    procs = [subprocess.Popen(args, stdout=subprocess.DEVNULL)]
    url = f"redis://127.0.0.1:{port}/0"

    def wait_up() -> None:
        for _ in range(200):
            try:
                if sync_redis.Redis(port=port).ping():
                    return
            except sync_redis.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill_redis() -> None:
        procs[-1].kill()
        procs[-1].wait(10)

    wait_up()
    try:
        async with archived_server(url, prefix, registry, archive_url) as srv:
            assert srv.archiver is not None and srv.store is not None and srv.hub is not None
            archiver = srv.archiver
            rooms = []
            for i, step in enumerate(("written", "dropped")):
                room, clients = await finished_game(srv, "kono", 2, f"redis {i}")
                for c in clients.values():
                    await c.close()
                rooms.append((room, step, await srv.hub.read(room, "record", {})))
            for room, step, _record in rooms:
                archiver.fault = kill_at(step, kill_redis)
                with pytest.raises(RedisError):  # Redis went away under it
                    await archiver.archive_one(room)
                archiver.fault = lambda _at: None
                procs.append(subprocess.Popen(args, stdout=subprocess.DEVNULL))
                wait_up()  # from its append-only file
            assert await sweep_until_done(archiver, 2) >= 1
            assert await archiver.pending() == []
            for room, _step, record in rooms:
                assert await where(srv.store, archiver.archive, room) == (False, True)
                srv.hub.hosting.drop(room)
                assert await srv.hub.read(room, "record", {}) == record
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(10)
