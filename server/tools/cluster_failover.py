"""Failover trials on a real Redis Cluster: does a killed primary lose acknowledged moves?

Each trial starts a local cluster (3 primaries + 3 replicas, :mod:`server.tools.redis_cluster`)
and two Kibitz nodes on it with ``--durability replica``, has ``--rooms`` chess games played
(seat 0 on one node, seat 1 on the other), SIGKILLs a primary after a random delay, lets the
games go on to ``--moves`` acknowledged moves each, then reads every room's log back and
counts the acknowledged moves that are not in it. A move counts as acknowledged only when
its ``move`` request was answered ``ok`` (``not_replicated`` and ``outcome_unknown`` are not
acknowledgements). Reports trials, acknowledged moves, lost moves, the cluster's failover
time and the time from the kill to the first acknowledged move after it::

    python -m server.tools.cluster_failover --trials 20 [--rooms 4] [--moves 40] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import random
import sys
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from ..net.app import Config, KibitzServer
from ..net.transport.connection import Limits
from ..sdk import KibitzClient, KibitzError
from ..store.cluster import ClusterStore
from .redis_cluster import LocalCluster

#: answers after which the same move may be tried again: nothing happened
RETRY = {"unavailable", "stale_version", "not_your_turn", "rate_limited"}
#: answers that acknowledge nothing (the move may or may not stand)
UNSURE = {"outcome_unknown", "not_replicated"}


@dataclass
class Player:
    """Both seats of one chess game at a time (a new game when one ends), on two nodes."""

    clients: dict[int, KibitzClient]
    rng: random.Random
    room: str = ""
    #: (room, version, move) of every move answered ``ok``
    acked: list[tuple[str, int, str]] = field(default_factory=list)
    acked_at: list[float] = field(default_factory=list)
    unsure: int = 0
    #: answers no client should ever get (e.g. ``internal``), by code
    errors: dict[str, int] = field(default_factory=dict)
    #: answers after which the move was simply tried again, by code
    retried: dict[str, int] = field(default_factory=dict)
    #: when the first move after ``mark`` was acknowledged (monotonic seconds)
    mark: float | None = None
    first_after_mark: float | None = None

    @classmethod
    async def seat(cls, url_a: str, url_b: str, *, seed: int) -> Player:
        clients = {0: await KibitzClient.connect(url_a), 1: await KibitzClient.connect(url_b)}
        player = cls(clients, random.Random(seed))
        await player.new_room()
        return player

    async def new_room(self) -> None:
        self.room = (await self._retry(self.clients[0], "create_room", game="chess"))["room"]
        for seat, c in self.clients.items():
            # one cid for every try: a seat taken by a try whose answer was unsure (e.g.
            # not_replicated) is answered from memory, token and all, not "seat_taken"
            cid = uuid.uuid4().hex
            await self._retry(c, "take_seat", room=self.room, seat=seat, name=f"P{seat}", cid=cid)

    async def _retry(self, c: KibitzClient, kind: str, **fields: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 60
        while True:
            try:
                return await c.request(kind, timeout=15, **fields)
            except (KibitzError, TimeoutError) as exc:
                code = getattr(exc, "code", "timeout")
                if code not in RETRY | UNSURE | {"timeout"} or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)

    async def state(self, seat: int) -> dict[str, Any]:
        """The room as ``seat`` sees it now (a resync, then the update it pushes)."""
        c = self.clients[seat]
        c.drain()
        ok = await self._retry(c, "resync", room=self.room)
        return await c.wait_update(lambda m: m["version"] >= ok["version"], room=self.room)

    def after_mark(self) -> int:
        """Moves acknowledged since :attr:`mark` (the kill)."""
        return sum(1 for t in self.acked_at if self.mark is not None and t >= self.mark)

    async def play(self, stop: asyncio.Event, *, moves: int) -> None:
        """Play until ``moves`` moves are acknowledged and ``stop`` is set."""
        while len(self.acked) < moves or not stop.is_set():
            try:
                await self.step()
            except (KibitzError, TimeoutError, ConnectionError) as exc:
                code = getattr(exc, "code", type(exc).__name__)
                self.errors[code] = self.errors.get(code, 0) + 1
                if sum(self.errors.values()) > 20:
                    raise
                await asyncio.sleep(0.5)

    async def step(self) -> None:
        """One move of the game (a new game first if it ended)."""
        seen = await self.state(0)
        if seen["status"] == "over":
            await self.new_room()
            return
        seat = seen["to_act"][0]
        if seat != 0:
            seen = await self.state(seat)
        if not seen.get("legal"):
            return
        move = self.rng.choice(seen["legal"])
        try:
            ok = await self.clients[seat].request(
                "move",
                room=self.room,
                move=move,
                version=seen["version"],
                cid=uuid.uuid4().hex,
                timeout=15,
            )
        except TimeoutError:
            self.unsure += 1
            return
        except KibitzError as exc:
            if exc.code in UNSURE:
                self.unsure += 1
            elif exc.code not in RETRY:
                raise
            else:
                self.retried[exc.code] = self.retried.get(exc.code, 0) + 1
            await asyncio.sleep(0.1)
            return
        self.acked.append((self.room, int(ok["version"]), move))
        self.acked_at.append(time.monotonic())
        if self.mark is not None and self.first_after_mark is None:
            self.first_after_mark = time.monotonic()

    async def close(self) -> None:
        for c in self.clients.values():
            await c.close()


async def acked_moves_kept(store: ClusterStore, player: Player) -> list[tuple[str, int, str]]:
    """The acknowledged moves of ``player`` that are not in their room's log (lost)."""
    logs: dict[str, list[dict[str, Any]]] = {}
    lost = []
    for room, version, move in player.acked:
        if room not in logs:
            logs[room] = await store.load(room)
        records = logs[room]
        rec = records[version - 1] if 0 < version <= len(records) else None
        if rec is None or rec["k"] != "move" or move not in rec["d"]["moves"].values():
            lost.append((room, version, move))
    return lost


