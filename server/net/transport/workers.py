"""``kibitz serve --workers N``: N full nodes on one port, one per core, under one parent.

Python runs one thread of Python at a time, so one node uses one core. With ``--workers N``
the parent starts N ``kibitz serve`` processes on the same host and port (``SO_REUSEPORT``:
the kernel spreads new connections over them), each a full node with its own node id
(``NAME/w0``, ``NAME/w1``, ...), all sharing one Redis — the embedded one, which the parent
starts and owns, or ``--redis``. A room lives on one worker; a client connected to another
worker is served through the nodes' forwarding, as between machines.

The parent supervises: a worker that dies is started again under its id (it takes its rooms
back at once; meanwhile the other workers serve them once its leases lapse); SIGTERM or
SIGINT stops every worker, then the embedded Redis. Workers write their logs to the parent's
standard error.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger("kibitz.workers")


def worker_count(value: str) -> int:
    """``auto`` (the number of cores) or a positive number."""
    if value == "auto":
        return max(1, os.cpu_count() or 1)
    count = int(value)
    if count < 1:
        raise ValueError("--workers is at least 1")
    return count


def free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class Supervisor:
    """Starts, watches and stops the workers (see the module doc)."""

    def __init__(
        self,
        n: int,
        *,
        host: str,
        port: int,
        node: str,
        redis: Sequence[str],
        extra: Sequence[str],
    ) -> None:
        self.n = n
        self.host = host
        self.port = port
        self.node = node
        #: the Redis options every worker gets (``--redis URL`` or ``--redis-cluster URL``)
        self.redis = list(redis)
        self.extra = list(extra)
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * n
        self.restarts = 0
        self.stopping = threading.Event()

    def command(self, i: int) -> list[str]:
        return [
            sys.executable,
            "-m",
            "server",
            "serve",
            "--host",
            self.host,
            "--port",
            str(self.port),
            *self.redis,
            "--node-id",
            f"{self.node}/w{i}",
            "--reuse-port",
            *self.extra,
        ]

    def start_worker(self, i: int, timeout: float = 60.0) -> dict[str, Any]:
        proc = subprocess.Popen(self.command(i), stdout=subprocess.PIPE, stderr=None)
        self.procs[i] = proc
        assert proc.stdout is not None
        deadline = time.monotonic() + timeout
        line = b""
        while time.monotonic() < deadline and proc.poll() is None:
            line = proc.stdout.readline()
            if line.startswith(b"{"):
                return dict(json.loads(line))
        raise RuntimeError(f"worker {i} did not start (exit code {proc.poll()})")

    def start(self) -> dict[str, Any]:
        info: dict[str, Any] = {}
        for i in range(self.n):
            info = self.start_worker(i)
        return {**info, "workers": [p.pid for p in self.procs if p is not None]}

    def watch(self, period: float = 0.5) -> None:
        """Restart dead workers until :meth:`stop` (runs in the calling thread)."""
        while not self.stopping.wait(period):
            for i, proc in enumerate(self.procs):
                if proc is not None and proc.poll() is not None and not self.stopping.is_set():
                    log.warning(
                        "worker %d (pid %d) exited with %s; starting it again",
                        i,
                        proc.pid,
                        proc.returncode,
                    )
                    self.restarts += 1
                    try:
                        self.start_worker(i)
                    except RuntimeError as exc:
                        log.error("%s", exc)

    def stop(self, timeout: float = 20.0) -> None:
        self.stopping.set()
        for proc in self.procs:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for proc in self.procs:
            if proc is None:
                continue
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def serve_workers(args: Any, n: int, passthrough: Sequence[str]) -> int:
    """Run ``n`` workers for ``kibitz serve`` (``args`` are its parsed arguments)."""
    from ...store import EmbeddedRedis

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    embedded = None
    if args.redis_cluster is not None:
        redis = ["--redis-cluster", args.redis_cluster]
    else:
        redis_url = args.redis
        if redis_url is None:
            embedded = EmbeddedRedis(Path(args.data), fsync=args.fsync)
            redis_url = embedded.start()
        redis = ["--redis", redis_url]
    port = args.port or free_port(args.host)
    node = args.node_id or f"{socket.gethostname()}:{port}"
    sup = Supervisor(n, host=args.host, port=port, node=node, redis=redis, extra=passthrough)
    done = threading.Event()

    def on_signal(signum: int, frame: Any) -> None:
        done.set()
        sup.stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        info = sup.start()
        print(json.dumps(info), flush=True)
        log.info("Kibitz is up with %d workers: open %s", n, info.get("url"))
        sup.watch()
    finally:
        sup.stop()
        if embedded is not None:
            embedded.stop()
        log.info("stopped (%d worker restarts)", sup.restarts)
    return 0
