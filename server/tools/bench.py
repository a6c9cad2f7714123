"""``kibitz bench``: load a real deployment on loopback and measure it against a ceiling.

Modes (one per run):

* **load** (default) — a redis-server, ``--nodes`` Kibitz nodes and a load generator, each in
  its own process: ``--connections`` WebSocket connections, two players for each of
  ``--rooms`` chess rooms and the rest spectators; players move after a think time
  (``--think`` ms, mean; ``--think 0`` or ``--saturate``: at once, the saturating mode).
  In the same run, a plain ``websockets`` server doing the same 1→N fan-out for the same
  groups gives the ceiling. Reported: moves/s, deliveries/s, move→every-recipient latency
  p50/p99, refused requests by code (moves; seats and rooms as ``create_room:CODE``), new
  rooms shed as ``busy`` (asked for again after a pause), whether every acknowledged move is
  in the log, and **server CPU µs per delivered message** (every Kibitz node + its
  redis-server, from ``/proc``, over the measured window) next to the ceiling's, their
  ratio and deliveries/s as % of the ceiling's; how busy each process was (the nodes',
  redis-server's and the load generator's share of a core, the generator's loop lag), and
  the nodes' distinct log warnings.
* ``--restart`` — ``--rooms`` rooms with ``--moves`` moves each are written to Redis as a node
  would, then a node starts with that node id: seconds until its port opens and until every
  room has played a first move; refused first moves.
  With ``--archived N``, the node's archive holds N finished games first, and reads of
  them are timed once it is up (:mod:`server.tools.bench_restart_archive`).
* ``--memory`` — RSS per idle connection and per live room (a chess room with ``--moves``
  moves and two seats), from ``/proc``.
* ``--soak MINUTES`` — a node with an archive under games that finish and start
  continuously: Redis memory and the node's RSS per 1,000 games, p99 latency at the start
  and the end, every acknowledged move stored (:mod:`server.tools.bench_soak`).
* ``--engine`` — plies (joint turns) per second of every game through the engine contract,
  next to python-chess's own loop (and OpenSpiel's dark chess, when installed), the cost
  of one move through the rooms API at ply 10 and ply 150, and the chess bot's search
  (nodes a second to depth 5 on four positions) next to the same search on python-chess's
  own moves and push.

Everything stays on 127.0.0.1 and stops by itself.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import multiprocessing
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .bench_common import (
    HOST,
    _progress,
    _start_node,
    _start_redis,
    _wait_port,
    free_port,
    log_warnings,
    raise_nofile,
    rss_mb,
    stop_all,
)
from .bench_modes import compiled_parts


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The load mode (see the module doc)."""
    from .bench_load import CEILING_SERVER, run_ceiling_load, run_kibitz_load

    raise_nofile()
    tmp = Path(tempfile.mkdtemp(prefix="kibitz-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    ctx = multiprocessing.get_context("spawn")
    think = 0.0 if args.saturate else args.think / 1000
    try:
        redis_url = _start_redis(tmp, procs)
        redis_pid = procs[0].pid
        node_pids, urls = [], []
        metrics = []  # each node's /metrics: its collector over the window (not asked of
        # --workers, whose workers share one port)
        if args.workers > 1:  # one `kibitz serve --workers N` (its workers share the port)
            proc, port = _start_node(
                redis_url,
                "bench",
                procs,
                "--workers",
                str(args.workers),
                stdout=True,
                log=tmp / "node-bench.log",
            )
            assert proc.stdout is not None
            info = json.loads(proc.stdout.readline())
            node_pids.extend(info["workers"])
            urls.append(f"ws://{HOST}:{port}/ws")
        for i in range(args.nodes if args.workers <= 1 else 0):
            proc, port = _start_node(redis_url, f"bench{i}", procs, log=tmp / f"node-bench{i}.log")
            _wait_port(port)
            node_pids.append(proc.pid)
            urls.append(f"ws://{HOST}:{port}/ws")
            metrics.append(f"http://{HOST}:{port}/metrics")
        params = {
            "urls": urls,
            "connections": args.connections,
            "rooms": args.rooms,
            "duration": args.duration,
            "think": think,
            "warmup": args.warmup,
            "pids": [*node_pids, redis_pid],
            "metrics": metrics,
        }
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
            fut = pool.submit(run_kibitz_load, params)
            _progress("kibitz", args.duration + args.warmup + 20, fut)
            peak_rss = [rss_mb(pid) for pid in node_pids]
            result = fut.result()
        persisted = _check_persisted(redis_url, result.pop("acked_versions"))
        result["node_warnings"] = log_warnings(tmp)
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(20)
        procs.clear()
        # the ceiling: the same groups on a plain websockets relay, same run
        ceiling_port = free_port()
        ceiling = subprocess.Popen(
            [sys.executable, "-c", CEILING_SERVER, str(ceiling_port)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        procs.append(ceiling)
        _wait_port(ceiling_port)
        ceiling_params = {
            "url": f"ws://{HOST}:{ceiling_port}/",
            "connections": args.connections,
            "rooms": args.rooms,
            "duration": args.duration,
            "think": think,
            "warmup": args.warmup,
            "pid": ceiling.pid,
        }
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
            fut = pool.submit(run_ceiling_load, ceiling_params)
            _progress("ceiling", args.duration + args.warmup + 10, fut)
            ceiling_rss = rss_mb(ceiling.pid)
            baseline = fut.result()
        server_cpu = sum(result["cpu_seconds"].values())
        window = result["window_s"] or 1e-9
        result["node_cpu_share"] = [
            round(result["cpu_seconds"][str(pid)] / window, 2) for pid in node_pids
        ]
        result["redis_cpu_share"] = round(result["cpu_seconds"][str(redis_pid)] / window, 2)
        baseline["server_cpu_share"] = round(
            baseline["cpu_seconds"] / (baseline["window_s"] or 1e-9), 2
        )
        us_kibitz = server_cpu / result["delivered"] * 1e6 if result["delivered"] else None
        us_ceiling = (
            baseline["cpu_seconds"] / baseline["delivered"] * 1e6 if baseline["delivered"] else None
        )
        report = {
            "nodes": args.nodes if args.workers <= 1 else 1,
            "workers": args.workers,
            "think_ms": think * 1000,
            "warmup_s": args.warmup,
            "duration_s": args.duration,
            "compiled": compiled_parts(),
            **result,
            "server_rss_mb": [round(x, 1) for x in peak_rss],
            "every_acked_move_persisted": persisted,
            "server_cpu_us_per_delivered": round(us_kibitz, 1) if us_kibitz else None,
            "echo": {
                **baseline,
                "server_rss_mb": round(ceiling_rss, 1),
                "server_cpu_us_per_delivered": round(us_ceiling, 1) if us_ceiling else None,
            },
            "cpu_ratio_to_ceiling": round(us_kibitz / us_ceiling, 2)
            if us_kibitz and us_ceiling
            else None,
            "ratio_delivered_to_echo": round(
                result["delivered_per_s"] / baseline["messages_per_s"], 3
            )
            if baseline["messages_per_s"]
            else None,
        }
        return report
    finally:
        stop_all(procs, tmp)


def _check_persisted(redis_url: str, acked: dict[str, int]) -> bool:
    """Every version a client got acknowledged is in that room's log."""
    import redis

    client: Any = redis.Redis.from_url(redis_url)
    try:
        for room, version in acked.items():
            last = client.xrevrange(f"kibitz:room:{room}", count=1)
            if not last or int(last[0][0].decode().split("-")[0]) < version:
                return False
        return True
    finally:
        client.close()


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--nodes", type=int, default=1, help="Kibitz nodes sharing one Redis (default 1)"
    )
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help="one node started with `kibitz serve --workers N` instead of --nodes (default 1)",
    )
    p.add_argument(
        "--connections",
        type=int,
        help="WebSocket connections (default 1000; --soak: 2000)",
    )
    p.add_argument("--rooms", type=int, default=200, help="live chess rooms (default 200)")
    p.add_argument("--duration", type=float, default=20, help="seconds measured (default 20)")
    p.add_argument(
        "--think",
        type=float,
        default=1000,
        help="mean think time of a player before each move, ms (default 1000)",
    )
    p.add_argument(
        "--saturate",
        action="store_true",
        help="players move at once (--think 0): the saturating mode",
    )
    p.add_argument(
        "--warmup",
        type=float,
        default=5,
        help="seconds of load before the measured window (rooms being set up; default 5;"
        " at 10,000 connections take 20 to measure the steady state: the set-up's end"
        " otherwise still falls in the window)",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--restart",
        action="store_true",
        help="restart mode: --rooms rooms of --moves moves in Redis, a node starts: seconds "
        "to an open port and to a first move in every room",
    )
    mode.add_argument(
        "--memory",
        action="store_true",
        help="memory mode: RSS per idle connection (--connections) and per live room (--rooms)",
    )
    mode.add_argument(
        "--engine",
        action="store_true",
        help="engine mode: plies/s per game next to python-chess (and OpenSpiel), the cost "
        "of a move through the rooms API at ply 10 and 150, and the chess search's nodes/s "
        "next to the same search on python-chess's moves",
    )
    mode.add_argument(
        "--soak",
        type=float,
        metavar="MINUTES",
        help="soak mode: --connections players (two a table) play chess games that finish "
        "and start for MINUTES minutes on a node with an archive; Redis memory and RSS per "
        "1,000 games, p99 latency first and last, every acknowledged move stored",
    )
    p.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="load mode: run Kibitz and the ceiling N times, in turn, and report every run's "
        "ratios and their median (this machine is shared: one pair can be off by 30 %%)",
    )
    p.add_argument("--moves", type=int, default=40, help="moves per room (--restart, --memory)")
    p.add_argument(
        "--archived",
        type=int,
        default=0,
        metavar="N",
        help="--restart: N finished games in the node's archive first (filled through the "
        "archive's own API), and reads of them once the node is up",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="engine mode: smaller samples (the test suite's short form; figures are rough)",
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    from .bench_soak import add_soak_arguments

    add_soak_arguments(p)


def main(args: argparse.Namespace) -> int:
    if args.connections is None:
        args.connections = 2000 if args.soak is not None else 1000
    if args.soak is not None:
        return _soak(args)
    if args.engine:
        from .bench_modes import engine_mode

        return _print(engine_mode(args.quick), args.json)
    if (args.archived and not args.restart) or args.archived < 0:
        print("kibitz: --archived N (N >= 0) goes with --restart", file=sys.stderr)
        return 2
    if args.restart and args.archived:
        from .bench_restart_archive import restart_archived_mode

        return _print(restart_archived_mode(args), args.json)
    if args.restart or args.memory:
        from .bench_modes import memory_mode, restart_mode

        report = restart_mode(args) if args.restart else memory_mode(args)
        return _print(report, args.json)
    if args.connections < 2 * args.rooms:
        print(
            "kibitz: --connections must be at least 2 x --rooms (two players a room)",
            file=sys.stderr,
        )
        return 2
    if args.connections > 19_000:
        print(
            "kibitz: at most 19000 connections (one process may hold 20000 files)", file=sys.stderr
        )
        return 2
    if args.repeat < 1:
        print("kibitz: --repeat must be at least 1", file=sys.stderr)
        return 2
    runs = []
    for i in range(args.repeat):
        if args.repeat > 1:
            print(f"pair {i + 1} of {args.repeat}", file=sys.stderr)
        runs.append(run(args))
    report = _median_run(runs)
    persisted = all(r["every_acked_move_persisted"] for r in runs)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0 if persisted else 1
    r, e = report, report["echo"]
    g, eg = r["generator"], e["generator"]
    lines = [
        f"nodes {r['nodes']}  connections {r['connections_held']}/{r['connections']}"
        f"  rooms {r['rooms']}  think {r['think_ms']:.0f} ms  measured {r['window_s']} s",
        f"moves/s {r['moves_per_s']}  delivered msgs/s {r['delivered_per_s']}"
        f"  ({100 * (r['ratio_delivered_to_echo'] or 0):.0f} % of the ceiling's)",
        f"move-to-all-recipients p50 {r['latency_p50_ms']} ms  p99 {r['latency_p99_ms']} ms"
        f"  ({r['latency_samples']} moves)",
        f"refused {r['refused'] or 'none'}  new rooms shed (busy, asked again)"
        f" {r['rooms_shed'] or 'none'}  server RSS {r['server_rss_mb']} MB",
        f"every acknowledged move persisted: {r['every_acked_move_persisted']}"
        f"  compiled parts: {r['compiled']}",
        f"server CPU per delivered message: {r['server_cpu_us_per_delivered']} us"
        f" (nodes + redis-server) vs ceiling {e['server_cpu_us_per_delivered']} us:"
        f" {r['cpu_ratio_to_ceiling']}x",
        f"ceiling (plain websockets 1->N fan-out, {e['connections']} connections):"
        f" {e['messages_per_s']} msgs/s, p99 {e['latency_p99_ms']} ms",
        f"busy: nodes {r['node_cpu_share']} of a core each, redis-server"
        f" {r['redis_cpu_share']}; load generator {g['cpu_share']} of a core, its loop late"
        f" p99 {g['loop_lag_p99_ms']} ms, max {g['loop_lag_max_ms']} ms"
        f" (ceiling run: server {e['server_cpu_share']}, generator {eg['cpu_share']},"
        f" late p99 {eg['loop_lag_p99_ms']} ms)",
    ]
    for i, node in enumerate(r.get("node_gc") or []):
        pauses = ", ".join(
            f"gen {gen}: {g['pauses']} pauses, {g['seconds']} s"
            + (f", longest <= {g['longest_le']} s" if g["longest_le"] else "")
            for gen, g in node.items()
        )
        lines.append(f"node {i} garbage collector in the window: {pauses or 'not read'}")
    if r["node_warnings"]:
        lines.append("the nodes warned (distinct messages, how often):")
        lines.extend(f"  {w}" for w in r["node_warnings"])
    if len(runs) > 1:
        m = r["repeated"]
        lines[:0] = [
            f"{len(runs)} pairs (Kibitz, then the ceiling); the median pair by CPU ratio below",
            f"CPU ratio to the ceiling per pair: {m['cpu_ratios']}: median {m['cpu_ratio']}x",
            f"deliveries as % of the ceiling's per pair: {m['delivered_pcts']}:"
            f" median {m['delivered_pct']} %",
            f"refused per pair: {m['refused']}; every acknowledged move persisted in every"
            f" pair: {persisted}",
            "",
        ]
    print("\n".join(lines))
    return 0 if persisted else 1


def _soak(args: argparse.Namespace) -> int:
    from .bench_soak import print_soak, run_soak

    if args.soak <= 0 or args.connections < 2 or args.connections > 19_000:
        print("kibitz: --soak needs MINUTES > 0 and 2..19000 --connections", file=sys.stderr)
        return 2
    if args.grace < 0 or args.plies < 2 or args.sample <= 0:
        print("kibitz: --grace >= 0, --plies >= 2 and --sample > 0 for --soak", file=sys.stderr)
        return 2
    report = run_soak(args)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_soak(report)
    ok = report["every_acked_move_stored"] and report["of_them_still_in_redis"] == 0
    return 0 if ok else 1


def _median_run(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The run whose CPU ratio is the median (the lower middle one of an even count), with
    every run's ratios beside it under ``repeated`` when there were several."""
    if len(runs) == 1:
        return runs[0]
    ordered = sorted(runs, key=lambda r: r["cpu_ratio_to_ceiling"] or float("inf"))
    middle = ordered[(len(ordered) - 1) // 2]
    pcts = [round(100 * (r["ratio_delivered_to_echo"] or 0), 1) for r in runs]
    return {
        **middle,
        "repeated": {
            "cpu_ratios": [r["cpu_ratio_to_ceiling"] for r in runs],
            "cpu_ratio": middle["cpu_ratio_to_ceiling"],
            "delivered_pcts": pcts,
            "delivered_pct": sorted(pcts)[(len(pcts) - 1) // 2],
            "refused": [r["refused"] for r in runs],
        },
    }


def _print(report: dict[str, Any], as_json: bool) -> int:
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0
