"""The load of ``kibitz bench --soak``: tables of two players that play chess games one
after the other for the whole run, and a sampler of the deployment's memory.

Each table is two WebSocket connections (MessagePack, no SDK, as the load mode's generator):
one creates a room, both take a seat, each moves after a think time (``think``, mean,
exponential) until the game ends — by the rules, or by a resignation once it has run for
its drawn length (``plies``: uniform in [plies/2, 3 plies/2], so that games end at a steady
rate), then both leave the room and the table starts the next one. A game that makes no
progress for :data:`STALL` seconds (a refused move, a very late delta) is resigned by both
seats (so that it ends and leaves Redis like the others) and counted as stalled.

Recorded: every acknowledged move's version per game (the check that each one is stored),
when each game ended (wall clock: the check that finished games leave Redis), the latency
from a move until both players have its delta (with its time in the run), refusals by
code, and every ``sample`` seconds Redis's ``used_memory``, the node's RSS, its key count
and the games finished so far.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from array import array
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidStatus

from ..store.log import pack
from .bench_common import InFlight, pct, raise_nofile, rss_mb
from .bench_load import Probe, _connect, quiet_gc, unpack

#: seconds without a delta after which a table gives its game up
STALL = 30.0
#: stalled games described in the report (the first ones)
STALLS_KEPT = 10


@dataclass
class SoakStats:
    games: int = 0
    stalled: int = 0
    moves: int = 0
    #: room -> the versions acknowledged to its players ("moved"), in order
    acked: dict[str, array[int]] = field(default_factory=dict)
    #: room -> when (time.time()) a player saw it end
    ended: dict[str, float] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    #: code -> the first message said with it (what was refused, and why)
    said: dict[str, str] = field(default_factory=dict)
    #: the first stalled games: what each seat had last heard of it (an operator's lead)
    stalls: list[dict[str, Any]] = field(default_factory=list)
    #: (seconds into the run, latency) per move, as two arrays
    lat_at: array[float] = field(default_factory=lambda: array("d"))
    lat: array[float] = field(default_factory=lambda: array("d"))

    def error(self, code: str, message: str = "") -> None:
        self.errors[code] = self.errors.get(code, 0) + 1
        self.said.setdefault(code, message)


class Table:
    """Two players' connections playing one game after the other."""

    def __init__(
        self, players: list[Any], stats: SoakStats, p: dict[str, Any], seed: int, t0: float
    ) -> None:
        self.players = players
        self.stats = stats
        self.think = p["think"]
        self.plies = p["plies"]
        self.rng = random.Random(seed)
        self.t0 = t0
        self.room = ""
        self.target = 0
        self.ids = 0
        self.waiting = InFlight()
        self.acted: dict[int, int] = {}
        self.progress = 0  # deltas seen: a game that sees none for STALL seconds is stuck
        #: seat -> (version, kind, whether it carried legal moves) of its last delta or update
        self.heard: dict[int, tuple[int, str, bool]] = {}
        self.over = asyncio.Event()
        self.created = asyncio.Event()
        self.refused = asyncio.Event()

    async def ask(self, ws: Any, msg: dict[str, Any]) -> None:
        self.ids += 1
        with contextlib.suppress(ConnectionClosed):
            await ws.send(pack({**msg, "id": self.ids}))

    async def read(self, ws: Any, seat: int) -> None:
        """Read until the connection closes (a reader that fails is counted, by its error:
        its table would stall without it)."""
        try:
            await self._read(ws, seat)
        except ConnectionClosed:
            self.stats.error("reader:closed")
        except Exception as exc:
            self.stats.error(f"reader:{type(exc).__name__}", repr(exc)[:200])

    async def _read(self, ws: Any, seat: int) -> None:
        stats, loop = self.stats, asyncio.get_running_loop()
        async for frame in ws:
            msg = unpack(frame)
            kind = msg.get("type")
            if kind in ("delta", "update"):
                if msg.get("room") != self.room:
                    continue
                self.progress += 1
                version = msg["version"]
                sent = self.waiting.seen(version)
                if sent is not None:
                    now = loop.time()
                    stats.lat_at.append(now - self.t0)
                    stats.lat.append(now - sent)
                legal, over = None, False
                if kind == "update":
                    legal = msg.get("legal") if msg.get("you") == seat else None
                    over = msg.get("status") == "over"
                else:
                    for path, value in msg["set"]:
                        if path == ["legal"]:
                            legal = value
                        elif path == ["status"] and value == "over":
                            over = True
                self.heard[seat] = (version, kind, bool(legal))
                if over:
                    if not self.over.is_set():
                        stats.ended.setdefault(self.room, time.time())
                    self.over.set()
                elif legal and version > self.acted.get(seat, 0):
                    self.acted[seat] = version
                    loop.create_task(self.move(ws, self.room, version, legal))
            elif kind == "moved":
                stats.moves += 1
                stats.acked.setdefault(msg["room"], array("I")).append(msg["version"])
            elif kind == "room_created":
                self.room = msg["room"]
                self.created.set()
            elif kind == "error":
                code, said = str(msg.get("code", "?")), str(msg.get("message", ""))
                if msg.get("id") == self.creating:
                    stats.error(f"create_room:{code}", said)
                    self.refused.set()
                else:
                    stats.error(code, said)

    creating: int | None = None

    async def move(self, ws: Any, room: str, version: int, legal: list[str]) -> None:
        await asyncio.sleep(self.rng.expovariate(1 / self.think) if self.think > 0 else 0)
        if room != self.room or self.over.is_set():
            return
        if len(self.stats.acked.get(room, ())) >= self.target:
            await self.ask(ws, {"type": "resign", "room": room})
            return
        self.waiting.sent(version + 1, asyncio.get_running_loop().time(), len(self.players))
        move = self.rng.choice(legal)
        await self.ask(ws, {"type": "move", "room": room, "move": move, "version": version})

    async def create(self, until: float) -> bool:
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            self.created.clear()
            self.refused.clear()
            self.creating = self.ids + 1
            await self.ask(self.players[0], {"type": "create_room", "game": "chess"})
            waits = [loop.create_task(e.wait()) for e in (self.created, self.refused)]
            await asyncio.wait(waits, timeout=30, return_when=asyncio.FIRST_COMPLETED)
            for task in waits:
                task.cancel()
            self.creating = None
            if self.created.is_set():
                return True
            await asyncio.sleep(0.5 + self.rng.random())  # shed or refused: ask again
        return False

    def note_stall(self) -> None:
        if len(self.stats.stalls) < STALLS_KEPT:
            heard = {seat: list(h) for seat, h in self.heard.items()}
            last = list(self.stats.acked.get(self.room, ()))[-3:]
            note = {"room": self.room, "acked": last, "target": self.target, "heard": heard}
            self.stats.stalls.append({**note, "acted": dict(self.acted)})

    async def play(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        readers = [loop.create_task(self.read(ws, seat)) for seat, ws in enumerate(self.players)]
        try:
            while loop.time() < until:
                # the last game's late deltas (the other seat's "over", say) are not this
                # one's: they once set this game over, or its first move as made, before
                # its room was known (1.5 % of the soak's games stalled)
                self.room = ""
                self.over.clear()
                self.waiting.clear()
                self.acted.clear()
                self.heard.clear()
                self.target = self.rng.randint(self.plies // 2, self.plies * 3 // 2)
                if not await self.create(until):
                    break
                for seat in (0, 1):
                    take = {"type": "take_seat", "room": self.room, "seat": seat, "name": "p"}
                    await self.ask(self.players[seat], take)
                while not self.over.is_set() and loop.time() < until:
                    seen = self.progress
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.over.wait(), min(STALL, until - loop.time()))
                    if not self.over.is_set() and self.progress == seen and loop.time() < until:
                        self.note_stall()
                        self.stats.stalled += 1  # given up: resigned, so that it ends (and
                        for ws in self.players:  # leaves Redis) like any game
                            await self.ask(ws, {"type": "resign", "room": self.room})
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self.over.wait(), 5)
                        break
                if self.over.is_set():
                    self.stats.games += 1
                for ws in self.players:
                    await self.ask(ws, {"type": "leave", "room": self.room})
        finally:
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)


