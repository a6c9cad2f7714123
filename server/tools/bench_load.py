"""The load of ``kibitz bench``: a cheap load generator, and the plain-websockets ceiling.

Both sides of the comparison get the same load from the same kind of generator: rooms of two
players and some spectators; a player who is to move sends one small frame after a think time
(``think``, mean, exponential; 0 = at once), and every member of the room receives one frame
for it. On Kibitz the frame is a move and what comes back are the room's deltas (protocol 2,
MessagePack); on the ceiling, a plain ``websockets`` server relays each frame to every member
of its group (a 1→N fan-out: receive one, send N) — the least any server can do for it.

The generator is kept cheap (it shares the machine's cores with the servers): raw
``websockets`` clients, MessagePack, no SDK, and a player only looks for the ``legal`` path
in a delta. Measured: moves, deliveries, the latency from a move until every member of the
room has its message (p50, p99), refusals by error code, and the acknowledged versions (to
check that every acknowledged move is in the log).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from websockets.exceptions import ConnectionClosed
from websockets.typing import Subprotocol

from ..store.log import pack
from .bench_common import InFlight, pct, raise_nofile
from .bench_gc import gc_window, scrape_gc

MSGPACK = "kibitz.msgpack"


def quiet_gc() -> None:
    """What ``kibitz serve`` does after start-up, for a load generator (and the ceiling)
    once its connections are open: the long-lived objects out of the collector's sight and
    the young generation collected less often. Without it the generator's own full
    collections (0.1-0.5 s with 5,000 connections) are counted as the server's latency."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (``/proc/PID/stat``)."""
    import os

    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Probe:
    """The generator's own load over the measured window: its CPU (a share of one core) and
    how late its event loop runs a 20 ms timer (p99, max). A generator near a full core, or
    late by tens of ms, adds its own delay to the latencies it reports: the report says so."""

    def __init__(self) -> None:
        import os

        self.pid = os.getpid()
        self.lags: list[float] = []
        self.cpu0 = self.t0 = 0.0
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.cpu0, self.t0 = cpu_seconds(self.pid), time.monotonic()
        self.task = asyncio.get_running_loop().create_task(self._tick())

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + 0.02
            await asyncio.sleep(0.02)
            self.lags.append(max(0.0, loop.time() - due))

    def stop(self) -> dict[str, Any]:
        if self.task is not None:
            self.task.cancel()
        window = max(1e-9, time.monotonic() - self.t0)
        return {
            "cpu_share": round((cpu_seconds(self.pid) - self.cpu0) / window, 2),
            "loop_lag_p99_ms": round(pct(self.lags, 0.99) * 1000, 1),
            "loop_lag_max_ms": round(max(self.lags, default=0.0) * 1000, 1),
        }


@dataclass
class Stats:
    moves: int = 0
    delivered: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    #: new rooms the node shed (``busy``: overloaded); asked for again
    shed: dict[str, int] = field(default_factory=dict)
    games: int = 0
    acked: dict[str, int] = field(default_factory=dict)
    measuring: bool = False
    #: counters at the start of the measured window
    moves0: int = 0
    delivered0: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def start_window(self) -> None:
        self.measuring = True
        self.moves0, self.delivered0 = self.moves, self.delivered


async def _connect(url: str, binary: bool = True) -> Any:
    from websockets.asyncio.client import connect

    protocols = [Subprotocol(MSGPACK)] if binary else None
    for attempt in range(5):
        try:
            return await connect(
                url,
                subprotocols=protocols,
                compression=None,
                max_size=2**22,
                open_timeout=30,
                close_timeout=2,  # a close the other end never answers: the socket cut then
            )
        except (OSError, TimeoutError):
            if attempt == 4:
                raise
            await asyncio.sleep(0.5)


# -- Kibitz -------------------------------------------------------------------------------------


