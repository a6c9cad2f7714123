"""Archiving on a real Redis Cluster (3 primaries + 3 replicas on loopback): a game that
ends on a node with an archive leaves the cluster for the archive, its chat with it, and
reads back as it read live; games finished before the archive was on are found by a walk of
every primary's keyspace (backfilled) and archived once each."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.net.transport.connection import Limits
from server.sdk import KibitzClient
from server.tools.redis_cluster import LocalCluster

from ..net.test_seeks import FOOLS_MATE, play
from .helpers import where


@pytest.fixture(scope="module")
def redis_cluster() -> Iterator[LocalCluster]:
    with LocalCluster() as cluster:
        yield cluster


@contextlib.asynccontextmanager
async def node(
    cluster: LocalCluster, prefix: str, registry: Registry, archive: str | None, name: str
) -> AsyncIterator[KibitzServer]:
    cfg = Config(
        port=0,
        redis_cluster=cluster.url,
        prefix=prefix,
        registry=registry,
        archive=archive,
        node_id=name,
        bot_workers=0,
        limits=Limits(rate=10_000, burst=10_000),
    )
    async with KibitzServer(cfg) as srv:
        yield srv


async def mated(srv: KibitzServer, chat: str) -> tuple[str, dict[str, Any]]:
    """A fool's mate with a message after it; the room and its record."""
    players = {s: await KibitzClient.connect(srv.ws_url) for s in (0, 1)}
    room = (await players[0].request("create_room", game="chess", seats=2))["room"]
    for s, c in players.items():
        await c.request("take_seat", room=room, seat=s, name=f"P{s}")
    await play(players, room, FOOLS_MATE)
    await players[0].wait_update(lambda m: m["status"] == "over", room=room)
    await players[1].request("chat", room=room, text=chat)
    record = (await players[0].request("record", room=room))["record"]
    for c in players.values():
        await c.close()
    assert srv.store is not None
    for _ in range(250):  # a finished game leaves the live set after its last event
        if room not in await srv.store.live_rooms():
            break
        await asyncio.sleep(0.02)
    return room, record


async def test_games_leave_the_cluster_for_the_archive_and_old_ones_are_backfilled(
    redis_cluster: LocalCluster, prefix: str, registry: Registry, archive_url: str
) -> None:
    old: list[tuple[str, Any]] = []
    async with node(redis_cluster, prefix, registry, None, "before") as srv:
        assert srv.store is not None
        spread: set[str] = set()  # finished while no archive was on: they stay in the cluster;
        while len(old) < 4 or len(spread) < 2:  # room ids are random, so play on until the old
            assert len(old) < 20, "twenty games all on one primary"  # games sit on 2 primaries
            old.append(await mated(srv, f"old {len(old)}"))
            spread.add(srv.store.redis.get_node_from_key(srv.store.rk("room", old[-1][0])).name)
    async with node(redis_cluster, prefix, registry, archive_url, "after") as srv:
        assert srv.archiver is not None and srv.store is not None and srv.hub is not None
        archiver = srv.archiver
        new = await mated(srv, "new")
        for _ in range(100):  # the walk, a step at a time, over every primary (the node's
            if await archiver.backfill(count=10) is None:  # own sweep may take steps too)
                break
        else:
            raise AssertionError("the backfill never ended")
        assert await archiver.backfill() is None  # done for good (the marks are "long ago":
        await archiver.sweep(everything=True)  # the node's own sweep may have archived some)
        assert await archiver.pending() == []
        for i, (room, record) in enumerate([*old, new]):
            assert await where(srv.store, archiver.archive, room) == (False, True)
            srv.hub.hosting.drop(room)
            assert await srv.hub.read(room, "record", {}) == record
            text = "new" if i == len(old) else f"old {i}"
            assert [m["text"] for m in await archiver.archive.chat(room)] == [text]
        assert await archiver.sweep(everything=True) == 0  # each once
