"""A node killed by SIGKILL at each step of archiving (a real process, killed by the kernel
right after the step) loses no game and duplicates none: the next node finishes the job."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest

from server.engine import Registry
from server.sdk import KibitzClient

from ..conftest import ROOT, env_with_path, kibitz_cmd
from ..net.test_seeks import FOOLS_MATE, play
from .helpers import archived_server, assert_somewhere, other_archive, where
from .test_archiving import STEPS


async def start_node(*args: str) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.archive.node", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env_with_path(),
    )
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)
    return proc, json.loads(line)["ws"]


@pytest.mark.parametrize("step", STEPS)
async def test_sigkill_at_each_step_of_archiving(
    redis_url: str, prefix: str, registry: Registry, archive_url: str, step: str
) -> None:
    proc, ws = await start_node(redis_url, prefix, archive_url, step)
    try:
        players = {s: await KibitzClient.connect(ws) for s in (0, 1)}
        room = (await players[0].request("create_room", game="chess", seats=2))["room"]
        for s, c in players.items():
            await c.request("take_seat", room=room, seat=s, name=f"P{s}")
        await play(players, room, FOOLS_MATE)
        await players[0].wait_update(lambda m: m["status"] == "over", room=room)
        before = (await players[0].request("record", room=room))["record"]
        for c in players.values():
            await c.close()
        code = await asyncio.to_thread(proc.wait, 30)  # the sweep after the grace period
        assert code == -9, "the node was not killed at the step"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    archive = await other_archive(archive_url)
    try:
        async with archived_server(redis_url, prefix, registry, archive_url) as srv:
            assert srv.store is not None and srv.archiver is not None and srv.hub is not None
            await assert_somewhere(srv.store, archive, room)
            assert await srv.archiver.archive_one(room)  # the next node's job, done
            assert await srv.archiver.pending() == []
            assert await where(srv.store, archive, room) == (False, True)
            events = await archive.events(room)
            assert events is not None and len(events) == before["version"]
            assert await srv.hub.read(room, "record", {}) == before
            assert await srv.archiver.sweep(everything=True) == 0
    finally:
        await archive.close()


@pytest.mark.parametrize(
    ("where_to", "says"),
    [
        ("mysql://db/kibitz", "--archive must be"),
        ("postgresql://kibitz@127.0.0.1:1/x", "cannot reach"),
    ],
)
async def test_serve_refuses_an_archive_it_cannot_use(
    redis_url: str, prefix: str, where_to: str, says: str
) -> None:
    proc = await asyncio.to_thread(
        subprocess.run,
        kibitz_cmd(
            "serve",
            "--port",
            "0",
            "--redis",
            redis_url,
            "--prefix",
            prefix,
            "--bot-workers",
            "0",
            "--archive",
            where_to,
        ),
        capture_output=True,
        text=True,
        env=env_with_path(),
        timeout=60,
    )
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr
