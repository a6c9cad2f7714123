"""Tournaments on the cluster: one node directs each, from its log in Redis.

:class:`Director` (one per node) claims the lease of every upcoming or running tournament
nobody directs (:mod:`server.store.tournaments`; a dead node's are taken over once their
lease expires), rebuilds each from its log (:meth:`Tournament.replay`) and drives it: a
``tick`` when something is due (a start, an arena's end, the next round, pairings) and one
after every result. Every decision goes through :meth:`Director.run`: decide (the pure
:class:`~server.tournaments.Tournament`), append to the log under the lease (LOG-FIRST), fold,
then act — create and seat the rooms of ``paired`` events (:mod:`.tournament_rooms`) and
refresh what the doors read. A node that lost the lease appends nothing (the fence), so two
nodes never pair one player twice.

A game's result comes from its room's host (``hub.on_over``), stored in Redis and folded by
the director once by room id. A client's request (join, withdraw, ...) reaching a node that
does not direct the tournament is forwarded to the director over pub/sub
(:mod:`.tournament_rpc`); the view every door shows is the director's
:meth:`Tournament.view`, stored in Redis after each change and pushed to watchers on every
node (:mod:`.tournament_watch`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from ....rooms.room import Room
from ....store import Fenced, NotHost, StoreError
from ....store.accounts import AccountStore
from ....store.tournaments import TournamentStore
from ....tournaments import Spec, Tournament, TournamentError, TournamentEvent
from ...node.hub import Hub
from ...transport.errors import ProtocolError
from .rooms import game_result, start_game

log = logging.getLogger("kibitz.tournaments")

#: seconds between the director's rounds (due ticks, stored results, views)
TICK = 0.2
#: the view (standings for every watcher) is stored at most this often, but for requests
#: (join, pause, ...) and the end, stored at once; a 200-player view takes ~10 ms to build
FLUSH_EVERY = 0.5
#: events a player may cause by joining, pausing and coming back (the log's bound per player)
MAX_ACTS = 40
#: tries to seat a tournament game's room that cannot be yet (waits 0.1 s doubling to 2 s: ~1 min)
SEAT_ATTEMPTS = 36

Decide = Callable[[Tournament], list[TournamentEvent]]


@dataclass(eq=False)
class Directed:
    """A tournament this node directs."""

    t: Tournament
    secret: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    flushing: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: when the view was last stored (monotonic seconds)
    flushed_at: float = 0.0
    #: rooms of paired games without a result yet -> the players' keys in seat order
    open: dict[str, list[str]] = field(default_factory=dict)
    #: events each player caused (joins, pauses, returns)
    acts: dict[str, int] = field(default_factory=dict)
    #: the view changed since it was last stored
    dirty: bool = True
    #: the players' parts last stored (only changes are written)
    me_sent: dict[str, dict[str, Any]] = field(default_factory=dict)
    summary_sent: dict[str, Any] | None = None

    def track(self, event: TournamentEvent) -> None:
        """Keep the net's own bookkeeping of an event just folded."""
        d = event.data
        if event.kind == "paired":
            self.open[str(d["room"])] = [str(k) for k in d["players"]]
        elif event.kind == "result":
            self.open.pop(str(d["room"]), None)
        elif event.kind in ("joined", "withdrew", "returned"):
            key = str(d["entrant"]["key"] if event.kind == "joined" else d["key"])
            self.acts[key] = self.acts.get(key, 0) + 1

    def seats(self, keys: list[str]) -> list[dict[str, Any]]:
        """Who sits in a game: per seat ``{key, name, user, rating, bot}``."""
        out = []
        for key in keys:
            e = self.t.players[key].entrant
            user = key[2:] if key.startswith("u:") else None  # an account's key
            out.append({"key": key, "name": e.name, "user": user, "rating": e.rating, "bot": e.bot})
        return out


