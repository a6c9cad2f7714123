"""A private PostgreSQL cluster for the archive's tests (initdb + postgres in a temp dir on
a free loopback port, for the whole run), a fresh database per test, and the two archives
(PostgreSQL and the embedded SQLite) as one parametrised fixture.

PostgreSQL refuses to run as root: as root (CI), the cluster belongs to the ``postgres``
user Debian's package creates, and its commands run as that user (``setpriv``)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from server.archive import Archive, PostgresArchive, SqliteArchive

from ..conftest import free_port


def pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"no {name}: install Debian's postgresql (scripts/test.sh does)")
    return path


def _as_owner(cmd: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return cmd
    # setpriv execs the command (runuser would fork): the child's pid is the postmaster's
    return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--", *cmd]


class PrivatePostgres:
    """A PostgreSQL cluster of its own in a temp dir, on a free loopback port: started,
    killed (SIGKILL: a crash, recovered from its WAL at the next start) and started again."""

    def __init__(self) -> None:
        self.top = Path(tempfile.mkdtemp(prefix="kibitz-pg-"))
        self.data = self.top / "data"
        if os.geteuid() == 0:
            shutil.chown(self.top, "postgres", "postgres")
        subprocess.run(
            _as_owner(
                [
                    pg_bin("initdb"),
                    "-D",
                    str(self.data),
                    "-U",
                    "kibitz",
                    "--auth=trust",
                    "-E",
                    "UTF8",
                    "--no-sync",
                ]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.port = free_port()
        self.url = f"postgresql://kibitz@127.0.0.1:{self.port}/postgres"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            _as_owner(
                [
                    pg_bin("postgres"),
                    "-D",
                    str(self.data),
                    "-p",
                    str(self.port),
                    "-k",
                    str(self.top),
                    "-c",
                    "listen_addresses=127.0.0.1",
                    "-c",
                    "max_connections=200",
                ]
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            ready = subprocess.run(
                [pg_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if ready.returncode == 0:
                return
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.proc.kill()
                raise RuntimeError("the private PostgreSQL did not start")
            time.sleep(0.1)

    def kill9(self) -> None:
        """SIGKILL the postmaster and each of its processes, by pid (as a crash would)."""
        assert self.proc is not None
        pid = self.proc.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        self.proc.send_signal(signal.SIGKILL)
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(child), signal.SIGKILL)
        self.proc.wait(10)
        for child in children:  # gone before the next start (it checks its shared memory)
            while Path(f"/proc/{child}").exists():
                time.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # SIGTERM: a smart shutdown, sessions end first
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.top, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a private PostgreSQL server (its ``postgres`` database), for the run."""
    pg = PrivatePostgres()
    pg.start()
    yield pg.url
    pg.stop()


def psql(url: str, sql: str) -> None:
    """Run one statement on ``url`` with psql (fixtures run outside the event loop)."""
    subprocess.run(
        [pg_bin("psql"), url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql],
        check=True,
        stdout=subprocess.DEVNULL,
    )


@pytest.fixture
def pg_url(pg_server: str) -> Iterator[str]:
    """A fresh, empty database of its own on the private server, dropped after the test."""
    name = f"t{uuid.uuid4().hex[:12]}"
    psql(pg_server, f"CREATE DATABASE {name}")
    yield pg_server.rsplit("/", 1)[0] + "/" + name
    psql(pg_server, f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(params=["postgresql", "sqlite"])
def archive_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``--archive`` names, for each backend: a fresh PostgreSQL database, or a
    SQLite file of the test's own."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return f"sqlite:{tmp_path / 'kibitz-data' / 'archive.sqlite3'}"


@pytest.fixture
async def archive(archive_url: str) -> AsyncIterator[Archive]:
    """A started archive of each kind."""
    arc: Archive
    if archive_url.startswith("sqlite:"):
        arc = SqliteArchive(archive_url[len("sqlite:") :])
    else:
        arc = PostgresArchive(archive_url)
    await arc.start()
    try:
        yield arc
    finally:
        await arc.close()