class Room:
    """One room's clients: plays chess games one after the other until the end."""

    def __init__(self, members: list[Any], stats: Stats, think: float, seed: int) -> None:
        self.members = members  # two players first, then spectators
        self.stats = stats
        self.think = think
        self.rng = random.Random(seed)
        self.room = ""
        self.version = 0
        self.waiting = InFlight()
        self.acted: dict[int, int] = {}  # seat -> the version it last moved at
        self.over = asyncio.Event()
        self.ids = 0
        self.creating: int | None = None  # the id of the create_room awaiting its answer
        self.created = asyncio.Event()
        self.create_refused = asyncio.Event()

    async def ask(self, ws: Any, msg: dict[str, Any]) -> None:
        self.ids += 1
        await ws.send(pack({**msg, "id": self.ids}))

    async def read(self, ws: Any, seat: int | None) -> None:
        stats, loop = self.stats, asyncio.get_running_loop()
        async for frame in ws:
            msg = unpack(frame)
            kind = msg.get("type")
            if kind in ("delta", "update"):
                if msg.get("room") != self.room:
                    continue
                stats.delivered += 1
                version = msg["version"]
                sent = self.waiting.seen(version)
                if sent is not None and stats.measuring:
                    stats.latencies.append(loop.time() - sent)
                legal = None
                if kind == "update":
                    legal = msg.get("legal") if msg.get("you") == seat else None
                    over = msg.get("status") == "over"
                else:
                    over = False
                    for path, value in msg["set"]:
                        if path == ["legal"]:
                            legal = value
                        elif path == ["status"] and value == "over":
                            over = True
                if over:
                    self.over.set()
                elif legal and seat is not None and version > self.acted.get(seat, 0):
                    # an update and a delta may both bring the same version: move once
                    self.acted[seat] = version
                    loop.create_task(self.move(ws, self.room, version, legal))
            elif kind == "moved":
                stats.moves += 1
                stats.acked[msg["room"]] = msg["version"]
            elif kind == "error":
                if msg.get("id") is not None and msg.get("id") == self.creating:
                    # no new room: shed (busy: the node is overloaded) or refused (counted
                    # with the refusals); the group asks again, as clients do
                    code = msg.get("code", "?")
                    if code == "busy":
                        stats.shed[code] = stats.shed.get(code, 0) + 1
                    else:
                        stats.error(f"create_room:{code}")
                    self.create_refused.set()
                    continue
                stats.error(msg.get("code", "?"))
                if msg.get("code") not in ("stale_version",):
                    await asyncio.sleep(0.1)
            elif kind == "room_created":
                self.room = msg["room"]
                self.created.set()

    async def move(self, ws: Any, room: str, version: int, legal: list[str]) -> None:
        """Move in ``room`` — the room the update was about: by the time a thinking player
        answers, its group may have started the next game in another room (a move sent
        there, before the seat was taken, was the `not_seated` seen with workers)."""
        if self.think > 0:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
        if room != self.room:
            return  # that game is over
        self.waiting.sent(version + 1, asyncio.get_running_loop().time(), len(self.members))
        with contextlib.suppress(ConnectionClosed):  # the run ended while it thought
            await self.ask(
                ws,
                {"type": "move", "room": room, "move": self.rng.choice(legal), "version": version},
            )

    async def create(self, until: float) -> bool:
        """Create the group's next room; a room the node sheds (``busy``: it is overloaded)
        is asked for again after a pause (0.5-1.5 s). False: the run ended first."""
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            self.create_refused.clear()
            self.creating = self.ids + 1  # before sending: the answer may come at once
            await self.ask(self.members[0], {"type": "create_room", "game": "chess"})
            refused = loop.create_task(self.create_refused.wait())
            created = loop.create_task(self.created.wait())
            await asyncio.wait((refused, created), timeout=30, return_when=asyncio.FIRST_COMPLETED)
            refused.cancel()
            created.cancel()
            self.creating = None
            if self.created.is_set():
                return True
            if not self.create_refused.is_set():
                raise TimeoutError("no answer to create_room in 30 s")
            await asyncio.sleep(0.5 + self.rng.random())
        return False

    async def play(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        readers = [
            loop.create_task(self.read(ws, seat if seat < 2 else None))
            for seat, ws in enumerate(self.members)
        ]
        try:
            while loop.time() < until:
                self.over.clear()
                self.created.clear()
                self.waiting.clear()
                self.acted.clear()
                if not await self.create(until):
                    break
                for ws in self.members[2:]:
                    await self.ask(ws, {"type": "watch", "room": self.room})
                for seat in (0, 1):
                    take = {"type": "take_seat", "room": self.room, "seat": seat, "name": "p"}
                    await self.ask(self.members[seat], take)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.over.wait(), max(0.01, until - loop.time()))
                if self.over.is_set():
                    self.stats.games += 1
                    for ws in self.members[2:]:
                        await self.ask(ws, {"type": "leave", "room": self.room})
        finally:
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)


