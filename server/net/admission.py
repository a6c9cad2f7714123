"""Who gets in: connections per address, and shedding new work when the node is saturated.

**Overload.** A task wakes every :attr:`Admission.tick` seconds and measures how late it
wakes: the event loop's lag, smoothed. While the lag is over ``lag_limit`` the node is
*overloaded*: it refuses new WebSocket connections (HTTP 503, ``Retry-After``) and new
rooms (error ``busy``), and goes on serving the connections and games it has — it slows
down for them, fairly (one loop), rather than refusing their moves. It recovers once the lag
falls back under half the limit (no flapping).

**Addresses.** At most ``per_ip`` open connections per client address (HTTP 429 beyond),
and at most ``rooms_per_minute`` new rooms a minute from one address (``too_many``);
loopback counts like any address.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from .connection import TokenBucket
from .metrics import Metrics


class Admission:
    def __init__(
        self,
        metrics: Metrics,
        *,
        lag_limit: float = 0.5,
        per_ip: int = 256,
        rooms_per_minute: int = 30,
        tick: float = 0.1,
    ) -> None:
        self.metrics = metrics
        self.rooms_per_minute = rooms_per_minute
        self.creations: dict[str, TokenBucket] = {}
        self.lag_limit = lag_limit
        self.per_ip = per_ip
        self.tick = tick
        self.lag = 0.0
        self.overloaded = False
        self.open: Counter[str] = Counter()

    async def watch_lag(self) -> None:
        """Measure the loop's lag for as long as the node runs."""
        while True:
            expected = time.monotonic() + self.tick
            await asyncio.sleep(self.tick)
            late = max(0.0, time.monotonic() - expected)
            self.note_lag(late)

    def note_lag(self, late: float) -> None:
        self.lag = 0.7 * self.lag + 0.3 * late if late < self.lag else late
        if not self.overloaded and self.lag > self.lag_limit:
            self.overloaded = True
        elif self.overloaded and self.lag < self.lag_limit / 2:
            self.overloaded = False
        self.metrics.loop_lag.set(self.lag)
        self.metrics.overloaded.set(1 if self.overloaded else 0)

    def admit(self, address: str) -> str | None:
        """Why a new connection from ``address`` is refused now, or None."""
        if self.overloaded:
            self.metrics.shed.labels("connection").inc()
            return "overloaded"
        if self.open[address] >= self.per_ip:
            self.metrics.shed.labels("per_ip").inc()
            return "per_ip"
        return None

    def may_create(self, address: str) -> bool:
        """A new room from ``address``: at most ``rooms_per_minute`` a minute (a burst of as
        many); beyond, refused (``too_many``)."""
        bucket = self.creations.get(address)
        if bucket is None:
            if len(self.creations) > 10_000:  # forget idle addresses: bounded memory
                self.creations.clear()
            bucket = self.creations[address] = TokenBucket(
                self.rooms_per_minute / 60, self.rooms_per_minute
            )
        if bucket.take():
            return True
        self.metrics.shed.labels("room_quota").inc()
        return False

    def opened(self, address: str) -> None:
        self.open[address] += 1

    def closed(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]
