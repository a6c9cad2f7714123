"""The room log's two fences: the version an append builds on, and the room's lease."""

from __future__ import annotations

import pytest

from server.store import Fenced, NotHost, Store


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
