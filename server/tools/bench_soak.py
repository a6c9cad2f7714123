"""``kibitz bench --soak MINUTES``: a deployment that runs for a while without growing.

A redis-server and one Kibitz node with an archive (``--archive``; by default an SQLite
file in the run's scratch folder) and a short grace period (``--grace``), and a load
generator in its own process (``server/tools/bench_soak_load.py``): ``--connections``
connections, two players a table, playing chess games that finish and start continuously
for MINUTES minutes. Every ``--sample`` seconds: Redis's ``used_memory``, the node's RSS,
Redis's key count and the games finished so far.

Reported:

* the **slope** of Redis memory and of the node's RSS per 1,000 games finished (least
  squares over the samples once archiving runs: from ``--grace`` + 30 s on) — flat when
  Redis holds the live games only, whatever the number played;
* the **p99 latency** (a move until both players have its delta) in the first and the last
  five minutes (the first and last fifth of a run shorter than 25 minutes), and their ratio;
* that **every acknowledged move is stored**: each version a player was told ``moved`` is a
  move in the game's log in Redis or in the archive, read after the node stopped (per game:
  acknowledged moves counted by the clients against the stored ones);
* that **finished games leave Redis**: a game that ended more than ``--grace`` + 25 s
  before the end (the grace period, then sweeps every 10 s) has no log in Redis, and the logs
  left at the end are about the live games and those still in their grace period.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import multiprocessing
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from .bench_common import HOST, _start_node, _start_redis, _wait_port, log_warnings, stop_all

#: the archiver's sweep interval (``Archiver.interval``), and the time after its grace
#: period by which a finished game has left Redis: two sweeps and a margin for a busy one
SWEEP = 10.0
MARGIN = 2 * SWEEP + 5.0


def slope(xs: list[float], ys: list[float]) -> float | None:
    """The least-squares slope of ys over xs (None: fewer than two distinct xs)."""
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def run_soak(args: argparse.Namespace) -> dict[str, Any]:
    from .bench_common import _progress, raise_nofile
    from .bench_soak_load import run_soak_load

    raise_nofile()
    tmp = Path(tempfile.mkdtemp(prefix="kibitz-soak-"))
    procs: list[subprocess.Popen[bytes]] = []
    archive_url = args.archive or f"sqlite:{tmp / 'archive.sqlite3'}"
    duration = args.soak * 60
    try:
        redis_url = _start_redis(tmp, procs)
        node, port = _start_node(
            redis_url,
            "soak",
            procs,
            "--archive",
            archive_url,
            "--archive-grace",
            str(args.grace),
            log=tmp / "node-soak.log",
        )
        _wait_port(port)
        params = {
            "url": f"ws://{HOST}:{port}/ws",
            "redis": redis_url,
            "node_pid": node.pid,
            "connections": args.connections,
            "duration": duration,
            "think": args.think / 1000,
            "plies": args.plies,
            "sample": args.sample,
        }
        ctx = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
            fut = pool.submit(run_soak_load, params)
            _progress("soak", duration + args.connections / 200, fut)
            result = fut.result()
        acked: dict[str, list[int]] = result.pop("acked")
        ended: dict[str, float] = result.pop("ended")
        left = _left_in_redis(redis_url, ended, time.time() - args.grace - MARGIN)
        census, logs_end = _census(redis_url)
        node.terminate()
        node.wait(30)
        stored = asyncio.run(_stored_moves(redis_url, archive_url, list(acked)))
        report = {
            "mode": "soak",
            "minutes": args.soak,
            "grace_s": args.grace,
            "archive": "sqlite (scratch)" if args.archive is None else archive_url.split(":")[0],
            **result,
            **_slopes(result["samples"], args.grace + 3 * SWEEP),
            **_check_moves(acked, stored),
            "games_ended_before_grace_and_sweeps": left[0],
            "of_them_still_in_redis": left[1],
            "games_ended_since": len(ended) - left[0],
            "room_logs_in_redis_at_end": logs_end,
            "redis_keys_at_end": census,
            "node_warnings": log_warnings(tmp),
        }
        first, last = report["p99_first_ms"], report["p99_last_ms"]
        report["p99_last_over_first"] = round(last / first, 2) if first and last else None
        return report
    finally:
        stop_all(procs, tmp)


def _slopes(samples: list[dict[str, Any]], steady_from: float) -> dict[str, Any]:
    steady = [s for s in samples if s["t"] >= steady_from]
    games = [s["games"] / 1000 for s in steady]
    redis_kb = slope(games, [s["redis_used_memory"] / 1024 for s in steady])
    rss_mb = slope(games, [s["node_rss_mb"] for s in steady])
    return {
        "steady_from_s": steady_from,
        "steady_samples": len(steady),
        "steady_games": (steady[-1]["games"] - steady[0]["games"]) if steady else 0,
        "redis_kb_per_1000_games": None if redis_kb is None else round(redis_kb, 1),
        "node_rss_mb_per_1000_games": None if rss_mb is None else round(rss_mb, 2),
        "redis_used_memory_mb": [round(s["redis_used_memory"] / 2**20, 2) for s in samples],
        "node_rss_mb": [s["node_rss_mb"] for s in samples],
    }


def _left_in_redis(redis_url: str, ended: dict[str, float], before: float) -> tuple[int, int]:
    """(games that ended before ``before``, how many of them still have a log in Redis)."""
    import redis

    old = [room for room, at in ended.items() if at < before]
    client: Any = redis.Redis.from_url(redis_url)
    try:
        pipe = client.pipeline(transaction=False)
        for room in old:
            pipe.exists(f"kibitz:room:{room}")
        return len(old), sum(pipe.execute()) if old else 0
    finally:
        client.close()


def _census(redis_url: str) -> tuple[dict[str, dict[str, int]], int]:
    """Redis at the end, by kind of key (the name's part after ``kibitz:``, up to the next
    ``:`` or ``{``): how many keys and their ``MEMORY USAGE`` bytes, largest first — what
    holds the memory the slope measures; and how many room logs (``room:`` streams) there
    are, from the same walk."""
    import redis

    client: Any = redis.Redis.from_url(redis_url)
    kinds: dict[str, dict[str, int]] = {}
    logs = 0
    try:
        keys = list(client.scan_iter(match="kibitz:*", count=1000))
        for start in range(0, len(keys), 1000):
            batch = keys[start : start + 1000]
            pipe = client.pipeline(transaction=False)
            for key in batch:
                pipe.memory_usage(key)
                pipe.type(key)
            replies = pipe.execute()
            for key, used, kind_of in zip(batch, replies[::2], replies[1::2], strict=True):
                name = key.decode()
                kind = re.split(r"[:{]", name[len("kibitz:") :], maxsplit=1)[0]
                entry = kinds.setdefault(kind, {"keys": 0, "bytes": 0})
                entry["keys"] += 1
                entry["bytes"] += used or 0
                logs += name.startswith("kibitz:room:") and kind_of == b"stream"
    finally:
        client.close()
    return dict(sorted(kinds.items(), key=lambda kv: -kv[1]["bytes"])), logs


async def _stored_moves(
    redis_url: str, archive_url: str, rooms: list[str]
) -> dict[str, tuple[str, set[int]]]:
    """Per room: where its log is (``redis``, ``archive``, ``both``, ``neither``) and the
    versions of its move events there."""
    import redis.asyncio as aredis

    from ..archive import open_archive

    client: Any = aredis.Redis.from_url(redis_url)
    archive = open_archive(archive_url)
    await archive.start()
    out: dict[str, tuple[str, set[int]]] = {}
    try:
        for i in range(0, len(rooms), 500):
            chunk = rooms[i : i + 500]
            pipe = client.pipeline(transaction=False)
            for room in chunk:
                pipe.xrange(f"kibitz:room:{room}")
            logs = await pipe.execute()
            archived = await archive.versions(chunk)
            for room, entries in zip(chunk, logs, strict=True):
                from ..store.log import unpack

                moves = {
                    int(eid.decode().split("-")[0])
                    for eid, fields in entries
                    if unpack(fields[b"e"])["k"] == "move"
                }
                where = "redis" if entries else "neither"
                if room in archived:
                    where = "both" if entries else "archive"
                    events = await archive.events(room) or []
                    moves |= {v for v, e in enumerate(events, 1) if e["k"] == "move"}
                out[room] = (where, moves)
    finally:
        await client.aclose()
        await archive.close()
    return out


def _check_moves(
    acked: dict[str, list[int]], stored: dict[str, tuple[str, set[int]]]
) -> dict[str, Any]:
    where: dict[str, int] = {}
    missing = found = unacked = 0
    for room, versions in acked.items():
        place, moves = stored[room]
        where[place] = where.get(place, 0) + 1
        present = sum(1 for v in versions if v in moves)
        found += present
        missing += len(versions) - present
        unacked += max(0, len(moves) - len(set(versions)))
    return {
        "games_played": len(acked),
        "games_by_place": where,
        "acked_moves": sum(len(v) for v in acked.values()),
        "acked_moves_found": found,
        "acked_moves_missing": missing,
        "stored_moves_not_acked": unacked,
        "every_acked_move_stored": missing == 0,
    }


def add_soak_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--grace",
        type=float,
        default=60,
        help="soak: seconds a finished game stays in Redis before it is archived (default 60)",
    )
    p.add_argument(
        "--plies",
        type=int,
        default=80,
        help="soak: a game's mean length; a player resigns once it has run for a length drawn "
        "in [plies/2, 3 plies/2] (default 80)",
    )
    p.add_argument(
        "--sample",
        type=float,
        default=60,
        help="soak: seconds between samples of memory and games (default 60)",
    )
    p.add_argument(
        "--archive",
        metavar="URL",
        help="--soak and --restart --archived: the node's archive, postgresql://... or "
        "sqlite:PATH (default: an SQLite file in the run's scratch folder)",
    )


def print_soak(r: dict[str, Any]) -> None:
    def mb(values: list[float]) -> str:
        if len(values) <= 8:
            return ", ".join(f"{v:g}" for v in values)
        return f"{values[0]:g}, {values[1]:g} ... {values[-2]:g}, {values[-1]:g}"

    lines = [
        f"soak {r['minutes']} min: {r['connections_held']}/{r['connections']} connections held,"
        f" {r['tables']} tables, grace {r['grace_s']:g} s, archive {r['archive']}",
        f"games finished {r['games_finished']} (stalled {r['games_stalled']}),"
        f" moves acknowledged {r['moves_acked']}, refused {r['refused'] or 'none'},"
        f" tables cut off at the end {r['tables_cut_off']}",
        f"Redis used_memory MB by sample: {mb(r['redis_used_memory_mb'])}",
        f"node RSS MB by sample: {mb(r['node_rss_mb'])}",
        f"slope per 1,000 games (least squares, {r['steady_samples']} samples from"
        f" {r['steady_from_s']:g} s, {r['steady_games']} games): Redis"
        f" {r['redis_kb_per_1000_games']} KB, node RSS {r['node_rss_mb_per_1000_games']} MB",
        f"p99 move -> both players: first {r['latency_window_s']:g} s {r['p99_first_ms']} ms"
        f" ({r['p99_first_samples']} moves), last {r['p99_last_ms']} ms"
        f" ({r['p99_last_samples']} moves): last/first {r['p99_last_over_first']}",
        f"every acknowledged move stored: {r['every_acked_move_stored']}"
        f" ({r['acked_moves_found']}/{r['acked_moves']}; games by place {r['games_by_place']})",
        f"games ended more than grace + {MARGIN:g} s before the end:"
        f" {r['games_ended_before_grace_and_sweeps']}, still in Redis:"
        f" {r['of_them_still_in_redis']}; room logs in Redis at the end:"
        f" {r['room_logs_in_redis_at_end']} (tables {r['tables']})",
        f"load generator: {r['generator']['cpu_share']} of a core, its loop late p99"
        f" {r['generator']['loop_lag_p99_ms']} ms",
    ]
    census = ", ".join(
        f"{kind} {c['keys']} ({c['bytes'] / 1024:.0f} KB)"
        for kind, c in list(r["redis_keys_at_end"].items())[:8]
    )
    lines.append(f"Redis keys at the end by kind (count, MEMORY USAGE): {census}")
    if r["refused_first_said"]:
        lines.append("what each refusal said first:")
        lines.extend(f"  {code}: {said}" for code, said in r["refused_first_said"].items())
    if r["node_warnings"]:
        lines.append("the node warned (distinct messages, how often):")
        lines.extend(f"  {w}" for w in r["node_warnings"])
    print("\n".join(lines))