async def kibitz_load(p: dict[str, Any]) -> dict[str, Any]:
    stats = Stats()
    urls = p["urls"]
    gate = asyncio.Semaphore(100)

    async def one(i: int) -> Any:
        async with gate:
            ws = await _connect(urls[i % len(urls)])
            await ws.send(pack({"type": "hello", "protocol": 2, "id": 0}))
            await ws.recv()
            return ws

    t0 = time.perf_counter()
    conns = await asyncio.gather(*(one(i) for i in range(p["connections"])))
    connect_s = time.perf_counter() - t0
    quiet_gc()
    rooms = p["rooms"]
    groups: list[list[Any]] = [[conns[2 * i], conns[2 * i + 1]] for i in range(rooms)]
    for j, ws in enumerate(conns[2 * rooms :]):
        groups[j % rooms].append(ws)
    loop = asyncio.get_running_loop()
    until = loop.time() + p["warmup"] + p["duration"]
    loop.call_later(p["warmup"], stats.start_window)
    window0 = time.monotonic() + p["warmup"]
    cpu: dict[str, dict[int, float]] = {"start": {}, "end": {}}
    pids = p.get("pids", [])

    def mark(which: str) -> None:
        cpu[which] = {pid: cpu_seconds(pid) for pid in pids}

    probe = Probe()
    loop.call_later(p["warmup"], mark, "start")
    loop.call_later(p["warmup"], probe.start)
    metrics = p.get("metrics", [])  # each node's /metrics: its collector over the window

    async def gc_at_start() -> list[dict[str, Any]]:
        await asyncio.sleep(p["warmup"])
        return await scrape_gc(metrics)

    gc_start = loop.create_task(gc_at_start())
    await asyncio.gather(*(Room(g, stats, p["think"], i).play(until) for i, g in enumerate(groups)))
    mark("end")
    gc_end = await scrape_gc(metrics)
    gc_before = await gc_start
    generator = probe.stop()
    window = max(1e-9, time.monotonic() - window0)
    held = sum(1 for ws in conns if ws.state.name == "OPEN")
    for ws in conns:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)
    return {
        "connections": len(conns),
        "connections_held": held,
        "connect_seconds": round(connect_s, 2),
        "rooms": rooms,
        "games_finished": stats.games,
        "moves": stats.moves - stats.moves0,
        "moves_per_s": round((stats.moves - stats.moves0) / window, 1),
        "delivered": stats.delivered - stats.delivered0,
        "delivered_per_s": round((stats.delivered - stats.delivered0) / window, 1),
        "latency_p50_ms": round(pct(stats.latencies, 0.5) * 1000, 2),
        "latency_p99_ms": round(pct(stats.latencies, 0.99) * 1000, 2),
        "latency_samples": len(stats.latencies),
        "refused": stats.errors,
        "rooms_shed": stats.shed,
        "acked_versions": stats.acked,
        "cpu_seconds": {
            str(pid): round(cpu["end"].get(pid, 0) - cpu["start"].get(pid, 0), 3) for pid in pids
        },
        "window_s": round(window, 2),
        "generator": generator,
        "node_gc": [gc_window(b, a) for b, a in zip(gc_before, gc_end, strict=True)],
    }


# -- the ceiling --------------------------------------------------------------------------------

CEILING_SERVER = """
import asyncio, gc, resource, sys
from websockets.asyncio.server import serve
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(20000, hard), hard))
groups = {}
async def relay(ws):
    group = groups.setdefault(await ws.recv(), [])
    group.append(ws)
    async for frame in ws:
        for member in group:
            await member.send(frame)
async def main():
    async with serve(relay, "127.0.0.1", int(sys.argv[1]), compression=None, max_queue=16):
        gc.freeze()  # as kibitz serve does after start-up
        gc.set_threshold(50_000, 20, 20)
        print("ready", flush=True)
        await asyncio.Future()
asyncio.run(main())
"""


