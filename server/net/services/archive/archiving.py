"""Finished games leave Redis for the archive (``server/archive/``), never lost on the way.

A game that ends is marked pending (``archive:pending``, a sorted set by the time it ended)
by a game-end hook, before the room leaves the live set — the hooks run again on the next
host if its host dies there, so no finished game goes unmarked. Once a pending game is older
than the grace period (rematch offers, late spectators), the :class:`Archiver` of one node at
a time (the holder of the lease ``lease:~archiver``) takes it through these steps:

1. read its whole log from Redis and rebuild the room (the rating service's result, with
   the accounts, from ``result:{room}``; its chat, ``chat:{room}``);
2. write it to the archive: one transaction keyed by the game id (written again, nothing
   changes);
3. read the archive back: it holds the game at the log's version;
4. delete the room's keys (log, lease, chat, presence) in one script, only if the log is
   still at that version and the chat as it was read (an event or a message that landed
   meanwhile sends the game round again: it is written again with it);
5. delete its account traces (``result:{room}``, ``pairing:{room}``, its entry in each
   player's ``games:{name}``: the history reads the archive from now on), and move its
   analysis (``analysis:{room}``, docs/ANALYSIS.md) to the archive;
6. take it off the pending set.

So at every moment the game is in Redis or in the archive (both between 2 and 4), and a node
killed at any step leaves a state the next sweep finishes: before 2 the game is only in Redis;
after 2 every step is a write that changes nothing when repeated. A reader looks in Redis
first and then in the archive (``Hub.read``), so it never misses a game moving between them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

from ....archive import Archive, ArchiveError, Game, Seat, open_archive, result_of
from ....engine import Registry
from ....rooms.room import Event, Room
from ....store import Store, StoreError
from ....store.accounts import AccountStore
from ....store.log import unpack
from ...node.hub import Hub
from .backfill import backfill_cluster

log = logging.getLogger("kibitz.archive")

#: the archiver's lease (not a room id: ``~`` is not in one)
LEASE = "~archiver"
#: games taken from the pending set at a time, and archived at once (each is a transaction
#: with its own wait for the disk: a few at once keep the database busy)
BATCH = 100
CONCURRENCY = 8

#: delete a room's keys if its log ends at ARGV[1] and its chat holds ARGV[2] messages, the
#: newest ARGV[3]: KEYS room, lease, chat, present, seated -> 1 deleted, 0 the log or the chat
#: moved on (nothing deleted), -1 no log (nothing to do)
DROP_ROOM = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return -1 end
if last[1][1] ~= ARGV[1] .. '-0' then return 0 end
if redis.call('LLEN', KEYS[3]) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[2] ~= '0' and redis.call('LINDEX', KEYS[3], 0) ~= ARGV[3] then return 0 end
redis.call('DEL', unpack(KEYS))
return 1
"""


class Crash(BaseException):
    """Raised by a test's :attr:`Archiver.fault` to stop a step where a kill would."""


def game_of(
    room_id: str,
    records: list[dict[str, Any]],
    registry: Registry,
    result: dict[str, Any] | None,
    chat: tuple[dict[str, Any], ...] = (),
) -> Game | None:
    """The game as the archive keeps it, from the room rebuilt from its log, with its chat
    (oldest first) (None: the game is not over)."""
    events = [Event.from_record(r) for r in records]
    room = Room.from_created(events[0], registry)
    ended_at = None
    for event in events[1:]:
        room.fold(event)
        if ended_at is None and room.outcome is not None:
            ended_at = event.at
    if room.outcome is None or ended_at is None:
        return None
    outcome = room.outcome
    ranks = list(outcome.ranks)
    paired = {int(p["seat"]): p for p in (result or {}).get("players", [])}
    changes = room.rated.changes if room.rated is not None and room.rated.changes else []
    seats = []
    for i, s in enumerate(room.seats):
        change = changes[i] if i < len(changes) else None
        account = paired.get(i, {}).get("user") or s.user or None
        seats.append(
            Seat(
                seat=i,
                name=s.name or None,
                account=account,
                score=outcome.scores[i],
                rank=outcome.ranks[i],
                result=result_of(outcome.ranks[i], ranks),
                rating=change["rating"] if change else None,
                new_rating=change["new_rating"] if change else None,
                change=change["change"] if change else None,
                bot=s.kind == "bot",
            )
        )
    game = Game(
        id=room_id,
        game=room.game.name,
        options=dict(room.options or {}),
        n_seats=room.n_seats,
        created_at=room.created_at,
        ended_at=ended_at,
        reason=outcome.reason,
        outcome=outcome.to_json(),
        rated=bool(result.get("rated")) if result else room.rated is not None,
        category=(result or {}).get("category") or (room.rated.category if room.rated else None),
        clock=(result or {}).get("clock"),
        seats=tuple(seats),
        events=tuple(records),
        chat=chat,
    )
    return game


