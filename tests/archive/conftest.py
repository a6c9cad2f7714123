"""A private PostgreSQL cluster for the archive's tests (initdb + postgres in a temp dir on
a free loopback port, for the whole run), a fresh database per test, and the two archives
(PostgreSQL and the embedded SQLite) as one parametrised fixture.

PostgreSQL refuses to run as root: as root (CI), the cluster belongs to the ``postgres``
user Debian's package creates, and its commands run as that user (``runuser``)."""

from __future__ import annotations

import glob
import os
import shutil
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
    return ["runuser", "-u", "postgres", "--", *cmd] if os.geteuid() == 0 else cmd


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a private PostgreSQL server (its ``postgres`` database), for the run."""
    top = Path(tempfile.mkdtemp(prefix="kibitz-pg-"))
    data = top / "data"
    if os.geteuid() == 0:
        shutil.chown(top, "postgres", "postgres")
    subprocess.run(
        _as_owner([pg_bin("initdb"), "-D", str(data), "-U", "kibitz", "--auth=trust",
                   "-E", "UTF8", "--no-sync"]),
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    port = free_port()
    proc = subprocess.Popen(
        _as_owner([pg_bin("postgres"), "-D", str(data), "-p", str(port), "-k", str(top),
                   "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"]),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"postgresql://kibitz@127.0.0.1:{port}/postgres"
    deadline = time.monotonic() + 30
    while True:
        ready = subprocess.run(
            [pg_bin("pg_isready"), "-h", "127.0.0.1", "-p", str(port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        if ready.returncode == 0:
            break
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise RuntimeError("the private PostgreSQL did not start")
        time.sleep(0.1)
    yield url
    proc.terminate()  # SIGTERM: a smart shutdown, sessions end first
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
    shutil.rmtree(top, ignore_errors=True)


def psql(url: str, sql: str) -> None:
    """Run one statement on ``url`` with psql (fixtures run outside the event loop)."""
    subprocess.run([pg_bin("psql"), url, "-q", "-v", "ON_ERROR_STOP=1", "-c", sql],
                   check=True, stdout=subprocess.DEVNULL)  # fmt: skip


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
