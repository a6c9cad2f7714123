"""Redis goes away and comes back: the embedded one is restarted on its AOF by the node, and
after an external one restarts the first requests succeed (reads retried once on a fresh
connection, appends on a reconnected pipe)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.sdk import KibitzClient
from server.store.redis_process import redis_binary

from ..conftest import free_port


def healthz(url: str) -> int:
    try:
        with urllib.request.urlopen(url + "healthz", timeout=2) as resp:
            return int(resp.status)
    except Exception as exc:
        return int(getattr(exc, "code", 0) or 0)


async def seated_game(url: str) -> tuple[KibitzClient, KibitzClient, str]:
    a = await KibitzClient.connect(url)
    b = await KibitzClient.connect(url)
    room = (await a.request("create_room", game="chess"))["room"]
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await b.request("take_seat", room=room, seat=1, name="Bob")
    return a, b, room


async def test_the_embedded_redis_is_restarted_on_its_aof(
    tmp_path: Path, registry: Registry
) -> None:
    cfg = Config(port=0, data_dir=tmp_path / "data", registry=registry, web_dir=None, bot_workers=0)
    async with KibitzServer(cfg) as srv:
        assert srv.embedded is not None and srv.embedded.proc is not None
        a, b, room = await seated_game(srv.ws_url)
        await a.request("move", room=room, move="e2e4")
        os.kill(srv.embedded.proc.pid, signal.SIGKILL)  # Redis dies
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            await asyncio.sleep(0.3)
            if await asyncio.to_thread(healthz, srv.url) == 200:
                break
        assert await asyncio.to_thread(healthz, srv.url) == 200  # restarted, healthy
        for _ in range(50):  # the first commands may meet the restart: retry a moment
            try:
                reply = await b.request("move", room=room, move="e7e5")
                break
            except Exception:
                await asyncio.sleep(0.2)
        assert reply["version"] == 5  # e2e4 survived in the AOF; e7e5 built on it
        record = (await a.request("record", room=room))["record"]
        assert [t["moves"] for t in record["moves"]] == [{"0": "e2e4"}, {"1": "e7e5"}]
        for c in (a, b):
            await c.close()


async def test_after_an_external_redis_restart_the_first_requests_succeed(
    tmp_path: Path, registry: Registry
) -> None:
    port = free_port()
    args = [
        redis_binary(),
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--dir",
        str(tmp_path),
        "--appendonly",
        "yes",
        "--save",
        "",
    ]

    def start() -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                import socket

                with socket.create_connection(("127.0.0.1", port), 0.1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return proc
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis did not start")

    redis_proc = start()
    try:
        cfg = Config(
            port=0,
            redis_url=f"redis://127.0.0.1:{port}/0",
            registry=registry,
            web_dir=None,
            bot_workers=0,
        )
        async with KibitzServer(cfg) as srv:
            a, b, room = await seated_game(srv.ws_url)
            await a.request("move", room=room, move="e2e4")
            for _ in range(3):
                await a.request("list_rooms")  # pooled connections in use
            redis_proc.terminate()  # a clean restart: SIGTERM writes the AOF
            redis_proc.wait(10)
            redis_proc = start()
            # no retries by the client: the very first requests must work
            assert (await a.request("list_rooms"))["total"] == 1
            assert (await b.request("move", room=room, move="e7e5"))["version"] == 5
            for c in (a, b):
                await c.close()
    finally:
        redis_proc.kill()
        redis_proc.wait(10)
