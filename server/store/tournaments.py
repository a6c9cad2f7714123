"""Tournaments in Redis: each one's event log (fenced appends under a lease, the room log's
scripts), an index by status, the view every door reads, and bounds on all of it.

Keys (under the accounts prefix, so one hash tag holds them on a Redis Cluster)::

    tour:{id}            Stream: the tournament's events, entry "{version}-0", field "e"
    tlease:{id}          String: the node directing the tournament, with a TTL
    tours:live           Set: ids of upcoming and running tournaments (directors claim them)
    tours:creator:{key}  Set: the live tournaments a player created (at most PER_CREATOR)
    tours:guests:{addr}  Set: the live tournaments guests from one client address created
                         (at most GUESTS_PER_ADDRESS; the address is kept, never shown)
    tours:guestaddr      Hash: id -> the address of the guest who created it
    tours:finished       Sorted set: finished or cancelled ids by end time (KEEP_FINISHED kept)
    tours:summary        Hash: id -> msgpack(summary) for the list
    tview:{id}           String: msgpack(Tournament.view()), what every door shows
    tme:{id}             Hash: player key -> msgpack({joined, paused, game}) (guests' keys stay
                         here: never sent but to the player)
    tsecret:{id}         String: the secret its seat tokens are derived from
    tresults:{id}        Hash: room -> msgpack({ranks, reason}), written by the game's host
    troom:{room}         String: the tournament a room belongs to (with a TTL)

The log is appended with the room log's own ``APPEND`` script (:mod:`.scripts`): an append
names the version it builds on and the node that directs, and lands only if both hold, so
two nodes never both write version N, and a director that lost its lease writes nothing.
``status`` ``live`` / ``over`` adds the id to, or removes it from, ``tours:live`` in the same
step. Nothing a client sends grows this without bound: :data:`MAX_LIVE` live tournaments,
:data:`PER_CREATOR` per creator, :data:`GUESTS_PER_ADDRESS` per client address for guests
(a guest is a new creator with every new session: counted by address, guests from one
address cannot fill the server), :data:`KEEP_FINISHED` finished ones (older ones are deleted
with every key they had), and the log's length is capped (:data:`MAX_EVENTS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from redis.exceptions import ResponseError

from .log import Store, append_refused, pack, unpack
from .scripts import ACQUIRE, APPEND, RELEASE, RENEW

#: live (upcoming or running) tournaments at once, all creators together
MAX_LIVE = 100
#: live tournaments one player may have created
PER_CREATOR = 3
#: live tournaments guests from one client address may have created, all together
GUESTS_PER_ADDRESS = 3
#: finished (or cancelled) tournaments kept for the list and their pages
KEEP_FINISHED = 50
#: events a tournament's log may hold (500 players, their games, joins and pauses)
MAX_EVENTS = 60_000
#: how long a room remembers its tournament (seconds)
ROOM_TTL = 7 * 24 * 3600

#: reserve a creator's slot (and a guest's address's: ARGV[5], '' for an account): refused
#: (< 0) when the creator, the guests of that address or everybody is at the cap
RESERVE = """
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return -1 end
if ARGV[5] ~= '' and redis.call('SCARD', KEYS[5]) >= tonumber(ARGV[6]) then return -4 end
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[3]) then return -2 end
if redis.call('EXISTS', KEYS[3]) == 1 then return -3 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('SET', KEYS[4], ARGV[4])
if ARGV[5] ~= '' then
  redis.call('SADD', KEYS[5], ARGV[1])
  redis.call('HSET', KEYS[6], ARGV[1], ARGV[5])
