"""The interlude between a Swiss's rounds over the wire (issue 48, round 3): when a round
ends, each player is told their next game — the round, the opponent, when it starts — and
is seated only then (the room, and so its first-move timer, exists from then on); a
directing node killed (SIGKILL) in the interlude is taken over and the round is seated as
announced, not before its time."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from server.engine import Registry
from server.sdk import KibitzClient, KibitzError

from .test_tournament_kill import start_node, wait_log
from .tournament_helpers import (
    assert_nobody_paired_twice,
    finished,
    log_of,
    nodes,
    pairings,
    wait_view,
    with_bots,
)

SWISS = {
    "name": "Interlude",
    "game": "kamisado",
    "system": "swiss",
    "clock": {"base": 30, "increment": 0},
    "rounds": 2,
    "max_players": 4,
    "interlude": 3,
}


async def paired(c: KibitzClient, tid: str, timeout: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        msg = await c.next_message(max(0.01, deadline - loop.time()))
        if msg.get("type") == "paired" and msg.get("tournament") == tid:
            return msg


async def resign(c: KibitzClient, room: str) -> None:
    """Resign in ``room`` (when the two people were paired together, the second finds it
    over)."""
    try:
        await c.request("resign", room=room)
    except KibitzError as exc:
        assert exc.code == "game_over"


async def next_announced(c: KibitzClient, tid: str, timeout: float) -> dict[str, Any]:
    """The first pushed ``tournament`` message of ``tid`` whose ``me`` has a ``next``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        msg = await c.next_message(max(0.01, deadline - loop.time()))
        if msg.get("type") == "tournament" and msg.get("me", {}).get("next"):
            return dict(msg)


async def test_a_player_sees_the_next_round_and_is_seated_when_it_starts(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        ada = await KibitzClient.connect(n1.ws_url)
        bob = await KibitzClient.connect(n1.ws_url)
        tid = (await ada.request("tournament_create", **SWISS))["tournament"]
        for c, name in ((ada, "Ada"), (bob, "Bob")):
            await c.request("tournament_join", tournament=tid, name=name)
        for _ in range(2):
            await ada.request("tournament_add_bot", tournament=tid, level="random")
        await ada.request("tournament_watch", tournament=tid)
        for c in (ada, bob):  # round 1: each resigns at once
            game = await paired(c, tid, 20)
            await resign(c, game["room"])
        announced = await next_announced(ada, tid, 30)
        told_at = time.time()
        coming = announced["me"]["next"]
        assert coming["round"] == 2 and coming["rounds"] == 2
        assert coming["last"]["round"] == 1 and coming["last"]["outcome"] in ("L", "W")
        assert announced["me"]["game"] is None  # not seated yet
        starts = coming["starts_at"]
        assert told_at < starts  # told before the game, not with it
        view = announced["view"]
        assert view["next_round"]["round"] == 2 and view["times"]["next_round_at"] == starts
        game = await paired(ada, tid, 30)
        assert time.time() >= starts and game["seat"] == coming["seat"]
        record = (await ada.request("record", room=game["room"]))["record"]
        assert record["created_at"] >= starts  # the room (and its first-move timer) after
        assert [record["players"][s] for s in (1 - game["seat"],)] == coming["opponents"]
        await resign(ada, game["room"])
        bob_game = await paired(bob, tid, 30)
        await resign(bob, bob_game["room"])
        await wait_view(ada, tid, finished, 60)
        for c in (ada, bob):
            await c.close()


async def test_a_director_killed_in_the_interlude_seats_the_round_as_announced(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    proc, ws = await start_node(redis_url, prefix)
    try:
        async with nodes(redis_url, prefix, registry, 1) as (survivor,):
            doomed = await KibitzClient.connect(ws)
            spec = SWISS | {"rounds": 3, "max_players": 6}
            tid = await with_bots(doomed, spec, 6)  # directed by the doomed node
            watcher = await KibitzClient.connect(survivor.ws_url)
            await watcher.request("tournament_watch", tournament=tid)

            def announced(log: list[dict[str, Any]]) -> bool:
                return any(e["k"] == "round" and e["d"]["round"] == 2 for e in log)

            await wait_log(survivor, tid, announced, 60)
            proc.kill()  # SIGKILL in the interlude: the pause is in the log, not in it
            assert await asyncio.to_thread(proc.wait, 10) == -9
            await wait_view(watcher, tid, finished, 120)
            log = await log_of(survivor, tid)
            assert_nobody_paired_twice(log)
            rounds = {e["d"]["round"]: e for e in log if e["k"] == "round"}
            assert sorted(rounds) == [1, 2, 3]
            for n, event in rounds.items():
                seated = [e for e in log if e["k"] == "paired" and e["d"]["round"] == n]
                assert [e["d"]["players"] for e in seated] == event["d"]["pairs"], n
                assert all(e["t"] >= event["d"]["starts_at"] for e in seated), n
                if n > 1:
                    assert event["d"]["starts_at"] == event["t"] + 3
            assert len(pairings(log)) == 9
            await watcher.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
