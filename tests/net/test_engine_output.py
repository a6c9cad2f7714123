"""What an engine seat's process prints is read in bounded lines
(server/net/services/seats/engines.py's ``EngineProtocol``): an engine that prints without newlines,
or prints without end, is killed at once and loses its game as a crashed one does, and the server
does not grow.

The engines are real processes (a small UCI script each); the server's memory is its peak
resident size (``VmHWM``, reset through ``/proc/self/clear_refs`` before the move), since
the server runs in the test's process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import stat
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.bots.uci import parse_engine
from server.engine import Registry
from server.net.services.seats import engines
from server.sdk import KibitzClient

from ..conftest import serving
from .test_engine_seats import person_vs_engine, play_moves, pool_of

MB = 1024  # VmRSS and VmHWM are in kB
CLOCK = {"clock": {"type": "fischer", "base": 3, "increment": 0}, "first_move": 0}
#: a clock that would keep the game going for an hour: the killed engine must lose at once
LONG_CLOCK = {"clock": {"type": "fischer", "base": 3600, "increment": 0}, "first_move": 0}

#: a UCI engine that says 30 lines on stderr, answers its first ``ANSWERS`` moves (each
#: ``bestmove`` after ``CHATTER`` short ``info`` lines) and then, told ``go`` again, notes
#: the time in ``STARTED`` and prints ``FLOOD`` over and over, ``TOTAL`` bytes, answering
#: nothing
FLOODING_ENGINE = """#!{python}
import os, sys, time
import chess
ANSWERS, CHATTER, FLOOD, TOTAL, STARTED = {answers}, {chatter}, {flood!r}, {total}, {started!r}
board, answered = chess.Board(), 0
sys.stderr.write("warming up\\n" * 30)
sys.stderr.flush()
for line in sys.stdin:
    words = line.split()
    if words == ["uci"]:
        print("id name Floods", "uciok", sep="\\n", flush=True)
    elif words == ["isready"]:
        print("readyok", flush=True)
    elif words[:2] == ["position", "startpos"]:
        board = chess.Board()
        for move in words[3:]:
            board.push_uci(move)
    elif words[:1] == ["go"]:
        if answered == ANSWERS:
            with open(STARTED, "w") as f:
                f.write(repr(time.monotonic()))
            chunk, sent = FLOOD * (65536 // len(FLOOD)), 0
            while sent < TOTAL:
                sent += os.write(1, chunk)
            time.sleep(3600)
        answered += 1
        os.write(1, b"info depth 1 score cp 0\\n" * CHATTER)
        print("bestmove", next(iter(board.legal_moves)).uci(), flush=True)
"""


def flooding_engine(
    tmp_path: Path, *, answers: int, flood: bytes, total: int, chatter: int = 0
) -> tuple[str, Path]:
    """The engine's path, and the file where it notes when its flood began."""
    path, started = tmp_path / "floods.py", tmp_path / "started"
    path.write_text(
        FLOODING_ENGINE.format(
            python=sys.executable,
            answers=answers,
            chatter=chatter,
            flood=flood,
            total=total,
            started=str(started),
        )
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path), started


def memory(field: str) -> int:
    """This process's (the server's) ``VmRSS`` or ``VmHWM``, in kB."""
    status = Path("/proc/self/status").read_text()
    m = re.search(rf"^{field}:\s+(\d+) kB", status, re.M)
    assert m is not None, status
    return int(m[1])


def reset_peak() -> int:
    """Start ``VmHWM`` again from the resident size now (which it returns)."""
    Path("/proc/self/clear_refs").write_text("5")
    return memory("VmHWM")


@contextlib.contextmanager
def exit_of(pid: int) -> Iterator[asyncio.Future[float]]:
    """A future of the moment (``time.monotonic()``) process ``pid`` ends, from its pidfd."""
    loop = asyncio.get_running_loop()
    fd = os.pidfd_open(pid)
    seen: asyncio.Future[float] = loop.create_future()
    loop.add_reader(fd, lambda: seen.done() or seen.set_result(time.monotonic()))
    try:
        yield seen
    finally:
        loop.remove_reader(fd)
        os.close(fd)


async def flood_move(
    me: KibitzClient,
    room: str,
    pool: Any,
    update: dict[str, Any],
    started: Path,
    before: int | None = None,
) -> tuple[float, int, dict[str, Any]]:
    """Play a move the flooding engine must answer: (seconds into its flood when it was
    killed, kB the peak grew by since ``before`` — else since now —, the update that ended
    the game, with ``lost_after``: seconds from the kill, and the engine's ``pid``)."""
    [pid] = pool.pids()
    if before is None:
        before = reset_peak()
    with exit_of(pid) as killed:
        await me.request("move", room=room, move=update["legal"][0])
        killed_at = await asyncio.wait_for(killed, 10)
    grown = memory("VmHWM") - before
    flooding_for = killed_at - float(started.read_text())
    over = await me.wait_update(lambda m: m["status"] == "over", room=room, timeout=15)
    lost_after = time.monotonic() - killed_at
    print(
        f"killed {flooding_for:.3f} s into its flood; peak grew {grown} kB;"
        f" lost {lost_after:.2f} s on"
    )
    return flooding_for, grown, over | {"lost_after": lost_after, "pid": pid}


async def test_an_engine_printing_without_newlines_is_killed_and_loses_on_time(
    redis_url: str,
    prefix: str,
    registry: Registry,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issue 47: such an engine grew the server from 70 to 612 MB in a minute, and its game
    ended only when its clock ran out. Now it is killed as its line passes 64 KiB, and loses
    on time at once, though an hour is left on its clock."""
    path, started = flooding_engine(tmp_path, answers=1, flood=b"x", total=256 << 20)
    specs = [parse_engine(f"floods={path}?levels=@0.1&processes=1")]
    async with serving(redis_url, prefix, registry, engines=specs) as srv:
        pool = pool_of(srv, "floods")
        me = await KibitzClient.connect(srv.ws_url)
        room = await person_vs_engine(me, "floods:1", settings=LONG_CLOCK)
        update = await play_moves(me, room, 1, random.Random(3))  # it answered: clocks run
        flooding_for, grown, over = await flood_move(me, room, pool, update, started)
        pid, lost_after = over["pid"], over["lost_after"]
        await me.close()
    assert flooding_for < 1.0
    assert grown < 50 * MB
    # on time, at once: not when its hour-long clock would have run out
    assert over["outcome"]["reason"] == "timeout" and over["outcome"]["winner"] == 0
    assert lost_after < 5.0
    assert pool.lost == 1 and pid not in pool.pids()
    said = [r.getMessage() for r in caplog.records if "killed:" in r.getMessage()]
    assert (
        len(said) == 1 and f"process {pid}: killed: it printed a line over 65536 bytes" in said[0]
    )


async def test_without_the_bounds_the_same_check_sees_the_server_grow(
    redis_url: str,
    prefix: str,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The broken twin of the test above: with no bound on a line or on a move's output,
    the same engine is not killed and the server holds all it prints (96 MB here; the
    flood is bounded so that the twin stays cheap)."""
    monkeypatch.setattr(engines, "LINE_LIMIT", 1 << 40)
    monkeypatch.setattr(engines, "MOVE_OUTPUT_BYTES", 1 << 40)
    path, _ = flooding_engine(tmp_path, answers=0, flood=b"x", total=96 << 20)
    specs = [parse_engine(f"floods={path}?levels=@0.1&processes=1")]
    async with serving(redis_url, prefix, registry, engines=specs) as srv:
        pool = pool_of(srv, "floods")
        me = await KibitzClient.connect(srv.ws_url)
        room = await person_vs_engine(me, "floods:1", settings=CLOCK)
        [pid] = pool.pids()
        before = reset_peak()
        with exit_of(pid) as killed:
            await me.request("move", room=room, move="e2e4")
            deadline = time.monotonic() + 10
            while memory("VmHWM") - before < 50 * MB and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            grown = memory("VmHWM") - before
            assert not killed.done()
        await me.close()
    print(f"not killed; peak grew {grown} kB")
    assert grown >= 50 * MB


async def test_an_engine_printing_lines_without_end_is_killed_and_resigns(
    redis_url: str,
    prefix: str,
    registry: Registry,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Short lines: what an engine prints while it thinks is not kept (9,000 ``info`` lines
    before its first move cost nothing), and one that prints more than a move's worth
    (10,000 lines) is killed, as the no-newline one is. Here the clocks do not run yet,
    so it resigns at once."""
    flood = b"info depth 1 seldepth 1 score cp 0 nodes 1 pv e2e4\n"
    path, started = flooding_engine(
        tmp_path, answers=1, flood=flood, total=256 << 20, chatter=9_000
    )
    specs = [parse_engine(f"floods={path}?levels=@0.1&processes=1")]
    async with serving(redis_url, prefix, registry, engines=specs) as srv:
        pool = pool_of(srv, "floods")
        me = await KibitzClient.connect(srv.ws_url)
        room = await person_vs_engine(me, "floods:1")
        [pid] = pool.pids()
        before = reset_peak()
        update = await play_moves(me, room, 1, random.Random(3))  # 9,000 lines, then its move
        assert update["status"] == "playing"
        flooding_for, grown, over = await flood_move(me, room, pool, update, started, before)
        await me.close()
    assert flooding_for < 1.0
    assert grown < 50 * MB
    assert over["outcome"]["reason"] == "resignation" and over["outcome"]["winner"] == 0
    assert pool.lost == 1
    said = [r.getMessage() for r in caplog.records if "killed:" in r.getMessage()]
    assert len(said) == 1 and "over 10000 lines in one move" in said[0], said
    # and of its 30 lines on stderr, 20 are logged and then one line says so
    stderr = [r.getMessage() for r in caplog.records if "stderr" in r.getMessage()]
    assert stderr == 20 * [f"<EngineProtocol (pid={pid})>: stderr >> warming up"] + [
        f"<EngineProtocol (pid={pid})>: stderr: more lines, not logged"
    ]
