"""When a long-running node collects its garbage.

A node holds hundreds of thousands of long-lived objects (connections, rooms, their
renderings) and makes little cyclic garbage: reference counting frees nearly everything the
moment it dies. CPython's collector does not know that. Each collection of the middle
generation rescans every object that survived into it, and a full collection rescans them
all. At 10,000 connections `kibitz bench` caught middle collections stopping the node for
445 to 475 ms (one in each of seven runs), and every game on the node waits while they run.

:class:`GcPolicy` takes the survivors out of the collector's sight as they appear. Every
``interval`` seconds it freezes every object the automatic collections have let live so far
(``gc.freeze``, which costs nothing). Frozen objects sit in the permanent generation, which
no automatic collection scans, and reference counting still frees them when they die. In
the same bench, no middle collection then took over 1.5 ms. (The tick does not collect the
young generation first: on the node, that explicit ``gc.collect(0)`` measured 65 to 99 ms
each time, with a few dozen young objects to look at.)

The price is cyclic garbage among frozen objects: a cycle that dies after it was frozen is
found only by a full collection of everything. So when the process's resident memory has
grown by ``growth`` (a share) since the last full collection, and at least ``full_every``
seconds have passed, the policy runs one: unfreeze, collect, freeze again. That is CPython's
own rule for its oldest generation (a full collection once it has grown by a quarter), at a
time the node chooses and at most once per ``full_every``, and it bounds what a node can hold
on to. (Memory, not the frozen objects' count: ``gc.get_freeze_count`` walks every frozen
object, 11 ms for 600,000 of them.)

Only ``kibitz serve`` runs the policy. It changes the whole process's collector, so a test
process or a library user must opt in by calling :meth:`tick` or :meth:`run`.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import resource
import time
from collections.abc import Callable

log = logging.getLogger("kibitz.gc")

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int:
    """This process's resident memory now (Linux: /proc), else its peak (getrusage)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class GcPolicy:
    """Freeze what lives every ``interval`` s; a full collection once memory has grown."""

    def __init__(
        self,
        *,
        interval: float = 5.0,
        growth: float = 0.5,
        full_every: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
        memory: Callable[[], int] = resident_bytes,
    ) -> None:
        if interval <= 0 or growth <= 0 or full_every < 0:
            raise ValueError("interval and growth must be positive, full_every not negative")
        self.interval = interval
        self.growth = growth
        self.full_every = full_every
        self.clock = clock
        self.memory = memory
        self.last_full = clock()
        #: resident memory right after the last full collection
        self.baseline = memory()
        self.full = 0  # full collections run

    def start(self) -> None:
        """Everything start-up made: collected once, then frozen."""
        self._full()

    def due_full(self) -> bool:
        """Whether memory has grown enough, and the last full collection is long enough ago."""
        if self.clock() - self.last_full < self.full_every:
            return False
        return self.memory() > (1 + self.growth) * self.baseline

    def tick(self) -> str:
        """One step: ``"full"`` (everything collected, the survivors frozen again) or
        ``"young"`` (every object alive now frozen)."""
        if self.due_full():
            t0 = time.perf_counter()
            found = self._full()
            self.full += 1
            log.debug(
                "full collection: %d unreachable, %.0f ms, %.0f MB resident",
                found,
                1000 * (time.perf_counter() - t0),
                self.baseline / 2**20,
            )
            return "full"
        gc.freeze()
        return "young"

    def _full(self) -> int:
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.baseline = self.memory()
        self.last_full = self.clock()
        return found

    async def run(self) -> None:
        """Tick every ``interval`` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.interval)
            self.tick()