async def _one_sample(client: Any, p: dict[str, Any], stats: SoakStats, t: float) -> dict[str, Any]:
    info = await client.info("memory")
    return {
        "t": round(t, 1),
        "games": stats.games,
        "moves": stats.moves,
        "redis_used_memory": int(info["used_memory"]),
        "redis_keys": int(await client.dbsize()),
        "node_rss_mb": round(rss_mb(p["node_pid"]), 1),
    }


async def _sample(
    p: dict[str, Any], stats: SoakStats, t0: float, out: list[dict[str, Any]], stop: asyncio.Event
) -> None:
    """A sample every ``p["sample"]`` seconds until ``stop`` is set, and one then (not by
    cancelling: redis-py can swallow a cancellation that lands inside a command, and then
    the sampler went on for good — it did so when the end fell on a sample)."""
    import redis.asyncio as aredis

    client: Any = aredis.Redis.from_url(p["redis"])
    loop = asyncio.get_running_loop()
    try:
        while not stop.is_set():
            out.append(await _one_sample(client, p, stats, loop.time() - t0))
            s = out[-1]
            print(  # a line per sample on stderr (above the progress bar of a terminal)
                f"\r{s['t']:7.0f} s  games {s['games']:6d}  moves {s['moves']:8d}  Redis"
                f" {s['redis_used_memory'] / 2**20:7.2f} MB  node RSS {s['node_rss_mb']:6.1f} MB",
                file=sys.stderr,
                flush=True,
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), p["sample"])
        out.append(await _one_sample(client, p, stats, loop.time() - t0))
    finally:
        await client.aclose()


