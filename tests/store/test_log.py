"""The room log's two fences: the version an append builds on, and the room's lease."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from server.store import Fenced, NotHost, Store, StoreError


@pytest.fixture
async def store(redis_url: str, prefix: str) -> Store:
    return Store.from_url(redis_url, prefix=prefix)


async def test_an_append_builds_on_the_exact_last_version(store: Store) -> None:
    assert await store.append("r", 0, [{"n": 1}, {"n": 2}], status="live") == 2
    with pytest.raises(Fenced) as err:
        await store.append("r", 1, [{"n": "again"}])  # a stale writer, or a retry
    assert (err.value.expected, err.value.actual) == (1, 2)
    assert await store.load("r") == [{"n": 1}, {"n": 2}]  # nothing doubled
    assert await store.load("r", after=1) == [{"n": 2}]
    assert await store.version("r") == 2
    await store.append("r", 2, [], status="over")
    assert await store.live_rooms() == []
    await store.close()


async def test_a_log_with_an_entry_deleted_refuses_appends_and_never_gaps(store: Store) -> None:
    """The fence reads a log's version as its length: with an entry deleted by hand (which
    Kibitz never does), no append can land at all — none leaves a gap or a doubled version."""
    assert await store.append("r", 0, [{"n": 1}, {"n": 2}, {"n": 3}]) == 3
    await store.redis.xdel(store.rk("room", "r"), "2-0")
    with pytest.raises(Fenced):  # the writer that knows version 3
        await store.append("r", 3, [{"n": 4}])
    with pytest.raises(StoreError, match="equal or smaller"):  # one that believes the length
        await store.append("r", 2, [{"n": 4}])
    assert await store.load("r") == [{"n": 1}, {"n": 3}]
    await store.close()


async def test_only_the_lease_holder_appends(store: Store) -> None:
    assert await store.acquire("r", "n1", 10_000)
    assert not await store.acquire("r", "n2", 10_000)
    await store.append("r", 0, [{"n": 1}], node="n1")
    with pytest.raises(NotHost):
        await store.append("r", 1, [{"n": 2}], node="n2")
    assert await store.renew(["r"], "n2", 10_000) == ["r"]  # n2 holds nothing
    assert await store.renew(["r"], "n1", 10_000) == []
    await store.release("r", "n1")
    assert await store.holders(["r"]) == [None]
    assert await store.acquire("r", "n2", 10_000)
    await store.append("r", 1, [{"n": 2}], node="n2")
    assert await store.version("r") == 2
    await store.close()


async def test_a_surge_of_sessions_rooms_and_lookups_needs_no_pooled_connection(
    redis_url: str, prefix: str
) -> None:
    """What a burst of new connections, rooms and seats asks of Redis (sessions, leases,
    lobby entries, host lookups) goes on the pipelined connection, so it cannot exhaust the
    pool: with the pool's only connection held by somebody else, 200 of each still answer
    at once. (At 10,000 connections the pool of 64 ran dry: "No connection available".)"""
    store = Store.from_url(redis_url, prefix=prefix, max_connections=1)
    pool = store.redis.connection_pool
    held = await pool.get_connection()  # the whole pool, taken
    try:
        n = 200

        async def one(i: int) -> tuple[Any, ...]:
            await store.save_session(f"s{i}", {"seats": {"r": {0: "t"}}}, 60)
            got = await store.acquire(f"room{i}", "n1", 10_000)
            await store.set_summary(f"room{i}", {"room": f"room{i}"})
            return (
                await store.load_session(f"s{i}"),
                got,
                await store.holders([f"room{i}"]),
                await store.exists(f"room{i}"),
            )

        answers = await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(n))), 5)
        assert answers[7] == ({"seats": {"r": {0: "t"}}}, True, ["n1"], False)
        assert all(a[1] and a[2] == ["n1"] for a in answers)
        await store.set_summaries({"room1": {"room": "again"}})
        await store.drop_summary("room2")
        # the check is real: a command that does need the pool waits for it, and so does
        # the same surge on a store without the pipelined connection (the old way)
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(store.live_rooms(), 0.5)
        pipe, store.pipe = store.pipe, None
        try:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(one(i) for i in range(n))), 0.5)
        finally:
            store.pipe = pipe
    finally:
        await pool.release(held)
    summaries = {s["room"] for s in await store.summaries()}
    assert "again" in summaries and "room2" not in summaries and "room3" in summaries
    await store.close()