async def ceiling_load(p: dict[str, Any]) -> dict[str, Any]:
    """Groups like Kibitz's rooms; each frame relayed to the whole group (1→N)."""
    stats = Stats()
    gate = asyncio.Semaphore(100)

    async def one() -> Any:
        async with gate:
            return await _connect(p["url"], binary=True)

    conns = await asyncio.gather(*(one() for _ in range(p["connections"])))
    rooms = p["rooms"]
    groups: list[list[Any]] = [[conns[2 * i], conns[2 * i + 1]] for i in range(rooms)]
    for j, ws in enumerate(conns[2 * rooms :]):
        groups[j % rooms].append(ws)
    for i, group in enumerate(groups):
        for ws in group:
            await ws.send(f"g{i}")
    await asyncio.sleep(0.5)
    quiet_gc()
    loop = asyncio.get_running_loop()
    until = loop.time() + p["warmup"] + p["duration"]
    loop.call_later(p["warmup"], stats.start_window)
    window0 = time.monotonic() + p["warmup"]
    pid = p["pid"]
    cpu: dict[str, float] = {}
    loop.call_later(p["warmup"], lambda: cpu.__setitem__("start", cpu_seconds(pid)))
    probe = Probe()
    loop.call_later(p["warmup"], probe.start)
    move = pack({"type": "move", "room": "xxxxxxxx", "move": "e2e4", "version": 12, "id": 7})
    update = pack({"pad": "x" * 200})

    async def table(group: list[Any], seed: int) -> None:
        rng = random.Random(seed)
        waiting = InFlight()
        counter = 0
        turn = asyncio.Queue[int]()

        async def read(ws: Any, seat: int | None) -> None:
            async for frame in ws:
                stats.delivered += 1
                key = frame[-1] if isinstance(frame, bytes) and frame else 0
                sent = waiting.seen(key)
                if sent is not None and stats.measuring:
                    stats.latencies.append(loop.time() - sent)
                if seat is not None and frame[-2:-1] == bytes([1 - seat]):
                    turn.put_nowait(seat)

        readers = [loop.create_task(read(ws, s if s < 2 else None)) for s, ws in enumerate(group)]
        seat = 0
        try:
            while loop.time() < until:
                if p["think"] > 0:
                    await asyncio.sleep(rng.expovariate(1 / p["think"]))
                counter = (counter + 1) % 250
                waiting.sent(counter, loop.time(), len(group))
                frame = move + update[:200] + bytes([seat, counter])
                await group[seat].send(frame)
                stats.moves += 1
                with contextlib.suppress(TimeoutError):
                    seat = await asyncio.wait_for(turn.get(), max(0.01, until - loop.time()))
        finally:
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)

    await asyncio.gather(*(table(g, i) for i, g in enumerate(groups)))
    end = cpu_seconds(pid)
    generator = probe.stop()
    window = max(1e-9, time.monotonic() - window0)
    for ws in conns:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2)
    return {
        "connections": len(conns),
        "moves_per_s": round((stats.moves - stats.moves0) / window, 1),
        "delivered": stats.delivered - stats.delivered0,
        "messages_per_s": round((stats.delivered - stats.delivered0) / window, 1),
        "latency_p50_ms": round(pct(stats.latencies, 0.5) * 1000, 2),
        "latency_p99_ms": round(pct(stats.latencies, 0.99) * 1000, 2),
        "cpu_seconds": round(end - cpu.get("start", end), 3),
        "window_s": round(window, 2),
        "generator": generator,
    }


def run_kibitz_load(params: dict[str, Any]) -> dict[str, Any]:
    """In a worker process."""
    raise_nofile()
    return asyncio.run(kibitz_load(params))


def run_ceiling_load(params: dict[str, Any]) -> dict[str, Any]:
    raise_nofile()
    return asyncio.run(ceiling_load(params))
