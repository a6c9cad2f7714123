"""A server process killed with SIGKILL mid-game loses nothing: restart, resume, finish."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from server.sdk import KibitzClient

from ..conftest import env_with_path, kibitz_cmd


class ServerProcess:
    """``kibitz serve`` in a child process; ``url``/``ws`` read from its first stdout line."""

    def __init__(self, args: Sequence[str]) -> None:
        self.args = list(args)
        self.proc: subprocess.Popen[bytes] | None = None
        self.ws = ""
        self.url = ""

    async def start(self) -> None:
        self.proc = subprocess.Popen(
            kibitz_cmd("serve", "--port", "0", *self.args),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env_with_path(),
        )
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(self.proc.stdout.readline), 30)
        info = json.loads(line)
        self.ws, self.url = info["ws"], info["url"]

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def terminate(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(20)

    def ensure_dead(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@contextlib.asynccontextmanager
async def running(args: Sequence[str]) -> AsyncIterator[ServerProcess]:
    proc = ServerProcess(args)
    await proc.start()
    try:
        yield proc
    finally:
        proc.ensure_dead()


async def move(c: KibitzClient, room: str, text: str) -> dict[str, Any]:
    return await c.request("move", room=room, move=text)


async def kill_restart_and_finish(args: Sequence[str]) -> None:
    first = ServerProcess(args)
    await first.start()
    try:
        a = await KibitzClient.connect(first.ws)
        b = await KibitzClient.connect(first.ws)
        room = (await a.request("create_room", game="chess"))["room"]
        await a.request("take_seat", room=room, seat=0, name="Ada")
        await b.request("take_seat", room=room, seat=1, name="Bob")
        await move(a, room, "f2f3")
        acked = await move(b, room, "e7e5")  # acknowledged, then the server dies
        sessions = (a.session, b.session)
        first.kill()
        for c in (a, b):
            await asyncio.wait_for(c.closed.wait(), 10)
    finally:
        first.ensure_dead()

    async with running(args) as second:
        a = await KibitzClient.connect(second.ws, session=sessions[0], since={room: 3})
        b = await KibitzClient.connect(second.ws, session=sessions[1])
        assert a.welcome["resumed"] and a.welcome["rooms"] == [{"room": room, "seats": [0]}]
        caught_up = await a.next_update(room)
        assert caught_up["version"] == acked["version"]
        assert [e["kind"] for e in caught_up["events"]] == ["move", "move"]
        assert caught_up["view"]["last_move"] == "e7e5" and caught_up["to_act"] == [0]
        await move(a, room, "g2g4")
        await move(b, room, "d8h4")
        end = await a.wait_update(lambda m: m["status"] == "over", room=room)
        assert end["outcome"]["winner"] == 1 and end["outcome"]["reason"] == "checkmate"
        record = (await b.request("record", room=room))["record"]
        played = [next(iter(t["moves"].values())) for t in record["moves"]]
        assert played == ["f2f3", "e7e5", "g2g4", "d8h4"]  # nothing lost, nothing doubled
        await a.close()
        await b.close()
        assert second.terminate() == 0


async def test_sigkill_mid_game_with_external_redis(redis_url: str, prefix: str) -> None:
    await kill_restart_and_finish(["--redis", redis_url, "--prefix", prefix])


def redis_pid(data: Path) -> int:
    return int((data / "redis.pid").read_text())


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}").exists() and "Z" not in Path(f"/proc/{pid}/stat").read_text()


async def test_sigkill_with_embedded_redis_adopts_and_then_stops_it(tmp_path: Path) -> None:
    """The default (no --redis): a private redis-server survives Kibitz's SIGKILL, is
    adopted by the next start, and is stopped with a clean exit."""
    data = tmp_path / "data"
    try:
        await kill_restart_and_finish(["--data", str(data)])
        # the clean exit (SIGTERM) stopped the private redis-server and removed its pid file
        assert not (data / "redis.pid").exists()
        assert (data / "appendonlydir").is_dir() or (data / "appendonly.aof").exists()
    finally:
        with contextlib.suppress(FileNotFoundError, ValueError, ProcessLookupError):
            os.kill(redis_pid(data), signal.SIGKILL)


async def test_a_dead_embedded_redis_is_replaced(tmp_path: Path) -> None:
    """A stale pid file and socket (redis gone too) do not stop the next start."""
    data = tmp_path / "data"
    async with running(["--data", str(data)]) as srv:
        c = await KibitzClient.connect(srv.ws)
        room = (await c.request("create_room", game="chess"))["room"]
        await c.close()
        pid = redis_pid(data)
        srv.kill()
        os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.2)
        assert not alive(pid)
    async with running(["--data", str(data)]) as srv:
        c = await KibitzClient.connect(srv.ws)
        rooms = (await c.request("list_rooms"))["rooms"]
        assert room in [r["room"] for r in rooms]  # the AOF kept it
        await c.close()
        assert srv.terminate() == 0


@pytest.mark.parametrize("args", [["--redis", "redis://127.0.0.1:1/0"]])
async def test_unreachable_redis_is_a_readable_error(args: list[str]) -> None:
    proc = subprocess.run(
        kibitz_cmd("serve", "--port", "0", *args),
        capture_output=True,
        env=env_with_path(),
        timeout=60,
    )
    assert proc.returncode != 0
    assert b"Traceback" not in proc.stderr
    assert b"redis" in proc.stderr.lower()
