"""Room leases kept alive from a thread of their own, on a connection of their own.

A host must renew the lease of every room it hosts well before it expires, or another node
takes the room over. Renewing from the event loop ties the lease to the loop's health: a
saturated node (a long queue of moves, a slow callback) renews late, loses every room at once
and takes them over again — moves refused for nothing. :class:`LeaseKeeper` renews from a
daemon thread with a plain (synchronous) Redis connection, so it runs every third of the lease
time whatever the loop is doing (the GIL switches threads every few milliseconds).

Each renewal round records, per room, until when the lease is certainly ours
(``round start + ttl``, monotonic); the hub refuses to append for a room whose lease is about
to run out (a node that cannot renew stops taking moves *before* another may take over; the
log's lease fence still guards every write). Rooms whose lease another node holds now are
handed back to the loop to be dropped.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import redis
import redis.cluster

from ...store.cluster import by_slot
from ...store.scripts import RENEW

log = logging.getLogger("kibitz.leases")


#: keys renewed per script call (a long script call would block Redis for everyone)
BATCH = 500


class LeaseKeeper:
    """Renews ``rooms()``' leases every ``ttl_ms / 3`` from a daemon thread.

    ``rooms`` returns the ids to renew (read from the loop's dicts: a plain ``list(dict)`` is
    atomic under the GIL); ``held(room_id, until)`` records a renewed lease (monotonic
    seconds); ``lost(room_id)`` runs on the loop for a room whose lease is not ours.
    """

    def __init__(
        self,
        url: str,
        lease_key: Callable[[str], str],
        node: str,
        ttl_ms: int,
        loop: asyncio.AbstractEventLoop,
        rooms: Callable[[], Iterable[str]],
        held: Callable[[str, float], None],
        lost: Callable[[str], None],
        *,
        cluster: bool = False,
    ) -> None:
        self.url = url
        self.lease_key = lease_key
        #: a Redis Cluster: leases are renewed with one script call per slot
        self.cluster = cluster
        self.node = node
        self.ttl_ms = ttl_ms
        self.loop = loop
        self.rooms = rooms
        self.held = held
        self.lost = lost
        self.rounds = 0
        self.failures = 0
        #: monotonic time of the last round that renewed everything it was given
        self.last_ok = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"leases {node}", daemon=True)
        self._client: Any = None

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        period = self.ttl_ms / 3000
        kind: Any = redis.cluster.RedisCluster if self.cluster else redis.Redis
        self._client = kind.from_url(self.url, socket_timeout=period, socket_connect_timeout=period)
        script = self._client.register_script(RENEW)
        try:
            while not self._stop.is_set():
                started = time.monotonic()
                try:
                    self.renew_once(script, started)
                    self.last_ok = started
                except Exception as exc:  # Redis away: leases may lapse; the fence holds
                    self.failures += 1
                    log.warning("lease renewal failed: %s", exc)
                self.rounds += 1
                self._stop.wait(max(0.0, period - (time.monotonic() - started)))
        finally:
            self._client.close()

    def renew_once(self, script: Any, started: float) -> None:
        ids = list(self.rooms())
        until = started + self.ttl_ms / 1000
        gone: list[str] = []
        for chunk in self._batches(ids):
            keys = [self.lease_key(r) for r in chunk]
            for room_id, ok in zip(
                chunk, script(keys=keys, args=[self.node, self.ttl_ms]), strict=True
            ):
                if ok:
                    self.held(room_id, until)
                else:
                    gone.append(room_id)
        for room_id in gone:
            self.loop.call_soon_threadsafe(self.lost, room_id)

    def _batches(self, ids: list[str]) -> Iterable[list[str]]:
        """Batches of at most :data:`BATCH` rooms, each within one slot on a cluster."""
        if self.cluster:
            groups = by_slot([self.lease_key(r) for r in ids])
            for indexes in groups.values():
                for i in range(0, len(indexes), BATCH):
                    yield [ids[j] for j in indexes[i : i + BATCH]]
            return
        for i in range(0, len(ids), BATCH):
            yield ids[i : i + BATCH]


__all__ = ["LeaseKeeper"]