def awaiting(coro: Any) -> list[str]:
    """Where a suspended coroutine waits: each frame down its chain of awaits."""
    out = []
    while coro is not None:
        frame = getattr(coro, "cr_frame", None) or getattr(coro, "gi_frame", None)
        if frame is not None:
            out.append(f"{frame.f_code.co_filename}:{frame.f_lineno} {frame.f_code.co_name}")
        coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
    return out


def window_p99(stats: SoakStats, start: float, end: float) -> tuple[float | None, int]:
    """p99 latency (ms) of the moves whose delta reached both players in [start, end)."""
    values = [v for at, v in zip(stats.lat_at, stats.lat, strict=True) if start <= at < end]
    return (round(pct(values, 0.99) * 1000, 2) if values else None), len(values)


async def soak_load(p: dict[str, Any]) -> dict[str, Any]:
    stats = SoakStats()
    gate = asyncio.Semaphore(100)

    busy = 0

    async def one() -> Any:
        nonlocal busy
        async with gate:
            while True:  # a node over its lag limit answers 503: clients ask again
                try:
                    ws = await _connect(p["url"])
                    break
                except InvalidStatus as exc:
                    if exc.response.status_code != 503:
                        raise
                    busy += 1
                    await asyncio.sleep(0.2)
            await ws.send(pack({"type": "hello", "protocol": 2, "id": 0}))
            await ws.recv()
            return ws

    started = time.perf_counter()
    conns = await asyncio.gather(*(one() for _ in range(p["connections"])))
    connect_s = time.perf_counter() - started
    quiet_gc()
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    until = t0 + p["duration"]
    samples: list[dict[str, Any]] = []
    stop_sampling = asyncio.Event()
    sampler = loop.create_task(_sample(p, stats, t0, samples, stop_sampling))
    probe = Probe()
    probe.start()
    tables = [Table(conns[i : i + 2], stats, p, i, t0) for i in range(0, len(conns) - 1, 2)]
    playing = {loop.create_task(t.play(until)): t for t in tables}
    # a table ends its game by the end (or gives it up after STALL s): one still playing a
    # minute past that is cut off and counted, not waited for: where it waited is printed,
    # its connections are closed (cut after 2 s: ``close_timeout``), and it gets 10 s more
    _done, cut_off = await asyncio.wait(playing, timeout=p["duration"] + STALL + 60)
    closing = []
    for task in cut_off:
        print(f"a table still playing past the end: {playing[task].room}", file=sys.stderr)
        for place in awaiting(task.get_coro()):
            print(f"  awaiting at {place}", file=sys.stderr)
        closing += [loop.create_task(ws.close()) for ws in playing[task].players]
        task.cancel()
    if cut_off:
        await asyncio.wait({*cut_off, *closing}, timeout=10)
    elapsed = loop.time() - t0
    stop_sampling.set()
    await sampler  # its last sample: the end
    generator = probe.stop()
    held = sum(1 for ws in conns if ws.state.name == "OPEN")
    await asyncio.gather(*(ws.close() for ws in conns), return_exceptions=True)
    window = 300.0 if p["duration"] >= 1500 else p["duration"] / 5
    first, n_first = window_p99(stats, 0, window)
    last, n_last = window_p99(stats, elapsed - window, elapsed + 1)
    return {
        "connections": len(conns),
        "connections_held": held,
        "connect_seconds": round(connect_s, 2),
        "connections_answered_503_then_again": busy,
        "tables": len(tables),
        "run_s": round(elapsed, 1),
        "games_finished": stats.games,
        "games_stalled": stats.stalled,
        "stalls_first": stats.stalls,
        "moves_acked": stats.moves,
        "refused": stats.errors,
        "refused_first_said": stats.said,
        "tables_cut_off": len(cut_off),
        "latency_window_s": window,
        "p99_first_ms": first,
        "p99_first_samples": n_first,
        "p99_last_ms": last,
        "p99_last_samples": n_last,
        "p99_all_ms": round(pct(list(stats.lat), 0.99) * 1000, 2) if stats.lat else None,
        "samples": samples,
        "generator": generator,
        "acked": {room: list(v) for room, v in stats.acked.items()},
        "ended": stats.ended,
    }


def run_soak_load(params: dict[str, Any]) -> dict[str, Any]:
    """In a worker process."""
    raise_nofile()
    return asyncio.run(soak_load(params))
