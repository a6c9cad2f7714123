"""What the benchmarks share: loopback processes (Redis, Kibitz nodes), ports, /proc."""

from __future__ import annotations

import concurrent.futures
import contextlib
import re
import resource
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ..store.redis_process import redis_binary

HOST = "127.0.0.1"


class InFlight:
    """Messages sent and not yet seen by all their receivers: a move's latency is the time
    until the last of its table's connections has it (``key``: the room's version, or the
    raw anchor's counter)."""

    def __init__(self) -> None:
        self._waiting: dict[int, tuple[float, int]] = {}

    def sent(self, key: int, at: float, receivers: int) -> None:
        self._waiting[key] = (at, receivers)

    def seen(self, key: int) -> float | None:
        """One receiver has ``key``: when it was sent if that was the last of them."""
        entry = self._waiting.get(key)
        if entry is None:
            return None
        at, left = entry
        if left > 1:
            self._waiting[key] = (at, left - 1)
            return None
        del self._waiting[key]
        return at

    def clear(self) -> None:
        self._waiting.clear()


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


def _wait_port(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {HOST}:{port}")


def _start_redis(tmp: Path, procs: list[subprocess.Popen[bytes]], *, persist: bool = True) -> str:
    """A private redis-server in ``tmp`` (appended to ``procs``), once it listens: its URL.
    ``persist``: an append-only file synced every second, as a deployment keeps one."""
    redis_port = free_port()
    procs.append(
        subprocess.Popen(
            [
                redis_binary(),
                "--port",
                str(redis_port),
                "--bind",
                HOST,
                "--dir",
                str(tmp),
                "--appendonly",
                "yes" if persist else "no",
                "--appendfsync",
                "everysec",
                "--save",
                "",
                "--maxclients",
                "20000",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    )
    _wait_port(redis_port)
    return f"redis://{HOST}:{redis_port}/0"


def _start_node(
    redis_url: str,
    node: str,
    procs: list[subprocess.Popen[bytes]],
    *extra: str,
    stdout: bool = False,
    log: Path | None = None,
) -> tuple[subprocess.Popen[bytes], int]:
    """Start a node; its log (stderr) goes to ``log`` when given."""
    port = free_port()
    err = open(log, "ab") if log is not None else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server",
            "serve",
            "--port",
            str(port),
            "--redis",
            redis_url,
            "--node-id",
            node,
            "--bot-workers",
            "0",
            "--max-per-ip",
            "20000",
            "--rooms-per-minute",
            "100000",
            "--msg-rate",
            "100000",
            "--msg-burst",
            "100000",
            *extra,
        ],
        stdout=subprocess.PIPE if stdout else subprocess.DEVNULL,
        stderr=err,
    )
    if log is not None:
        err.close()  # type: ignore[union-attr]  # the child has its own copy
    procs.append(proc)
    return proc, port


def _progress(label: str, seconds: float, future: concurrent.futures.Future[Any]) -> None:
    """A progress bar on stderr (a terminal's) until ``future`` is done, then the time."""
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


def log_warnings(tmp: Path, limit: int = 8) -> list[str]:
    """The distinct warnings and errors in the node logs under ``tmp`` (first ``limit``),
    their times and room ids left out so that repeats count once."""
    seen: dict[str, int] = {}
    for path in sorted(tmp.glob("node-*.log")):
        for line in path.read_text(errors="replace").splitlines():
            if " WARNING " in line or " ERROR " in line:
                key = re.sub(r"\b[0-9a-f]{6,}\b|\d+(\.\d+)?", "#", line.split(" ", 2)[-1])
                seen[key] = seen.get(key, 0) + 1
    return [f"{n}x {text}" for text, n in list(seen.items())[:limit]]


def stop_all(procs: list[subprocess.Popen[bytes]], tmp: Path | str) -> None:
    """Kill whatever of ``procs`` still runs and remove the scratch folder ``tmp``."""
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    shutil.rmtree(tmp, ignore_errors=True)