class Director:
    """Directs the tournaments whose lease this node holds."""

    def __init__(
        self,
        hub: Hub,
        accounts: AccountStore,
        publish: Callable[[str, str], Any] | None = None,
    ) -> None:
        self.hub = hub
        #: the players' accounts: ratings, and a rated game's pairing
        self.accounts = accounts
        self.node = hub.node
        self.store = TournamentStore(hub.store)
        self.directed: dict[str, Directed] = {}
        self.lease_ms = hub.lease_ms
        self.rng = random.Random(secrets.randbits(64))
        #: told (tournament id, what: "view" | "list") after the stored view changed
        self.publish = publish
        #: seconds from a result folded to the next ``paired`` (the bench's figure)
        self.latencies: deque[float] = deque(maxlen=10_000)
        self._result_at: dict[str, float] = {}

    # -- the loop -----------------------------------------------------------------------------

    async def start(self) -> None:
        self.hub.on_over.append(self.game_over)
        self.hub.spawn(self._every(self.lease_ms / 3000, self.leases), "tournament leases")
        self.hub.spawn(self._every(TICK, self.step), "tournaments")

    async def _every(self, period: float, job: Callable[[], Awaitable[None]]) -> None:
        while True:
            try:
                await job()
            except (RedisError, StoreError, OSError) as exc:
                log.warning("tournaments: %s failed: %s", job.__name__, exc)
            except Exception:
                log.exception("tournaments: %s failed", job.__name__)
            await asyncio.sleep(period)

    async def leases(self) -> None:
        """Renew ours, take the free ones (a loop of its own: a long round of pairings
        never makes a lease lapse)."""
        await self.keep_leases()
        await self.claim()

    async def step(self) -> None:
        """One round over the tournaments directed here: stored results, due ticks, views."""
        for tid, d in list(self.directed.items()):
            try:
                await self.fold_results(tid, d)
                due = d.t.due()
                if due is not None and due <= self.hub.clock():
                    await self.tick(tid, d)
                if time.monotonic() - d.flushed_at >= FLUSH_EVERY:
                    await self.flush(tid, d)
            except ProtocolError as exc:  # the store failed, or the lease went: next round
                log.warning("tournament %s: %s", tid, exc.message)

    async def keep_leases(self) -> None:
        for tid in await self.store.renew(list(self.directed), self.node, self.lease_ms):
            log.warning("node %s lost the lease of tournament %s", self.node, tid)
            self.directed.pop(tid, None)

    async def claim(self) -> None:
        """Direct every live tournament nobody directs (or ours from an earlier run)."""
        live = [t for t in await self.store.live() if t not in self.directed]
        for tid in await self.store.acquire(live, self.node, self.lease_ms):
            await self.load(tid)

    async def load(self, tid: str) -> Directed | None:
        """Rebuild ``tid`` from its log (its lease is ours) and catch up: the rooms of its
        ``paired`` events without a result are created and seated if missing, and their
        players told again."""
        if tid in self.directed:
            return self.directed[tid]
        records = await self.store.load(tid)
        secret = await self.store.secret(tid)
        if not records or secret is None:
            await self.store.release(tid, self.node)
            return None
        t = Tournament.replay(records)
        d = Directed(t, secret)
        for record in records:
            d.track(TournamentEvent.from_record(record))
        self.directed[tid] = d
        log.info("node %s directs tournament %s at version %d", self.node, tid, t.version)
        if t.status in ("finished", "cancelled") and not d.open:
            await self.retire(tid, d)  # it ended with its last director, who died then
            return None
        if d.open:  # the rooms of its pairings: created and seated if missing, players told
            self.hub.spawn(self.catch_up(tid, d), f"tournament {tid} rooms")
        return d

    async def catch_up(
        self, tid: str, d: Directed, rooms: dict[str, list[str]] | None = None
    ) -> None:
        """Seat every open game's room (or ``rooms``), again and again while one cannot be
        (its dead host's lease not yet expired: the room is half seated, or not there), as
        long as the tournament is directed here."""
        waiting = dict(d.open if rooms is None else rooms)
        for attempt in range(SEAT_ATTEMPTS):
            for room, keys in list(waiting.items()):
                if room not in d.open or await self.seat(tid, d, room, keys):
                    waiting.pop(room)
            if not waiting or self.directed.get(tid) is not d:
                return
            await asyncio.sleep(min(0.1 * 2**attempt, 2.0))
        log.error("tournament %s: rooms %s could not be seated", tid, sorted(waiting))

    async def adopt(self, tid: str) -> Directed | None:
        """Direct ``tid`` now if it is live and its lease is free (a request came here)."""
        if not await self.store.is_live(tid):
            return None  # ended (or never was)
        if not await self.store.acquire([tid], self.node, self.lease_ms):
            return self.directed.get(tid)
        return await self.load(tid)

    async def create(
        self, raw: Any, creator: str, *, address: str = ""
    ) -> tuple[str, dict[str, Any]]:
        """Create a tournament directed here from a creator's request (``address``: a
        guest's, counted with the other guests of that address); (id, view).
        Raises :class:`ProtocolError` (bad fields) or :class:`Full`, nothing stored."""
        tid = self.hub.make_secret(8)
        now = self.hub.clock()
        try:
            spec = Spec.parse(raw, id=tid, creator=creator, now=now, registry=self.hub.registry)
            _new, events = Tournament.create(spec, now)
        except TournamentError as exc:
            raise ProtocolError(exc.code, exc.message) from None
        await self.store.reserve(tid, creator, secrets.token_urlsafe(24), address=address)
        try:
            if not await self.store.acquire([tid], self.node, self.lease_ms):
                raise ProtocolError("unavailable", "could not create the tournament; try again")
            records = [e.to_record() for e in events]
            await self.store.append(tid, 0, records, node=self.node, status="live")
        except BaseException:
            await self.store.unreserve(tid, creator)
            raise
        d = self.directed[tid] = Directed(
            Tournament.replay(records), str(await self.store.secret(tid))
        )
        for record in records:
            d.track(TournamentEvent.from_record(record))
        await self.flush(tid, d)
        log.info("tournament %s created: %s", tid, spec.name)
        return tid, d.t.view()

    # -- deciding -----------------------------------------------------------------------------

    async def run(self, tid: str, d: Directed, decide: Decide) -> list[TournamentEvent]:
        """Decide, append under the lease, fold; then create the rooms of ``paired`` events.
        Raises :class:`ProtocolError` with nothing changed."""
        async with d.lock:
            if self.directed.get(tid) is not d:
                raise ProtocolError("unavailable", "the tournament moved to another node")
            try:
                events = decide(d.t)
            except TournamentError as exc:
                raise ProtocolError(exc.code, exc.message) from None
            if not events:
                return events
            try:
                records = [e.to_record() for e in events]
                await self.store.append(tid, d.t.version, records, node=self.node)
            except (NotHost, Fenced):
                self.directed.pop(tid, None)
                raise ProtocolError("unavailable", "the tournament moved to another node") from None
            except (StoreError, RedisError, OSError) as exc:
                log.error("append to tournament %s failed: %s", tid, exc)
                raise ProtocolError("unavailable", "the tournament store is unavailable") from None
            for event in events:
                d.t.fold(event)
                d.track(event)
            d.dirty = True
        paired = [e for e in events if e.kind == "paired"]
        if paired and tid in self._result_at:
            self.latencies.append(time.perf_counter() - self._result_at.pop(tid))
        if paired:  # a player's own part has the game before they hear of it
            await self.flush_me(tid, d, [k for e in paired for k in e.data["players"]])
        if any(e.kind == "round" and e.data.get("pairs") for e in events):
            await self.flush_me(tid, d, list(d.t.players))  # everyone's next game, now
        unseated: dict[str, list[str]] = {}
        for event in paired:
            room, keys = str(event.data["room"]), list(event.data["players"])
            if not await self.seat(tid, d, room, keys):
                unseated[room] = keys
        if unseated:  # tried again in a while (the event is in the log meanwhile)
            self.hub.spawn(self.catch_up(tid, d, unseated), f"tournament {tid} rooms")
        if d.t.status in ("finished", "cancelled") and not d.open:
            await self.retire(tid, d)
        return events

    async def retire(self, tid: str, d: Directed) -> None:
        """The tournament ended and its last game has its result: it leaves the live set
        (an empty append under the fence), is shown finished, and is directed no more."""
        async with d.lock:
            if self.directed.get(tid) is not d:
                return
            try:
                await self.store.append(tid, d.t.version, [], node=self.node, status="over")
            finally:  # refused (NotHost, Fenced): not ours either way
                self.directed.pop(tid, None)
        d.dirty = True
        await self.flush(tid, d)
        self._result_at.pop(tid, None)
        await self.store.retire(tid, str(d.t.spec.creator), self.hub.clock())
        await self.store.release(tid, self.node)

    async def seat(self, tid: str, d: Directed, room: str, keys: list[str]) -> bool:
        """Create and seat the room of a ``paired`` event (False: not now; the event is in
        the log, and :meth:`catch_up` tries again)."""
        players = d.seats(keys)
        try:
            await start_game(
                self.hub, self.store, self.accounts, tid, d.secret, d.t.spec, room, players
            )
        except (ProtocolError, StoreError, RedisError, OSError) as exc:
            log.info("tournament %s: room %s not ready yet: %s", tid, room, exc)
            return False
        return True

    async def tick(self, tid: str, d: Directed) -> None:
        if self.directed.get(tid) is not d:
            return  # ended, or lost meanwhile
        busy = {k for keys in d.open.values() for k in keys}
        now = self.hub.clock()
        await self.run(tid, d, lambda t: t.tick(now, busy, self.rng))

    async def fold_results(self, tid: str, d: Directed) -> None:
        """Fold the stored results of this tournament's open games (once each), then tick."""
        if not d.open or self.directed.get(tid) is not d:
            return
        stored = await self.store.results(tid, list(d.open))
        if not stored:
            return
        now = self.hub.clock()

        def decide(t: Tournament) -> list[TournamentEvent]:
            events: list[TournamentEvent] = []
            absent: set[str] = set()
            for room, result in stored.items():
                reason = str(result.get("reason") or "unknown")
                events += t.result(room, result.get("ranks"), reason, now)
                if t.arena and room in t.games:
                    absent |= {t.games[room].players[s] for s in result.get("absent", ())}
            for key in sorted(absent):  # lichess pauses who did not start their game
                p = t.players.get(key)
                if p is not None and not p.paused and t.status == "running":
                    events += t.withdraw(key, now)
            return events

        if not await self.run(tid, d, decide):
            return  # folded already (by a concurrent call)
        self._result_at[tid] = time.perf_counter()
        await self.tick(tid, d)

    def fold_soon(self, tid: str) -> None:
        """Fold ``tid``'s stored results now, in a task (a result just came)."""
        d = self.directed.get(tid)
        if d is not None:
            self.hub.spawn(self._fold_now(tid, d), f"tournament {tid} result")

    async def _fold_now(self, tid: str, d: Directed) -> None:
        try:
            await self.fold_results(tid, d)
        except ProtocolError as exc:  # lost or ended meanwhile: the director's round retries
            log.info("tournament %s: result not folded now: %s", tid, exc.message)

    async def game_over(self, room: Room) -> None:
        """The ``on_over`` hook: a tournament game ended here; its result goes to Redis, and
        the director (here, or told over pub/sub) folds it."""
        tid = await game_result(self.hub, self.store, room)
        if tid is None:
            return
        if tid in self.directed:
            self.fold_soon(tid)
        elif self.publish is not None:
            await self.publish(tid, "result")

    # -- what the doors read ------------------------------------------------------------------

    async def flush(self, tid: str, d: Directed) -> None:
        """Store the view, the list entry and the players' changed parts; tell watchers."""
        async with d.flushing:  # one at a time: an older view never lands after a newer
            if not d.dirty:
                return
            d.dirty = False  # a change folded while this stores marks it again
            d.flushed_at = time.monotonic()
            view = d.t.view()
            summary = summary_of(tid, view)
            me: dict[str, dict[str, Any]] = {}
            for key in [*d.t.players, *(k for k in d.me_sent if k not in d.t.players)]:
                part = d.t.me(key)  # one who left before the start: joined no more
                if d.me_sent.get(key) != part:
                    me[key] = part
            try:
                await self.store.publish_view(tid, view, summary, me)
                d.me_sent.update(me)
                if self.publish is not None:
                    await self.publish(tid, "view")
                    if summary != d.summary_sent:
                        await self.publish(tid, "list")
            except BaseException:
                d.dirty = True  # not stored (or not told): the next round stores it again
                raise
            d.summary_sent = summary

    async def flush_me(self, tid: str, d: Directed, keys: list[str]) -> None:
        """Store only these players' own parts now (the whole view follows in the round)."""
        async with d.flushing:
            me = {k: part for k in keys if d.me_sent.get(k) != (part := d.t.me(k))}
            if me:
                await self.store.save_me(tid, me)
                d.me_sent.update(me)


def summary_of(tid: str, view: dict[str, Any]) -> dict[str, Any]:
    """The list's entry of a tournament: a few fields of its one view."""
    spec, times = view["spec"], view["times"]
    return {
        "id": tid,
        "name": spec["name"],
        "game": spec["game"],
        "system": spec["system"],
        "clock": {"base": spec["base"], "increment": spec["increment"]},
        "minutes": spec["minutes"],
        "rounds": spec["rounds"],
        "seats": spec["seats"],
        "rated": spec["rated"],
        "berserk": spec["berserk"],
        "status": view["status"],
        "players": view["players"],
        "max_players": spec["max_players"],
        "creator": view["creator"],
        "starts_at": times["starts_at"],
        "ends_at": times["ends_at"],
        "finished_at": times["finished_at"],
    }


__all__ = ["Directed", "Director", "summary_of"]