class Archiver:
    """Marks finished games and moves them from Redis to the archive after ``grace``
    seconds, one node at a time."""

    def __init__(
        self,
        store: Store,
        archive: Archive,
        registry: Registry,
        *,
        node: str,
        grace: float = 3600.0,
        interval: float = 10.0,
        clock: Callable[[], float] = time.time,
        on_dropped: Callable[[str], object] = lambda _room: None,
    ) -> None:
        self.store = store
        self.archive = archive
        self.registry = registry
        self.accounts = AccountStore(store.redis, store.accounts_prefix)
        self.node = node
        self.grace = grace
        self.interval = interval
        self.clock = clock
        self.pending_key = store.prefix + "archive:pending"
        self._drop = store.redis.register_script(DROP_ROOM)
        #: test seam: called with each step's name (``read``, ``written``, ``checked``,
        #: ``dropped``, ``forgotten``) after it; raising :class:`Crash` stops there
        self.fault: Callable[[str], None] = lambda _step: None
        #: a room whose keys left Redis: this node hosts it no more (another host learns it
        #: from its lease, which is gone)
        self.on_dropped = on_dropped

    async def mark(self, room: Room) -> None:
        """The game-end hook: the game is pending (idempotent: the first time stays)."""
        await self.store.redis.zadd(self.pending_key, {room.id: self.clock()}, nx=True)

    async def pending(self) -> list[str]:
        raw = await self.store.redis.zrange(self.pending_key, 0, -1)
        return [r.decode() for r in raw]

    async def backfill(self, count: int = 1000) -> int | None:
        """Mark the finished games that ended before the archive was on (a log in Redis, not
        live, not marked): one SCAN step over ``count`` keys a call, resumed where the last
        one stopped (``archive:backfill``, the cursor); the number marked, or None once the
        whole keyspace was walked (``archive:backfilled``). On a Redis Cluster each primary
        is walked in turn (``server/net/services/archive/backfill.py``)."""
        redis, prefix = self.store.redis, self.store.prefix
        if self.store.cluster:
            return await backfill_cluster(self.store, self.pending_key, count)
        if await redis.exists(prefix + "archive:backfilled"):
            return None
        raw = await redis.get(prefix + "archive:backfill")
        before, after = self.store.rk("room", "\0").split("\0")
        cursor, keys = await redis.scan(
            int(raw or 0), match=f"{before}*{after}", count=count, _type="stream"
        )
        found = [k.decode()[len(before) : len(k) - len(after)] for k in keys]
        live = set(await self.store.live_rooms()) if found else set()
        marks = {room_id: 0.0 for room_id in found if room_id not in live}
        if marks:
            await redis.zadd(self.pending_key, marks, nx=True)
        if int(cursor) == 0:
            await redis.set(prefix + "archive:backfilled", 1)
            await redis.delete(prefix + "archive:backfill")
        else:
            await redis.set(prefix + "archive:backfill", int(cursor))
        return len(marks)

    async def run(self) -> None:
        """Sweep every ``interval`` seconds until cancelled (and backfill meanwhile)."""
        backfilling = True
        while True:
            try:
                if backfilling:
                    backfilling = await self.backfill() is not None
                await self.sweep()
            except (StoreError, RedisError, OSError, ArchiveError) as exc:
                log.warning("archive sweep failed: %s", exc)
            except Exception:
                log.exception("archive sweep failed")
            await asyncio.sleep(self.interval)

    async def sweep(self, *, everything: bool = False) -> int:
        """Archive the pending games older than the grace period (``everything``: all of
        them), :data:`BATCH` at a time, :data:`CONCURRENCY` at once, while this node holds
        the archiver's lease; returns how many left Redis."""
        ttl_ms = int(max(self.interval * 3, 5) * 1000)
        done = 0
        while await self.store.acquire(LEASE, self.node, ttl_ms):
            until = "+inf" if everything else self.clock() - self.grace
            raw = await self.store.redis.zrangebyscore(
                self.pending_key, "-inf", until, start=0, num=BATCH
            )
            gate = asyncio.Semaphore(CONCURRENCY)
            moved = await asyncio.gather(*(self._one(r.decode(), gate) for r in raw))
            done += sum(moved)
            if len(raw) < BATCH or not any(moved):
                break
        return done

    async def _one(self, room_id: str, gate: asyncio.Semaphore) -> bool:
        async with gate:
            try:
                return await self.archive_one(room_id)
            except (StoreError, RedisError, OSError, ArchiveError) as exc:
                log.warning("game %s not archived now: %s", room_id, exc)
            except Exception:
                log.exception("game %s not archived now", room_id)
            return False

    async def archive_one(self, room_id: str) -> bool:
        """Take one pending game through the steps; True once it is only in the archive."""
        records = await self.store.load(room_id)
        result = await self.accounts.result(room_id)
        raw_chat = await self.store.redis.lrange(self.store.rk("chat", room_id), 0, -1)
        self.fault("read")
        if not records:  # removed already (a sweep was stopped after step 4)
            if room_id not in await self.archive.versions([room_id]):
                # nothing to keep (a waiting room deleted as it was backfilled): unmarked
                log.error("pending game %s is in neither Redis nor the archive", room_id)
                await self.store.redis.zrem(self.pending_key, room_id)
                return False
            await self._forget(room_id, result)
            return True
        chat = tuple(unpack(m) for m in reversed(raw_chat))  # the newest first in Redis
        game = game_of(room_id, records, self.registry, result, chat)
        if game is None:
            log.warning("pending game %s is not over; left as it is", room_id)
            return False
        await self.archive.put(game)
        self.fault("written")
        have = (await self.archive.versions([room_id])).get(room_id, 0)
        if have < game.version:
            log.warning("game %s: the archive holds version %d of %d", room_id, have, game.version)
            return False
        self.fault("checked")
        keys = [self.store.rk(k, room_id) for k in ("room", "lease", "chat", "present", "seated")]
        newest = raw_chat[0] if raw_chat else b""
        dropped = int(await self._drop(keys=keys, args=[game.version, len(raw_chat), newest]))
        if dropped == 0:  # an event or a message landed after the read: written again next
            return False
        self.on_dropped(room_id)
        self.fault("dropped")
        await self._forget(room_id, result, [s.account for s in game.seats if s.account])
        return True

    async def _forget(
        self, room_id: str, result: dict[str, Any] | None, accounts: list[str] | None = None
    ) -> None:
        """Steps 5 and 6: the game's account traces and its analysis, then its pending
        mark."""
        key = self.store.rk("analysis", room_id)
        kept = await self.store.redis.get(key)
        if kept is not None:  # kept once in the archive (a second write changes nothing)
            await self.archive.put_analysis(room_id, json.loads(kept))
            await self.store.redis.delete(key)
        names = set(accounts or [])
        names |= {p["user"] for p in (result or {}).get("players", []) if p.get("user")}
        pipe = self.store.redis.pipeline(transaction=False)
        pipe.delete(self.accounts.k("result", room_id), self.accounts.k("pairing", room_id))
        for name in names:
            pipe.zrem(self.accounts.k("games", name.lower()), room_id)
        await pipe.execute()
        self.fault("forgotten")
        await self.store.redis.zrem(self.pending_key, room_id)


async def opened(where: str) -> Archive:
    """The archive ``where`` names (``--archive``), opened and migrated."""
    archive = open_archive(where)
    await archive.start()
    return archive


def start_archiving(hub: Hub, archive: Archive, *, grace: float) -> Archiver:
    """Mark every game of ``hub`` that ends and sweep them into ``archive`` in the
    background (the hub's task); a game whose keys left Redis is hosted here no more."""
    archiver = Archiver(
        hub.store,
        archive,
        hub.registry,
        node=hub.node,
        grace=grace,
        clock=hub.clock,
        on_dropped=hub.hosting.drop,
    )
    hub.on_over.append(archiver.mark)
    hub.spawn(archiver.run(), "archiver")
    return archiver
