"""Bot workers die with the server, even when it is killed with SIGKILL mid-search: each of
the fork server's workers (:mod:`server.net.transport.processes`) watches the server."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: a stand-in for a server: a pool of one worker that is made to block (in a shell, as in a
#: long search), the worker's pid printed, then the parent waits to be killed
SERVER = """
import concurrent.futures, os, subprocess, sys, time
from server.net.transport.processes import forkserver, worker_pool
marker = sys.argv[2]
if sys.argv[1] == "guarded":
    pool = worker_pool(1, preload=["server.net.transport.processes"])
else:  # the broken twin: the same fork server, no worker initializer
    pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=forkserver([]))
print(pool.submit(os.getpid).result(), flush=True)
search = f"echo $$ > {marker}.new; mv {marker}.new {marker}; exec sleep 60"
pool.submit(subprocess.run, ["sh", "-c", search])
time.sleep(120)
"""


class Process:
    """A process watched through a pidfd: no mistake when its pid is reused (on a busy
    machine a pid comes round again within seconds)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.fd = os.pidfd_open(pid)

    def alive(self) -> bool:
        return not select.select([self.fd], [], [], 0)[0]  # readable once it has ended

    def kill(self) -> None:
        if self.alive():
            signal.pidfd_send_signal(self.fd, signal.SIGKILL)
        os.close(self.fd)


def _until(check: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.05)
    return False


def _parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _kill_server_mid_search(kind: str, tmp_path: Path) -> tuple[Process, Process, Process]:
    """Start the stand-in, wait until its worker blocks, SIGKILL it; (the worker, the fork
    server, the search: the shell's ``sleep``, not a child of the server)."""
    marker = tmp_path / "searching"
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, kind, str(marker)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        worker = Process(int(proc.stdout.readline()))
        fork_server = Process(_parent_of(worker.pid))
        assert _until(marker.exists, 30), "the worker never began its search"
        search = Process(int(marker.read_text()))
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        proc.kill()
        proc.wait(10)
    return worker, fork_server, search


@pytest.mark.parametrize("kind", ["guarded", "broken"])
def test_a_worker_dies_with_a_server_killed_mid_search(kind: str, tmp_path: Path) -> None:
    worker, fork_server, search = _kill_server_mid_search(kind, tmp_path)
    try:
        if kind == "guarded":
            assert _until(lambda: not worker.alive(), 10), "the worker outlived the server"
            assert _until(lambda: not fork_server.alive(), 10), "the fork server lived on"
        else:  # without the watch, a searching worker lives on (and its fork server): caught
            assert not _until(lambda: not worker.alive(), 2), "the twin's worker died"
    finally:
        for process in (worker, fork_server, search):
            process.kill()
