"""A node that directs a tournament and hosts its games is killed (SIGKILL, a real process)
in the middle: another node takes the tournament and the games over; no result is lost or
folded twice, and nobody is paired twice."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from server.engine import Registry
from server.sdk import KibitzClient

from ..conftest import ROOT, env_with_path
from .tournament_helpers import (
    assert_nobody_paired_twice,
    finished,
    log_of,
    nodes,
    pairings,
    records,
    recount_arena,
    results,
    standings_table,
    wait_view,
    with_bots,
)


async def wait_log(
    node: Any, tid: str, done: Callable[[list[dict[str, Any]]], bool], timeout: float
) -> list[dict[str, Any]]:
    """The tournament's log, polled every 10 ms, once ``done`` holds for it."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        log = await log_of(node, tid)
        if done(log):
            return log
        if loop.time() > deadline:
            raise TimeoutError(f"tournament {tid}'s log did not get there in {timeout} s")
        await asyncio.sleep(0.01)


async def finished_view(watcher: Any, node: Any, tid: str, timeout: float) -> dict[str, Any]:
    """The first pushed view of ``tid`` that is finished; past ``timeout``, an error that
    says what stood still (the games without a result, as their host sees them)."""
    try:
        return await wait_view(watcher, tid, finished, timeout)
    except TimeoutError:
        log = await log_of(node, tid)
        done = results(log)
        games = {}
        for room in [p["room"] for p in pairings(log) if p["room"] not in done]:
            try:
                info = await node.hub.read(room, "info", {})
                games[room] = (info["status"], info["version"], [s["kind"] for s in info["seats"]])
            except Exception as exc:
                games[room] = repr(exc)
        raise AssertionError(
            f"tournament {tid} not finished {timeout} s after the kill: last event "
            f"{log[-1]['k'] if log else None}; games without a result: {games}"
        ) from None


async def start_node(redis_url: str, prefix: str) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.net.tournament_node", redis_url, prefix],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env_with_path(),
    )
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)
    return proc, json.loads(line)["ws"]


ARENA = {
    "name": "Doomed",
    "game": "kamisado",
    "system": "arena",
    "clock": {"base": 15, "increment": 0},
    "seconds": 12,
    "max_players": 8,
}
SWISS = {
    "name": "Doomed",
    "game": "kamisado",
    "system": "swiss",
    "clock": {"base": 15, "increment": 0},
    "rounds": 3,
    "max_players": 6,
    "interlude": 0,  # test_tournament_interlude.py kills a director in an interlude
}
ROBIN = {
    "name": "Doomed",
    "game": "kamisado",
    "system": "round_robin",
    "clock": {"base": 15, "increment": 0},
    "max_players": 4,
    "interlude": 0,
}
TABLES = {  # an arena of three-seat tables, killed while its first two tables play
    "name": "Doomed",
    "game": "hase_und_igel",
    "system": "arena",
    "seats": 3,
    "clock": {"base": 15, "increment": 0},
    "seconds": 10,
    "max_players": 6,
}


@pytest.mark.parametrize(
    ("spec", "kill_after"),
    # the arena is killed once a game has ended and its players are at a new one (the four
    # first tables and one more): under load its idle-class bots may finish few games in its
    # 12 s, and waiting for eight pairings outlasted the arena itself
    [(ARENA, 5), (SWISS, 6), (ROBIN, 3), (TABLES, 2)],
    ids=["arena", "swiss", "round_robin", "three_seat_arena"],
)
async def test_a_directing_node_killed_mid_tournament_loses_no_result(
    redis_url: str, prefix: str, registry: Registry, spec: dict[str, Any], kill_after: int
) -> None:
    proc, ws = await start_node(redis_url, prefix)
    try:
        async with nodes(redis_url, prefix, registry, 1) as (survivor,):
            doomed = await KibitzClient.connect(ws)
            bots = spec["max_players"]
            tid = await with_bots(doomed, spec, bots)  # created on, and directed by, the doomed
            watcher = await KibitzClient.connect(survivor.ws_url)
            await watcher.request("tournament_watch", tournament=tid)
            # the kill point, read off the log itself (a pushed view may come a beat late, and
            # a Swiss of quick bots plays a round in well under a second)
            mid = await wait_log(survivor, tid, lambda log: len(pairings(log)) >= kill_after, 20)
            assert not [e for e in mid if e["k"] == "finished"]
            proc.kill()  # SIGKILL: no goodbye, its leases simply run out
            assert await asyncio.to_thread(proc.wait, 10) == -9
            view = await finished_view(watcher, survivor, tid, 90)
            log = await log_of(survivor, tid)
            assert_nobody_paired_twice(log)
            rooms = [p["room"] for p in pairings(log)]
            assert set(results(log)) == set(rooms)  # every game's result, once each
            recs = await records(watcher, rooms)
            assert all(r["outcome"] is not None for r in recs.values())
            if spec["system"] == "arena":
                assert standings_table(view) == recount_arena(log, recs)
            else:  # 3 rounds (of 3 games; of 2), no pair twice, each player's games add up
                pairs = [frozenset(p["players"]) for p in pairings(log)]
                games = 9 if spec["system"] == "swiss" else 6  # a round robin of 4: every pair
                assert len(pairs) == games and len(set(pairs)) == games
                assert view["rounds"] == {"current": 3, "total": 3}
                scores: dict[str, float] = {r["name"]: 0.0 for r in view["standings"]}
                for rec in recs.values():
                    for seat, score in enumerate(rec["outcome"]["scores"]):
                        scores[rec["players"][seat]] += score
                assert {r["name"]: r["points"] for r in view["standings"]} == scores
            await watcher.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
