"""An arena at tables of four on a live node: eight players, every table their games free
seated at once, so two tables play side by side all along and nobody is left out while the
others play (docs/TOURNAMENTS.md, *Arena*; the rule's own tests and broken twins are in
tests/tournaments/test_arena_tables.py).

The players are clients of the test that resign a moment after they are paired: a table's
game ends at its third resignation (a runner leaving a Hase und Igel race leaves the others
racing), in 1 to 2 s. The engine's random bots take some 30 s for one race of four here, too
long for a test of many games."""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics

import pytest

from server.engine import Registry
from server.sdk import KibitzClient, KibitzError
from server.tournaments import arena

from ..tournaments.helpers import old_levels
from .tournament_helpers import Message, finished, log_of, nodes, wait_view

TABLES = {
    "name": "Race of eight",
    "game": "hase_und_igel",
    "system": "arena",
    "seats": 4,
    "clock": {"base": 15, "increment": 0},
    "seconds": 10,
    "max_players": 8,
}


def tables_running(log: list[Message]) -> float:
    """The mean number of tables playing from the start to the arena's end (log times)."""
    start = next(e["t"] for e in log if e["k"] == "started")
    end = start + TABLES["seconds"]
    running, at, area = 0, start, 0.0
    for e in log:
        if e["k"] not in ("paired", "result"):
            continue
        t = min(e["t"], end)
        area += running * (t - at)
        at = t
        running += 1 if e["k"] == "paired" else -1
    return (area + running * (end - at)) / (end - start)


async def resigning(player: KibitzClient, tid: str, rng: random.Random) -> None:
    """Play every game of ``tid`` this player is paired in: resign after 0.3 to 1.2 s (the
    game's length), until cancelled."""
    for _ in range(2000):  # a few dozen games' messages at most
        msg = await player.next_message(30)
        if msg.get("type") == "paired" and msg.get("tournament") == tid:
            await asyncio.sleep(rng.uniform(0.3, 1.2))
            with contextlib.suppress(KibitzError):  # the game ended without us
                await player.request("resign", room=msg["room"])
    raise AssertionError("more messages than a ten-second arena has")


@pytest.mark.parametrize("twin", [False, True])
async def test_eight_players_at_tables_of_four_play_two_tables_at_once(
    redis_url: str, prefix: str, registry: Registry, monkeypatch: pytest.MonkeyPatch, twin: bool
) -> None:
    if twin:  # the rule before, patched back in: a table's worth waited for a fresh table
        monkeypatch.setattr(arena, "_levels", old_levels)
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        watcher = await KibitzClient.connect(n1.ws_url)
        tid = (await watcher.request("tournament_create", **TABLES))["tournament"]
        await watcher.request("tournament_watch", tournament=tid)
        players = [await KibitzClient.connect(n1.ws_url) for _ in range(8)]
        for i, p in enumerate(players):
            await p.request("tournament_join", tournament=tid, name=f"Runner {i}")
        tasks = [
            asyncio.create_task(resigning(p, tid, random.Random(i))) for i, p in enumerate(players)
        ]
        try:
            view = await wait_view(watcher, tid, finished, 40)
        finally:
            for task in tasks:
                task.cancel()
            done = await asyncio.gather(*tasks, return_exceptions=True)
        assert all(isinstance(d, asyncio.CancelledError) for d in done), done
        running = tables_running(await log_of(n1, tid))
        games = sorted(r["games"] for r in view["standings"])
        if twin:
            assert running < 1.5, f"the twin ran {running:.2f} tables at once"
        else:
            assert running >= 1.5, f"{running:.2f} tables at once, not two: {games}"
            assert games[0] >= statistics.median(games) / 2, f"one was left out: {games}"
        for c in (watcher, *players):
            await c.close()
