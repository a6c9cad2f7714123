"""Nothing is lost when a taker dies (real Redis, real worker processes, real Stockfish):
a job whose taker stopped renewing its lease is taken again by another node, and a worker
process SIGKILLed mid-analysis sends its job back to be taken again. The broken twin of the
queue's TAKE, which never looks at late leases, is shown losing the job."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import pytest

from server.engine import Registry
from server.store import analysis as store_analysis
from server.store.analysis import AnalysisQueue

from .analysis_helpers import SCHOLAR, analysed, analysing, finished, http

#: the queue's TAKE without its first step (a job whose taker died is never taken again)
BROKEN_TAKE = store_analysis.TAKE.replace(
    "local late = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 1)",
    "local late = {}",
)


@pytest.mark.parametrize("broken", [False, True])
async def test_a_job_whose_taker_died_is_taken_again(
    redis_url: str, prefix: str, registry: Registry, broken: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert BROKEN_TAKE != store_analysis.TAKE
    async with analysing(redis_url, prefix, registry, "n1", workers=0) as n1:
        room = await finished(n1, SCHOLAR)
        assert (await http(n1, "POST", f"/api/rooms/{room}/analysis"))[0] == 202
        # a taker takes it and dies (it never renews, never finishes): a lease of 0.3 s
        dead = AnalysisQueue(n1.store.redis, n1.store.prefix, n1.store.rk)
        job = await dead.take("dead-taker", 300)
        assert job is not None and job.room == room
        assert (await http(n1, "GET", f"/api/rooms/{room}/analysis"))[1]["status"] == "running"
        if broken:
            monkeypatch.setattr(store_analysis, "TAKE", BROKEN_TAKE)
        async with analysing(redis_url, prefix, registry, "n2", workers=1) as n2:
            if not broken:
                analysis = await analysed(n2, room, within=30)
                assert analysis["plies"][5]["judgement"] == "blunder"
                assert await n2.analyses.queue.size() == 0
                return
            with pytest.raises(AssertionError, match="no analysis"):
                await analysed(n2, room, within=2)  # 0.3 s lease: long gone by then


def pool_workers() -> list[int]:
    """The pids of this process's pool workers: the children of its fork server (read from
    /proc: the pool's own list of processes is not public)."""
    procs = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        procs.append((int(entry.name), int(stat.rsplit(")", 1)[1].split()[1]), cmdline))
    servers = {pid for pid, parent, cmd in procs if parent == os.getpid() and b"forkserver" in cmd}
    return [pid for pid, parent, _ in procs if parent in servers]


async def test_a_worker_killed_mid_analysis_loses_nothing(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    from server.analysis.records import Tools

    slow = Tools(nodes=100_000)  # a few seconds for the game: time to kill its worker
    async with analysing(redis_url, prefix, registry, workers=1, tools=slow, lease=2.0) as srv:
        room = await finished(srv, SCHOLAR)
        assert (await http(srv, "POST", f"/api/rooms/{room}/analysis"))[0] == 202
        deadline = time.monotonic() + 20
        victims: list[int] = []
        while time.monotonic() < deadline and not victims:
            status = (await http(srv, "GET", f"/api/rooms/{room}/analysis"))[1]["status"]
            assert status != "done", "the analysis ended before its worker could be killed"
            victims = pool_workers() if status == "running" else []
            await asyncio.sleep(0.05)
        assert victims, "no worker process was seen analysing"
        for pid in victims:
            os.kill(pid, signal.SIGKILL)
        analysis = await analysed(srv, room, within=60)
        assert analysis["plies"][5]["judgement"] == "blunder"
        assert await srv.analyses.queue.size() == 0
