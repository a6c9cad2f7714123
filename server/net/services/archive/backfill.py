"""The archiver's backfill on a Redis Cluster: the finished games that ended before the
archive was on are found by a walk of each primary's keyspace (a SCAN is one node's), one
step of ``count`` keys a call, resumed where it stopped.

The walk's state is a hash (``archive:backfill``: a primary's name -> its cursor, or
``done``); once every primary of the moment is done, ``archive:backfilled`` is set and the
walk is over for good. A primary that took over from a failed one after its walk started has
a name of its own: it is walked from the start (a game marked twice is marked once: the
marks are ``ZADD NX``). What is marked is as on one Redis
(:meth:`~server.net.services.archive.archiving.Archiver.backfill`): a room log that is not in the
live set.
"""

from __future__ import annotations

from typing import Any

from ....store import Store

DONE = b"done"


async def backfill_cluster(store: Store, pending_key: str, count: int) -> int | None:
    """One step of the walk: how many games it marked, or None once the walk is over."""
    redis: Any = store.redis
    prefix = store.prefix
    state_key = prefix + "archive:backfill"
    if await redis.exists(prefix + "archive:backfilled"):
        return None
    state = await redis.hgetall(state_key)
    todo = sorted(n.name for n in redis.get_primaries() if state.get(n.name.encode()) != DONE)
    if not todo:
        await redis.set(prefix + "archive:backfilled", 1)
        await redis.delete(state_key)
        return None
    name = todo[0]
    before, after = store.rk("room", "\0").split("\0")
    cursors, keys = await redis.scan(
        cursor=int(state.get(name.encode(), 0)),
        match=f"{before}*{after}",
        count=count,
        _type="stream",
        target_nodes=redis.get_node(node_name=name),
    )
    found = [k.decode()[len(before) : len(k) - len(after)] for k in keys]
    live = set(await store.live_rooms()) if found else set()
    marks = {room_id: 0.0 for room_id in found if room_id not in live}
    if marks:
        await redis.zadd(pending_key, marks, nx=True)
    cursor = int(cursors[name])
    await redis.hset(state_key, name, DONE if cursor == 0 else cursor)
    return len(marks)