async def trial(rooms: int, moves: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    cluster = LocalCluster()
    await asyncio.to_thread(cluster.start)
    prefix = f"f{seed}:"

    def config(node: str) -> Config:
        return Config(
            port=0,
            redis_cluster=cluster.url,
            prefix=prefix,
            node_id=node,
            bot_workers=0,
            durability="replica",
            wait_ms=2000,
            limits=Limits(rate=10_000, burst=10_000),
        )

    try:
        async with KibitzServer(config("f1")) as n1, KibitzServer(config("f2")) as n2:
            players = [
                await Player.seat(n1.ws_url, n2.ws_url, seed=seed * 100 + i) for i in range(rooms)
            ]
            stop = asyncio.Event()
            tasks = [asyncio.create_task(p.play(stop, moves=moves)) for p in players]
            await asyncio.sleep(rng.uniform(0.5, 3.0))
            killed_at = time.monotonic()
            for p in players:
                p.mark = killed_at
            port = cluster.kill_primary(rng.randrange(3))
            failover = await asyncio.to_thread(cluster.wait_ok, 60)
            # the promoted replica has no replica: moves on its slots are not_replicated
            # until the killed node is back (as a replica), as an operator would bring it
            rejoined = await asyncio.to_thread(cluster.restart, port)
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and min(p.after_mark() for p in players) < 10:
                await asyncio.sleep(0.2)
            stop.set()
            try:
                await asyncio.wait_for(asyncio.gather(*tasks), 120)
            except TimeoutError:  # a game that cannot go on: say which, and how it was told
                stuck = [
                    {
                        "room": p.room,
                        "acked": len(p.acked),
                        "retried": p.retried,
                        "errors": p.errors,
                    }
                    for p in players
                    if len(p.acked) < moves
                ]
                raise RuntimeError(f"games did not go on after the kill: {stuck}") from None
            store = n1.store
            assert isinstance(store, ClusterStore)
            lost = [m for p in players for m in await acked_moves_kept(store, p)]
            firsts = [p.first_after_mark for p in players if p.first_after_mark is not None]
            result = {
                "acked": sum(len(p.acked) for p in players),
                "acked_after_kill": sum(p.after_mark() for p in players),
                "unsure": sum(p.unsure for p in players),
                "lost": len(lost),
                "errors": sum(sum(p.errors.values()) for p in players),
                "failover_s": round(failover, 2),
                "rejoined_s": round(rejoined, 2),
                "playable_s": round(max(firsts) - killed_at, 2) if firsts else None,
            }
            for p in players:
                await p.close()
            return result
    finally:
        await asyncio.to_thread(cluster.stop)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m server.tools.cluster_failover",
        description="Kill a Redis Cluster primary under play, many times; count lost moves.",
    )
    ap.add_argument("--trials", type=int, default=20, help="kill trials (default 20)")
    ap.add_argument("--rooms", type=int, default=4, help="games played at once (default 4)")
    ap.add_argument("--moves", type=int, default=40, help="acknowledged moves per game player")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of a table")
    args = ap.parse_args(argv)
    # a failover makes the nodes warn about Redis; the trial counts what players saw
    logging.basicConfig(level=logging.CRITICAL)
    results = []
    for i in range(args.trials):
        results.append(asyncio.run(trial(args.rooms, args.moves, seed=i + 1)))
        r = results[-1]
        print(
            f"trial {i + 1}/{args.trials}: {r['acked']} acknowledged "
            f"({r['acked_after_kill']} after the kill), {r['lost']} lost, "
            f"{r['errors']} errors, failover {r['failover_s']} s, "
            f"playable after {r['playable_s']} s",
            file=sys.stderr,
        )
    summary = {
        "trials": len(results),
        "acked": sum(r["acked"] for r in results),
        "acked_after_kill": sum(r["acked_after_kill"] for r in results),
        "unsure": sum(r["unsure"] for r in results),
        "lost": sum(r["lost"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "failover_s_max": max(r["failover_s"] for r in results),
        "playable_s_max": max((r["playable_s"] or 0) for r in results),
        "runs": results,
    }
    print(json.dumps(summary if args.json else {k: v for k, v in summary.items() if k != "runs"}))
    return 0 if summary["lost"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
