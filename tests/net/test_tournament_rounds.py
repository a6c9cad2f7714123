"""Swiss and round robin over the wire: bots play every round to the end."""

from __future__ import annotations

import itertools

from server.engine import Registry
from server.sdk import KibitzClient

from .tournament_helpers import (
    assert_nobody_paired_twice,
    finished,
    log_of,
    nodes,
    pairings,
    records,
    results,
    wait_view,
    with_bots,
)

CLOCK = {"base": 30, "increment": 0}


async def test_a_swiss_of_seven_gives_a_bye_each_round_and_no_pairing_twice(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry) as (n1, n2):
        c = await KibitzClient.connect(n1.ws_url)
        watcher = await KibitzClient.connect(n2.ws_url)
        spec = {"name": "Swiss 7", "game": "kamisado", "system": "swiss", "clock": CLOCK}
        spec |= {"interlude": 0}  # the rounds at once (test_tournament_interlude.py pauses)
        tid = await with_bots(c, spec | {"rounds": 3, "max_players": 7}, 7)
        await watcher.request("tournament_watch", tournament=tid)
        view = await wait_view(watcher, tid, finished, 40)
        assert view["end_reason"] == "rounds" and view["rounds"] == {"current": 3, "total": 3}
        log = await log_of(n1, tid)
        assert_nobody_paired_twice(log)
        pairs = [frozenset(p["players"]) for p in pairings(log)]
        assert len(pairs) == 9 and len(set(pairs)) == 9  # 3 games a round, none twice
        byes = [e["d"]["byes"] for e in log if e["k"] == "round"]
        assert [len(b) for b in byes] == [1, 1, 1]
        assert len({b[0] for b in byes}) == 3  # nobody has two byes
        for r in (1, 2, 3):  # each round: the six others play, once each
            playing = [k for p in pairings(log) if p["round"] == r for k in p["players"]]
            assert len(playing) == len(set(playing)) == 6 and byes[r - 1][0] not in playing
        assert set(results(log)) == {p["room"] for p in pairings(log)}
        # the standings: a win 1, a draw ½, a bye 1, from the games' records
        recs = await records(watcher, [p["room"] for p in pairings(log)])
        points = {r["name"]: 0.0 for r in view["standings"]}
        for rec in recs.values():
            for seat, score in enumerate(rec["outcome"]["scores"]):
                points[rec["players"][seat]] += score
        for b in byes:
            bot = b[0].split(":")
            points[f"{bot[1].capitalize()} bot {bot[2]}"] += 1.0
        assert {r["name"]: r["points"] for r in view["standings"]} == points
        ranks = [r["rank"] for r in view["standings"]]
        assert ranks == sorted(ranks) and ranks[0] == 1
        for client in (c, watcher):
            await client.close()


async def test_a_round_robin_of_four_plays_everyone_once(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        c = await KibitzClient.connect(n1.ws_url)
        spec = {"name": "RR 4", "game": "kamisado", "system": "round_robin", "clock": CLOCK}
        spec |= {"interlude": 0}
        tid = await with_bots(c, spec | {"max_players": 4}, 4)
        await c.request("tournament_watch", tournament=tid)
        view = await wait_view(c, tid, finished, 30)
        log = await log_of(n1, tid)
        assert_nobody_paired_twice(log)
        pairs = [frozenset(p["players"]) for p in pairings(log)]
        keys = [r["key"] for r in view["standings"]]
        assert sorted(pairs, key=sorted) == sorted(
            (frozenset(p) for p in itertools.combinations(keys, 2)), key=sorted
        )
        assert [p["round"] for p in pairings(log)] == [1, 1, 2, 2, 3, 3]
        assert all(r["games"] == 3 for r in view["standings"])
        assert view["rounds"] == {"current": 3, "total": 3}
        await c.close()
