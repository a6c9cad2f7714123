"""``kibitz serve --workers 2``: two nodes on one port; kill the one hosting a game mid-game,
and the game goes on (on the other worker, then on the restarted one)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

from websockets.exceptions import WebSocketException

from server.sdk import KibitzClient, KibitzError

from ..conftest import env_with_path, kibitz_cmd


def workers_named(node: str) -> list[int]:
    """Pids of live processes whose command line names ``--node-id node``."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z" and b"--node-id" in args and node.encode() in args:
            out.append(int(entry.name))
    return out


async def retry(c_factory: Any, kind: str, timeout: float = 30.0, **fields: Any) -> Any:
    """A request retried on a fresh connection while the room changes hosts."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        client = None
        try:  # connecting may fail too while the dead worker's socket goes away
            client = await c_factory()
            return await client.request(kind, cid=f"{kind}-{fields.get('move')}", **fields)
        except (KibitzError, OSError, TimeoutError, WebSocketException) as exc:
            code = getattr(exc, "code", "closed")
            if code not in ("unavailable", "outcome_unknown", "closed") or loop.time() > deadline:
                raise
            await asyncio.sleep(0.3)
        finally:
            if client is not None:
                await client.close()


async def test_a_killed_worker_hands_its_game_to_the_other(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        kibitz_cmd(
            "serve",
            "--workers",
            "2",
            "--port",
            "0",
            "--data",
            str(tmp_path / "d"),
            "--lease-ms",
            "1000",
            "--bot-workers",
            "0",
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env_with_path(),
    )
    try:
        assert proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 60)
        info = json.loads(line)
        ws, pids = info["ws"], info["workers"]
        assert len(pids) == 2
        a = await KibitzClient.connect(ws)
        b = await KibitzClient.connect(ws)
        room = (await a.request("create_room", game="chess"))["room"]
        host = a.welcome["node"]  # the room lives on the worker that created it
        sa = await a.request("take_seat", room=room, seat=0, name="Ada")
        sb = await b.request("take_seat", room=room, seat=1, name="Bob")
        await a.request("move", room=room, move="f2f3")
        await b.request("move", room=room, move="e7e5")
        victim = pids[int(host.rsplit("/w", 1)[1])]
        os.kill(victim, signal.SIGKILL)  # the hosting worker dies mid-game
        for c in (a, b):
            await c.close()

        def player(session: str) -> Any:
            return lambda: KibitzClient.connect(ws, session=session)

        await retry(player(a.session or ""), "move", room=room, move="g2g4", seat=0)
        await retry(player(b.session or ""), "move", room=room, move="d8h4", seat=1)
        watcher = await KibitzClient.connect(ws)
        record = (await watcher.request("record", room=room))["record"]
        played = [next(iter(t["moves"].values())) for t in record["moves"]]
        assert played == ["f2f3", "e7e5", "g2g4", "d8h4"]  # each move exactly once
        assert record["outcome"]["reason"] == "checkmate"
        assert sa["token"] and sb["token"]
        await watcher.close()
        # the parent started the dead worker again, under its id
        for _ in range(100):
            alive = workers_named(host)
            if [p for p in alive if p != victim]:
                break
            await asyncio.sleep(0.2)
        assert [p for p in alive if p != victim]
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
