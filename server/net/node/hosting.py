"""Hosting: which rooms this node hosts, how it takes them over (at start, after another
node died, on first use) and lets them go (a lost lease).

:class:`Hosting` owns the rooms hosted here and the leases claimed for them: it claims
leases, rebuilds rooms from their logs (replays render nothing) and keeps the lease
bookkeeping the lease keeper thread (``server/net/node/leases.py``) reports to. The hub
(:class:`~server.net.node.hub.Hub`) owns it and hands it what to do when a room comes or goes
(``on_hosted``: finish a game that ended, arm the clock, wake the bots; ``on_unhosted``:
stop its clock, forget who of it left).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.exceptions import RedisError

from ...engine import Registry
from ...rooms.room import Event, Room
from ...store import Store, StoreError
from ..transport.errors import ProtocolError
from ..transport.metrics import Metrics

log = logging.getLogger("kibitz.hub")


#: a room's commands: decided, appended, applied and fanned out on its host
COMMANDS = {
    "take_seat",
    "add_bot",
    "leave_seat",
    "move",
    "resign",
    "request_undo",
    "answer_undo",
    "offer_draw",
    "answer_draw",
    "abort",
    "claim_victory",
    "offer_rematch",
    "decline_rematch",
    "record_ratings",  # the rating service's, never a client's
}
READS = {"resync", "info", "record", "history", "check_token"}


@dataclass(eq=False)
class Hosted:
    """A room this node hosts, with the lock that serialises its commands."""

    room: Room
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: until when (monotonic seconds) the room's lease is certainly ours
    lease_until: float = 0.0


class Hosting:
    """The rooms this node hosts (``rooms``) and those it leased but has not loaded yet
    (``claimed``: room -> lease valid until, monotonic seconds)."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        metrics: Metrics,
        *,
        node: str,
        lease_ms: int,
        on_hosted: Callable[[Hosted], Awaitable[None]],
        on_unhosted: Callable[[str], None],
    ) -> None:
        self.store = store
        self.registry = registry
        self.metrics = metrics
        self.node = node
        self.lease_ms = lease_ms
        self.on_hosted = on_hosted
        self.on_unhosted = on_unhosted
        self.rooms: dict[str, Hosted] = {}
        self.claimed: dict[str, float] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    async def claim(self, *, include_own: bool) -> list[str]:
        """Lease the live rooms that are free (or ours), not loading them yet."""
        live = await self.store.live_rooms()
        holders = await self.store.holders(live)
        wanted = [
            room_id
            for room_id, holder in zip(live, holders, strict=True)
            if room_id not in self.rooms
            and room_id not in self.claimed
            and (holder is None or (include_own and holder == self.node))
        ]
        started = time.monotonic()
        got = await self.store.acquire_many(wanted, self.node, self.lease_ms)
        for room_id in got:
            self.claimed[room_id] = started + self.lease_ms / 1000
        return got

    async def load_claimed(self, room_ids: list[str], batch: int = 100) -> int:
        """Load claimed rooms from their logs, ``batch`` logs per round trip; replays
        render nothing. Returns how many this node now hosts."""
        loaded = 0
        for i in range(0, len(room_ids), batch):
            chunk = [r for r in room_ids[i : i + batch] if r in self.claimed]
            if not chunk:
                continue
            try:
                logs = await self.store.load_many(chunk)
            except (StoreError, RedisError, OSError) as exc:
                log.warning("loading %d room(s) failed: %s; they are let go", len(chunk), exc)
                await self._let_go(chunk)
                continue
            for room_id in chunk:
                lock = self._loading.setdefault(room_id, asyncio.Lock())
                async with lock:
                    if room_id in self.rooms or room_id not in self.claimed:
                        continue  # loaded on demand meanwhile, or lost
                    records = logs[room_id]
                    if not records:
                        self.claimed.pop(room_id, None)
                        await self.store.release(room_id, self.node)
                        continue
                    hosted = self._install(room_id, records, self.claimed.pop(room_id))
                self._loading.pop(room_id, None)
                await self.on_hosted(hosted)
                loaded += 1
        return loaded

    async def _let_go(self, room_ids: list[str]) -> None:
        """Give up claims that could not be loaded. Kept, the lease keeper would renew them
        for good with nobody hosting the rooms: a game of bots, that nobody touches, would
        stand still. Let go, the next sweep (here or elsewhere) claims them again, and a
        command for one loads it at once."""
        for room_id in room_ids:
            async with self._loading.setdefault(room_id, asyncio.Lock()):
                if room_id in self.rooms or self.claimed.pop(room_id, None) is None:
                    continue  # loaded on use meanwhile (or lost)
                with contextlib.suppress(StoreError, RedisError, OSError):
                    await self.store.release(room_id, self.node)
            self._loading.pop(room_id, None)

    async def take_over(self, room_id: str) -> Hosted | None:
        """Acquire the room's lease and host it, rebuilt from its log (None: not ours)."""
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            if room_id in self.rooms:
                return self.rooms[room_id]
            until = self.claimed.get(room_id)
            if until is None:
                started = time.monotonic()
                if not await self.store.acquire(room_id, self.node, self.lease_ms):
                    return None
                until = started + self.lease_ms / 1000
            records = await self.store.load(room_id)
            if not records:
                self.claimed.pop(room_id, None)
                await self.store.release(room_id, self.node)
                raise ProtocolError("no_such_room", f"there is no room {room_id!r}")
            self.claimed.pop(room_id, None)
            hosted = self._install(room_id, records, until)
        self._loading.pop(room_id, None)
        await self.on_hosted(hosted)
        return hosted

    def _install(self, room_id: str, records: list[dict[str, Any]], lease_until: float) -> Hosted:
        room = Room.replay((Event.from_record(r) for r in records), self.registry)
        hosted = self.rooms[room_id] = Hosted(room, lease_until=lease_until)
        self.metrics.rooms.set(len(self.rooms))
        log.debug("node %s hosts room %s at version %d", self.node, room_id, room.version)
        return hosted

    def lease_ids(self) -> list[str]:
        """Every room whose lease this node keeps (hosted or claimed)."""
        return [*self.rooms, *self.claimed]

    def lease_held(self, room_id: str, until: float) -> None:
        """The lease keeper renewed ``room_id`` until ``until`` (called from its thread)."""
        hosted = self.rooms.get(room_id)
        if hosted is not None:
            hosted.lease_until = max(hosted.lease_until, until)
        elif room_id in self.claimed:
            self.claimed[room_id] = max(self.claimed[room_id], until)

    def lease_lost(self, room_id: str) -> None:
        self.claimed.pop(room_id, None)
        self.unhost(room_id)

    def unhost(self, room_id: str) -> None:
        """Stop hosting (the lease was lost): another node is the host now."""
        if self.drop(room_id):
            log.warning("node %s lost the lease of room %s", self.node, room_id)

    def drop(self, room_id: str) -> bool:
        """Host the room no more (lost, or deleted); False if it was not hosted here."""
        if self.rooms.pop(room_id, None) is None:
            return False
        self.on_unhosted(room_id)
        self.metrics.rooms.set(len(self.rooms))
        return True

    def host(self, room: Room, lease_until: float) -> Hosted:
        """Host a room just created here (its lease taken until ``lease_until``)."""
        hosted = self.rooms[room.id] = Hosted(room, lease_until=lease_until)
        self.metrics.rooms.set(len(self.rooms))
        return hosted

    async def renew_now(self, hosted: Hosted) -> None:
        """The lease is about to run out (the keeper is late, or cannot reach Redis): renew
        it now, or refuse the command before another node may take the room over."""
        started = time.monotonic()
        try:
            ours = await self.store.acquire(hosted.room.id, self.node, self.lease_ms)
        except (StoreError, RedisError, OSError):
            ours = False
        if not ours:
            if await self._lease_taken(hosted.room.id):
                self.unhost(hosted.room.id)
            raise ProtocolError(
                "unavailable",
                "this node could not renew its hold on the room; nothing was done, "
                "try again shortly",
            )
        hosted.lease_until = max(hosted.lease_until, started + self.lease_ms / 1000)

    async def _lease_taken(self, room_id: str) -> bool:
        try:
            (holder,) = await self.store.holders([room_id])
        except (StoreError, RedisError, OSError):
            return False
        return holder is not None and holder != self.node


def read_hosted(hosted: Hosted, op: str, args: dict[str, Any]) -> Any:
    """A read-only operation on a room (:data:`READS`), hosted here or replayed from the
    archive."""
    room = hosted.room
    if op == "resync":
        return room.resync(args.get("recipient"), args.get("since"))
    if op == "info":
        return {
            "room": room.id,
            "game": room.game.name,
            "options": room.options,
            "status": room.status,
            "version": room.version,
            "created_at": room.created_at,
            "spectator_delay": room.policy.spectator_delay,
            "seats": [s.public() for s in room.seats],
        }
    if op == "record":
        return room.record(seated=bool(args.get("seated")))
    if op == "history":
        return room.history(args.get("recipient"))
    if op == "check_token":
        room.check_token(args["seat"], args["token"])
        return True
    raise ProtocolError("bad_request", f"no room read {op!r}")
