"""A 200-player arena of bots on this machine: how soon a player is paired again after a game.

    .venv/bin/python scripts/bench_tournament.py [--players 200] [--seconds 60] [--workers 2]

Starts a redis-server of its own (not persisted) and one Kibitz node in this process with
``--workers`` bot worker processes, creates an arena of Kamisado (random bots, 15 s clocks:
short games, so many results), fills it with bots and lets it run to its end. Reported:

* ``repair`` — per player and game, from the ``result`` event of their game to the ``paired``
  event of their next one (the log's own timestamps): what a player waits, including waiting
  for an opponent to be free;
* ``director`` — from a result folded to the ``paired`` events its tick appended (the
  director's decide + log append), on the node's monotonic clock;
* ``redis_rtt`` — a Redis PING round trip in the same run, the anchor the figures are
  divided by.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.net.app import Config, KibitzServer
from server.net.transport.connection import Limits
from server.sdk import KibitzClient
from server.store.tournaments import TournamentStore
from server.tools.bench_common import _start_redis, pct, stop_all


def repair_times(log: list[dict[str, Any]]) -> list[float]:
    """Per player: the next ``paired`` event's time minus their last ``result``'s."""
    ended: dict[str, float] = {}
    players: dict[str, list[str]] = {}
    out = []
    for e in log:
        d = e["d"]
        if e["k"] == "paired":
            players[d["room"]] = d["players"]
            for key in d["players"]:
                if key in ended:
                    out.append(e["t"] - ended.pop(key))
        elif e["k"] == "result":
            for key in players.get(d["room"], []):
                ended[key] = e["t"]
        elif e["k"] == "finished":
            break
    return out


async def run(players: int, seconds: float, workers: int, url: str) -> dict[str, Any]:
    cfg = Config(
        port=0, redis_url=url, prefix="bench:", bot_workers=workers,
        limits=Limits(rate=10_000, burst=10_000),
    )  # fmt: skip
    async with KibitzServer(cfg) as server:
        assert server.hub is not None and server.store is not None
        c = await KibitzClient.connect(server.ws_url)
        spec = {
            "name": "Bench arena", "game": "kamisado", "system": "arena",
            "clock": {"base": 15, "increment": 0}, "seconds": seconds, "max_players": players,
        }  # fmt: skip
        tid = (await c.request("tournament_create", **spec))["tournament"]
        for _ in range(players):
            await c.request("tournament_add_bot", tournament=tid, level="random")
        await c.request("tournament_watch", tournament=tid)
        started = time.monotonic()
        while True:
            msg = await c.next_message(seconds + 120)
            view = msg.get("view") if msg.get("type") == "tournament" else None
            if (
                view
                and view["status"] == "finished"
                and not any(g["ongoing"] for g in view["games"])
            ):
                break
        wall = time.monotonic() - started
        rtts = []
        for _ in range(200):
            rtts.append(await server.store.ping())
        log = await TournamentStore(server.store).load(tid)
        director = list(server.tournaments.director.latencies)
        await c.close()
    repair = repair_times(log)
    rtt = pct(rtts, 0.5)
    ms = lambda v: round(v * 1000, 2)  # noqa: E731
    return {
        "players": players,
        "seconds": seconds,
        "bot_workers": workers,
        "wall_s": round(wall, 1),
        "games": sum(1 for e in log if e["k"] == "paired"),
        "events": len(log),
        "repair_ms": {"p50": ms(pct(repair, 0.5)), "p99": ms(pct(repair, 0.99)), "n": len(repair)},
        "director_ms": {
            "p50": ms(pct(director, 0.5)),
            "p99": ms(pct(director, 0.99)),
            "n": len(director),
        },
        "redis_rtt_ms_p50": ms(rtt),
        "repair_p99_over_rtt": round(pct(repair, 0.99) / rtt),
        "director_p99_over_rtt": round(pct(director, 0.99) / rtt),
        "machine": f"{platform.machine()}, {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--workers", type=int, default=2)
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="kibitz-bench-tournament-"))
    procs: list[Any] = []
    try:
        url = _start_redis(tmp, procs, persist=False)
        report = asyncio.run(run(args.players, args.seconds, args.workers, url))
    finally:
        with contextlib.suppress(Exception):
            stop_all(procs, tmp)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