end
return 1
"""


class Full(Exception):
    """A bound was reached: nothing was stored (``who``: ``creator``, ``address`` (guests
    of one address), ``everybody`` or ``exists``)."""

    def __init__(self, who: str) -> None:
        super().__init__(who)
        self.who = who


class TournamentStore:
    """Tournaments' logs, leases and index on the node's Redis (``store``'s client)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.redis: Any = store.redis
        self.prefix = store.accounts_prefix
        self._append = self.redis.register_script(APPEND)
        self._acquire = self.redis.register_script(ACQUIRE)
        self._renew = self.redis.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._reserve = self.redis.register_script(RESERVE)

    def k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # -- creating -----------------------------------------------------------------------------

    async def reserve(self, tid: str, creator: str, secret: str, *, address: str = "") -> None:
        """Count a new tournament against its creator's bound, a guest's address's
        (``address``: a guest's; empty for an account) and everybody's (raises
        :class:`Full`, nothing stored) and keep its token secret."""
        keys = [
            self.k("tours", "creator", creator),
            self.k("tours", "live"),
            self.k("tour", tid),
            self.k("tsecret", tid),
            self.k("tours", "guests", address),
            self.k("tours", "guestaddr"),
        ]
        args = [tid, PER_CREATOR, MAX_LIVE, secret, address, GUESTS_PER_ADDRESS]
        got = int(await self._reserve(keys=keys, args=args))
        if got < 0:
            raise Full({-1: "creator", -2: "everybody", -3: "exists", -4: "address"}[got])

    async def unreserve(self, tid: str, creator: str) -> None:
        """Give a reservation back (the tournament was not created after all)."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.srem(self.k("tours", "creator", creator), tid)
        pipe.delete(self.k("tsecret", tid))
        await self._uncount_guest(pipe, tid)
        await pipe.execute()

    async def _uncount_guest(self, pipe: Any, tid: str) -> None:
        """Add to ``pipe``: the tournament counts against its guest's address no more."""
        address = await self.redis.hget(self.k("tours", "guestaddr"), tid)
        if address is not None:
            pipe.srem(self.k("tours", "guests", address.decode()), tid)
            pipe.hdel(self.k("tours", "guestaddr"), tid)

    async def secret(self, tid: str) -> str | None:
        raw = await self.redis.get(self.k("tsecret", tid))
        return None if raw is None else raw.decode()

    # -- the log ------------------------------------------------------------------------------

    async def append(
        self,
        tid: str,
        base: int,
        records: Sequence[Mapping[str, Any]],
        *,
        node: str,
        status: str = "",
    ) -> int:
        """Append after version ``base`` if ``node`` directs ``tid``; the new version.
        Raises :class:`~server.store.log.Fenced` / :class:`~server.store.log.NotHost` (nothing
        written), or :class:`~server.store.log.StoreError` past :data:`MAX_EVENTS`."""
        if base + len(records) > MAX_EVENTS:
            raise append_refused(Exception(f"the log is full ({MAX_EVENTS} events)"), tid, base)
        keys = [self.k("tour", tid), self.k("tours", "live"), self.k("tlease", tid)]
        args = [base, status, tid, node, *(pack(dict(r)) for r in records)]
        try:
            return int(await self._append(keys=keys, args=args))
        except ResponseError as exc:
            raise append_refused(exc, tid, base) from None

    async def load(self, tid: str) -> list[dict[str, Any]]:
        """Every record of the log, in order (a log holds at most :data:`MAX_EVENTS`)."""
        entries = await self.redis.xrange(self.k("tour", tid), min="-", max="+")
        return [unpack(fields[b"e"]) for _entry, fields in entries]

    async def is_live(self, tid: str) -> bool:
        return bool(await self.redis.sismember(self.k("tours", "live"), tid))

    async def live(self) -> list[str]:
        return sorted(i.decode() for i in await self.redis.smembers(self.k("tours", "live")))

    # -- leases -------------------------------------------------------------------------------

    async def acquire(self, tids: Sequence[str], node: str, ttl_ms: int) -> list[str]:
        """Take each lease that is free or ours; the ids now ours."""
        out = []
        for tid in tids:
            if await self._acquire(keys=[self.k("tlease", tid)], args=[node, ttl_ms]):
                out.append(tid)
        return out

    async def renew(self, tids: Sequence[str], node: str, ttl_ms: int) -> list[str]:
        """Extend our leases; the ids whose lease is ours no more."""
        if not tids:
            return []
        held = await self._renew(keys=[self.k("tlease", t) for t in tids], args=[node, ttl_ms])
        return [t for t, ok in zip(tids, held, strict=True) if not ok]

    async def release(self, tid: str, node: str) -> None:
        await self._release(keys=[self.k("tlease", tid)], args=[node])

    async def holder(self, tid: str) -> str | None:
        raw = await self.redis.get(self.k("tlease", tid))
        return None if raw is None else raw.decode()

    # -- what the doors read ------------------------------------------------------------------

    async def publish_view(
        self,
        tid: str,
        view: Mapping[str, Any],
        summary: Mapping[str, Any],
        me: Mapping[str, Mapping[str, Any]],
    ) -> None:
        """Store the tournament's view, its list entry and the changed players' own parts."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(self.k("tview", tid), pack(dict(view)))
        pipe.hset(self.k("tours", "summary"), tid, pack(dict(summary)))
        if me:
            pipe.hset(self.k("tme", tid), mapping={k: pack(dict(v)) for k, v in me.items()})
        await pipe.execute()

    async def save_me(self, tid: str, me: Mapping[str, Mapping[str, Any]]) -> None:
        await self.redis.hset(self.k("tme", tid), mapping={k: pack(dict(v)) for k, v in me.items()})

    async def view(self, tid: str) -> dict[str, Any] | None:
        raw = await self.redis.get(self.k("tview", tid))
        return None if raw is None else unpack(raw)

    async def me(self, tid: str, key: str) -> dict[str, Any] | None:
        raw = await self.redis.hget(self.k("tme", tid), key)
        return None if raw is None else unpack(raw)

    async def summaries(self) -> list[dict[str, Any]]:
        raw = await self.redis.hgetall(self.k("tours", "summary"))
        return [unpack(v) for v in raw.values()]

    # -- games --------------------------------------------------------------------------------

    async def mark_room(self, room: str, tid: str) -> None:
        await self.redis.set(self.k("troom", room), tid, ex=ROOM_TTL)

    async def room_tournament(self, room: str) -> str | None:
        raw = await self.redis.get(self.k("troom", room))
        return None if raw is None else raw.decode()

    async def save_result(self, tid: str, room: str, result: Mapping[str, Any]) -> None:
        """The game's host stores its result (idempotent: a second host writes the same)."""
        await self.redis.hset(self.k("tresults", tid), room, pack(dict(result)))

    async def results(self, tid: str, rooms: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The stored results of ``rooms`` (those that have one)."""
        if not rooms:
            return {}
        raw = await self.redis.hmget(self.k("tresults", tid), list(rooms))
        return {r: unpack(v) for r, v in zip(rooms, raw, strict=True) if v is not None}

    # -- the end ------------------------------------------------------------------------------

    async def retire(self, tid: str, creator: str, at: float) -> list[str]:
        """A tournament ended (finished or cancelled): it counts against its creator no more
        and joins the finished ones; the oldest beyond :data:`KEEP_FINISHED` are deleted with
        all their keys. Returns the ids deleted."""
        pipe = self.redis.pipeline(transaction=True)
        pipe.srem(self.k("tours", "creator", creator), tid)
        pipe.srem(self.k("tours", "live"), tid)
        pipe.zadd(self.k("tours", "finished"), {tid: at})
        await self._uncount_guest(pipe, tid)
        await pipe.execute()
        old = await self.redis.zrange(self.k("tours", "finished"), 0, -KEEP_FINISHED - 1)
        gone = [o.decode() for o in old]
        if gone:
            pipe = self.redis.pipeline(transaction=True)
            for g in gone:
                pipe.zrem(self.k("tours", "finished"), g)
                pipe.hdel(self.k("tours", "summary"), g)
                for kind in ("tour", "tview", "tme", "tsecret", "tresults", "tlease"):
                    pipe.delete(self.k(kind, g))
            await pipe.execute()
        return gone


__all__ = [
    "GUESTS_PER_ADDRESS",
    "KEEP_FINISHED",
    "MAX_EVENTS",
    "MAX_LIVE",
    "PER_CREATOR",
    "Full",
    "TournamentStore",
]
