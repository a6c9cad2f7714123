"""Red team: replay the floods of the hardening findings against a real server and show that
its memory stays bounded and an idle player is still served quickly meanwhile.

    python -m server.tools.redteam [--seconds 20] [--scale 1.0] [--json]

Starts a redis-server and ``kibitz serve`` (its own processes, on 127.0.0.1), then, all at
once for ``--seconds``:

* **silent sockets** — connections that never say ``hello`` (closed after 5 s; the address
  cap refuses the rest: 429);
* **hello flood** — one connection saying ``hello`` as fast as it may (no session stored);
* **room flood** — connections creating rooms as fast as they may (a quota per address);
* **lobby reader that never reads** — a connection asking ``list_rooms`` (pages of at most 200)
  without reading the answers (cut when its unread output passes the send buffer);
* **paced flood** — connections sending ``ping`` a little over the rate (closed: refusals are
  counted in a window, not only in a row);
* **idle probe** — a player who pings once every 50 ms: its round-trip p50/p99.

Reported: the server's RSS before, at its peak and after; how each flood ended; the probe's
latency. The CI runs a short form (``tests/redteam``) that asserts the bounds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .bench_common import (
    HOST,
    _start_redis,
    _wait_port,
    free_port,
    pct,
    raise_nofile,
    rss_mb,
    stop_all,
)

HELLO = json.dumps({"type": "hello", "protocol": 2})


async def _open(url: str) -> Any:
    from websockets.asyncio.client import connect

    return await connect(url, compression=None, max_size=None, open_timeout=10)


async def silent(url: str, n: int, out: dict[str, Any]) -> None:
    """Connections that never say hello."""
    opened, refused, closed = 0, 0, 0
    conns = []
    for _ in range(n):
        try:
            conns.append(await _open(url))
            opened += 1
        except Exception:
            refused += 1
    for ws in conns:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.wait_closed(), 10)
            closed += 1
    out["silent"] = {"opened": opened, "refused": refused, "closed_by_server": closed}


async def hello_flood(url: str, until: float, out: dict[str, Any]) -> None:
    ws = await _open(url)
    sent = 0
    with contextlib.suppress(Exception):
        while time.monotonic() < until and sent < 5000:
            await ws.send(HELLO)
            await ws.recv()
            sent += 1
    out["hello_flood"] = {"hellos": sent}
    with contextlib.suppress(Exception):
        await ws.close()


async def room_flood(url: str, until: float, out: dict[str, Any], conns: int = 5) -> None:
    made, refused = 0, 0

    async def one() -> None:
        nonlocal made, refused
        ws = await _open(url)
        await ws.send(HELLO)
        await ws.recv()
        with contextlib.suppress(Exception):
            while time.monotonic() < until:
                await ws.send(json.dumps({"type": "create_room", "game": "chess"}))
                reply = json.loads(await ws.recv())
                if reply.get("type") == "room_created":
                    made += 1
                else:
                    refused += 1
                    await asyncio.sleep(0.05)
        with contextlib.suppress(Exception):
            await ws.close()

    await asyncio.gather(*(one() for _ in range(conns)))
    out["room_flood"] = {"rooms_made": made, "refused": refused}


async def lazy_reader(url: str, until: float, out: dict[str, Any]) -> None:
    ws = await _open(url)
    await ws.send(HELLO)
    await ws.recv()
    for _ in range(120):  # a lobby worth reading: pages of up to 200 rooms
        await ws.send(json.dumps({"type": "create_room", "game": "chess"}))
        await ws.recv()
    ws.transport.pause_reading()  # never reads again
    sent = 0
    cut = False
    try:
        while time.monotonic() < until and sent < 2000:
            await ws.send(json.dumps({"type": "list_rooms", "limit": 200}))
            sent += 1
            await asyncio.sleep(0.005)
    except Exception:
        cut = True
    if not cut:  # read again: a connection the server cut answers no more
        ws.transport.resume_reading()
        try:
            async with asyncio.timeout(3):
                await ws.send('{"type":"ping","id":"last"}')
                while json.loads(await ws.recv()).get("id") != "last":
                    pass
        except Exception:
            cut = True
    out["lazy_reader"] = {"requests": sent, "cut_by_server": cut}
    ws.transport.abort()


async def paced_flood(url: str, until: float, out: dict[str, Any], conns: int = 5) -> None:
    closed = 0

    async def one() -> None:
        nonlocal closed
        ws = await _open(url)
        await ws.send(HELLO)
        await ws.recv()

        async def drain() -> None:  # reads like any client, so it sees the close
            with contextlib.suppress(Exception):
                async for _ in ws:
                    pass

        reader = asyncio.ensure_future(drain())
        try:
            while time.monotonic() < until:
                await ws.send('{"type":"ping"}')
                await asyncio.sleep(0.01)  # ~100/s against 20/s: a few refusals at a time
        except Exception:
            closed += 1
        reader.cancel()

    await asyncio.gather(*(one() for _ in range(conns)), return_exceptions=True)
    out["paced_flood"] = {"connections": conns, "closed_by_server": closed}


async def probe(url: str, until: float, out: dict[str, Any]) -> None:
    ws = await _open(url)
    await ws.send(HELLO)
    await ws.recv()
    rtts = []
    while time.monotonic() < until:
        t0 = time.perf_counter()
        await ws.send('{"type":"ping","id":1}')
        while json.loads(await ws.recv()).get("type") != "pong":
            pass
        rtts.append(time.perf_counter() - t0)
        await asyncio.sleep(0.05)
    await ws.close()
    out["probe"] = {
        "pings": len(rtts),
        "p50_ms": round(pct(rtts, 0.5) * 1000, 2),
        "p99_ms": round(pct(rtts, 0.99) * 1000, 2),
    }


def run(seconds: float = 20.0, scale: float = 1.0) -> dict[str, Any]:
    raise_nofile()
    tmp = Path(tempfile.mkdtemp(prefix="kibitz-redteam-"))
    port = free_port()
    procs: list[subprocess.Popen[bytes]] = []
    try:
        redis_url = _start_redis(tmp, procs, persist=False)
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server",
                "serve",
                "--port",
                str(port),
                "--redis",
                redis_url,
                "--bot-workers",
                "0",
                "--max-per-ip",
                "300",
                "--rooms-per-minute",
                "200",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        procs.append(server)
        _wait_port(port)
        url = f"ws://{HOST}:{port}/ws"
        report: dict[str, Any] = {"seconds": seconds, "rss_mb_before": round(rss_mb(server.pid), 1)}
        peak = [report["rss_mb_before"]]

        async def attack() -> None:
            until = time.monotonic() + seconds

            async def watch_rss() -> None:
                while time.monotonic() < until:
                    peak.append(rss_mb(server.pid))
                    await asyncio.sleep(0.25)

            await asyncio.gather(
                watch_rss(),
                probe(url, until, report),
                silent(url, int(400 * scale), report),
                hello_flood(url, until, report),
                room_flood(url, until, report),
                lazy_reader(url, until, report),
                paced_flood(url, until, report),
            )

        asyncio.run(attack())
        time.sleep(1)
        report["rss_mb_peak"] = round(max(peak), 1)
        report["rss_mb_after"] = round(rss_mb(server.pid), 1)
        report["server_alive"] = server.poll() is None
        import redis

        r = redis.Redis.from_url(redis_url)
        report["redis_keys"] = {
            "sessions": len(r.keys("kibitz:session:*")),
            "rooms": len(r.keys("kibitz:room:*")),
        }
        r.close()
        return report
    finally:
        stop_all(procs, tmp)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m server.tools.redteam",
        description=(__doc__ or "").split("\n\n")[0],
    )
    p.add_argument("--seconds", type=float, default=20.0, help="length of the attack (20)")
    p.add_argument("--scale", type=float, default=1.0, help="silent sockets x400 (1.0)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    report = run(args.seconds, args.scale)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for key, value in report.items():
            print(f"{key:>16}: {value}")
    return 0 if report["server_alive"] else 1


if __name__ == "__main__":
    sys.exit(main())
