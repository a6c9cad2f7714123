"""The analysis service of one node: it serves the queue in Redis with its worker processes.

Every node runs :attr:`Settings.workers` takers. A taker takes a job from the queue
(:class:`~server.store.analysis.AnalysisQueue`: a job whose lease ran out first, else the
oldest), reads the game through the room's one door (``Hub.read(room, "record")``: live in
Redis or replayed from the archive, as every door reads it), hands the record to a worker
process (never the event loop) and renews the job's lease while the worker works. Its result
is stored once with the game, then the job ends: in Redis (``SET NX``) while the game is
there, in the archive once it is archived (the archiver moves a result it finds in Redis
with the game, ``server/net/services/archive/archiving.py``); a read looks in both. A
worker process that dies (the pool breaks) sends the job back to be taken at once and the
pool is made again; a node that dies leaves its jobs' leases to run out, and another node's
taker takes them again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import time
import uuid
from typing import Any

from ....analysis.records import NotAnalysable
from ....archive import Archive
from ....rooms.errors import RoomError
from ....store.analysis import AnalysisQueue, Job
from ...node.hub import Hub
from ...transport.errors import ProtocolError
from . import worker
from .settings import Settings

log = logging.getLogger("kibitz.analysis")


class Analyses:
    """The service: the queue (:attr:`queue`), the takers, the pool (see the module doc)."""

    def __init__(self, hub: Hub, settings: Settings, archive: Archive | None = None) -> None:
        self.hub = hub
        self.settings = settings
        self.archive = archive
        store = hub.store
        self.queue = AnalysisQueue(store.redis, store.prefix, store.rk)
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.wake = asyncio.Event()
        #: seconds the last analyses took here (the wait a busy server announces)
        self.seconds = 10.0
        self.done = 0

    def start(self) -> None:
        if self.settings.workers <= 0:
            return
        self.pool = worker.pool(self.settings.workers)
        for slot in range(self.settings.workers):
            self.hub.spawn(self.serve(slot), f"analysis taker {slot}")

    async def close(self) -> None:
        if self.pool is not None:
            pool, self.pool = self.pool, None
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)

    def retry_after(self, waiting: int) -> int:
        """Seconds until ``waiting`` jobs are likely done (this node's pace; at least 1)."""
        workers = max(1, self.settings.workers)
        return max(1, round((waiting + workers - 1) // workers * self.seconds))

    async def serve(self, slot: int) -> None:
        """One taker: take, analyse, store, until the node stops."""
        lease_ms = int(self.settings.lease * 1000)
        while True:
            token = f"{self.hub.node}/{slot}/{uuid.uuid4().hex[:8]}"
            try:
                job = await self.queue.take(token, lease_ms)
            except Exception as exc:  # the store is away: look again in a while
                log.warning("analysis: could not take a job: %s", exc)
                job = None
            if job is None:
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), self.settings.poll)
                continue
            try:
                await self.run(job, token)
            except Exception:
                log.exception("analysis of %s failed", job.room)
                with contextlib.suppress(Exception):
                    await self.queue.finish(job.room, token, retake=True)

    async def run(self, job: Job, token: str) -> None:
        """Analyse one job's game and store the result (see the module doc)."""
        if await self.result(job.room) is not None:  # done meanwhile (a retaken job)
            await self.queue.finish(job.room, token)
            return
        try:
            record = await self.hub.read(job.room, "record", {})
        except (ProtocolError, RoomError) as exc:  # gone, or not finished: nothing to do
            log.warning("analysis of %s dropped: %s", job.room, exc)
            await self.queue.finish(job.room, token)
            return
        pool = self.pool
        if pool is None:
            await self.queue.finish(job.room, token, retake=True)
            return
        keeper = asyncio.create_task(self._keep(job.room, token))
        started = time.monotonic()
        try:
            future = asyncio.get_running_loop().run_in_executor(
                pool, worker.analyse, record, self.settings.tools
            )
            result = await asyncio.wait_for(future, self.settings.timeout)
        except NotAnalysable as exc:
            log.warning("analysis of %s dropped: %s", job.room, exc)
            await self.queue.finish(job.room, token)
            return
        except concurrent.futures.process.BrokenProcessPool:
            log.error("analysis of %s: a worker died; the job goes back", job.room)
            self._new_pool(pool)
            await self.queue.finish(job.room, token, retake=True)
            return
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
        spent = time.monotonic() - started
        self.seconds = 0.7 * self.seconds + 0.3 * spent
        result["room"] = job.room
        result["seconds"] = round(spent, 3)
        stored = await self.store(job.room, result)
        await self.queue.finish(job.room, token)
        self.done += 1
        log.info("analysis of %s %s in %.2f s", job.room, "stored" if stored else "kept", spent)

    def _new_pool(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        if self.pool is broken:
            self.pool = worker.pool(self.settings.workers)
            broken.shutdown(wait=False, cancel_futures=True)

    async def _keep(self, room: str, token: str) -> None:
        """Renew a job's lease every third of it while it runs."""
        lease = self.settings.lease
        while True:
            await asyncio.sleep(lease / 3)
            with contextlib.suppress(Exception):
                if not await self.queue.renew(room, token, int(lease * 1000)):
                    log.warning("analysis of %s: the lease was lost", room)
                    return

    async def store(self, room: str, result: dict[str, Any]) -> bool:
        """Keep a game's result with the game (False: one is kept already, which stays)."""
        if self.archive is not None and room in await self.archive.versions([room]):
            return await self.archive.put_analysis(room, result)
        return await self.queue.store(room, result)

    async def result(self, room: str) -> dict[str, Any] | None:
        """A game's analysis, from Redis or the archive (None: none kept)."""
        found = await self.queue.result(room)
        if found is None and self.archive is not None:
            found = await self.archive.analysis(room)
        return found

    async def status(self, room: str) -> dict[str, Any]:
        """What is known of a game's analysis: done (with it), queued, running or none."""
        result = await self.result(room)
        if result is not None:
            return {"status": "done", "analysis": result}
        state, position = await self.queue.state(room)
        out: dict[str, Any] = {"status": state}
        if position is not None:
            out["position"] = position
            out["retry_after"] = self.retry_after(position)
        return out
