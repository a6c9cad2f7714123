"""Hosting: which rooms this node hosts, how it creates them or takes them over (at start,
after another node died, on first use) and lets them go (a lost lease).

:class:`Hosting` is the part of :class:`~server.net.hub.Hub` that claims leases, rebuilds
rooms from their logs (replays render nothing) and keeps the lease bookkeeping the
lease keeper thread (``server/net/leases.py``) reports to.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from ..engine import Registry
from ..rooms.room import Event, Room
from ..store import Store, StoreError, Unreplicated
from .errors import ProtocolError
from .metrics import Metrics

log = logging.getLogger("kibitz.hub")


@dataclass(eq=False)
class Hosted:
    """A room this node hosts, with the lock that serialises its commands."""

    room: Room
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: until when (monotonic seconds) the room's lease is certainly ours
    lease_until: float = 0.0


class Hosting:
    """Claiming, loading and dropping the rooms this node hosts."""

    store: Store
    registry: Registry
    node: str
    lease_ms: int
    metrics: Metrics
    rooms: dict[str, Hosted]
    claimed: dict[str, float]
    timers: dict[str, asyncio.TimerHandle]
    on_change: list[Callable[[Hosted], None]]
    _loading: dict[str, asyncio.Lock]
    admission: Any
    clock: Callable[[], float]
    make_secret: Callable[[int], str]

    if TYPE_CHECKING:  # provided by the hub (declared for the type checker only)

        def spawn(self, coro: Coroutine[Any, Any, Any], what: str) -> None: ...

        def schedule(self, hosted: Hosted) -> None: ...

        async def finish(self, room: Room) -> None: ...

        async def _publish_summary(self, hosted: Hosted) -> None: ...

    async def recover(self) -> int:
        """At start: lease every live room that is free or was ours (an earlier run under
        the same node id) in one step, then load them in the background, in pipelined
        batches. The port can open at once: a command for a room not loaded yet loads that
        room first (:meth:`take_over`). Returns how many rooms this node claimed."""
        claimed = await self.claim(include_own=True)
        log.info("node %s claims %d live room(s); loading them", self.node, len(claimed))
        self.spawn(self.load_claimed(claimed), "recovery")
        return len(claimed)

    async def adopt(self, *, include_own: bool) -> int:
        """Take over the live rooms nobody hosts (and, with ``include_own``, those leased
        to our own name by an earlier run). Returns how many this node took."""
        return await self.load_claimed(await self.claim(include_own=include_own))

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
                log.warning("loading %d room(s) failed: %s; each loads on use", len(chunk), exc)
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
                await self._hosted_now(hosted)
                loaded += 1
        return loaded

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
        await self._hosted_now(hosted)
        return hosted

    def _install(self, room_id: str, records: list[dict[str, Any]], lease_until: float) -> Hosted:
        room = Room.replay((Event.from_record(r) for r in records), self.registry)
        hosted = self.rooms[room_id] = Hosted(room, lease_until=lease_until)
        self.metrics.rooms.set(len(self.rooms))
        log.debug("node %s hosts room %s at version %d", self.node, room_id, room.version)
        return hosted

    async def _hosted_now(self, hosted: Hosted) -> None:
        """A room just loaded: finish it if it ended with its last host, arm its clock,
        wake its bots."""
        if hosted.room.status == "over":
            await self.finish(hosted.room)
        self.schedule(hosted)
        for hook in self.on_change:  # bots that owe a move go on thinking
            hook(hosted)

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
        if self.rooms.pop(room_id, None) is not None:
            log.warning("node %s lost the lease of room %s", self.node, room_id)
            timer = self.timers.pop(room_id, None)
            if timer is not None:
                timer.cancel()
            self.metrics.rooms.set(len(self.rooms))

    async def create(
        self, game: Any, options: Any, n_seats: Any, policy: Any, *, rated: str | None = None
    ) -> dict[str, Any]:
        """Create a room (``rated``: the rating category, for a rated pairing or its rematch)."""
        if self.admission is not None and self.admission.overloaded:
            self.metrics.shed.labels("room").inc()
            raise ProtocolError("busy", "the server is busy: no new rooms for a moment")
        if not isinstance(game, str) or game not in self.registry:
            raise ProtocolError("no_such_game", f"there is no game {game!r}")
        if options is not None and not isinstance(options, dict):
            raise ProtocolError("bad_request", "options must be an object")
        if policy is not None and not isinstance(policy, dict):
            raise ProtocolError("bad_request", "settings must be an object")
        room_id = self.make_secret(6)
        seed = self.make_secret(16)
        now = self.clock()
        event = Room.create(
            room_id, game, options, n_seats, seed, now, policy, self.registry, rated=rated
        )
        started = time.monotonic()
        if not await self.store.acquire(room_id, self.node, self.lease_ms):
            raise ProtocolError("unavailable", "could not create the room; try again")
        try:
            await self.store.append(
                room_id, 0, [event.to_record()], status="live", node=self.node
            )
        except Unreplicated:  # an empty room is not held to --durability replica
            log.warning("room %s created, not on a replica yet", room_id)
        hosted = Hosted(
            Room.from_created(event, self.registry), lease_until=started + self.lease_ms / 1000
        )
        self.rooms[room_id] = hosted
        self.metrics.rooms.set(len(self.rooms))
        await self._publish_summary(hosted)
        log.info("room %s created: %s", room_id, game)
        return hosted.room.summary()
