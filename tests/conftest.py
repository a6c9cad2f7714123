"""Shared fixtures: a real redis-server for the whole run, servers on free ports, clients."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
import warnings
from collections.abc import AsyncIterator, Awaitable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Playwright, async_playwright

from server.engine import REGISTRY, Registry
from server.net.app import Config, KibitzServer
from server.store.redis_process import redis_binary

from .rps import RockPaperScissors

ROOT = Path(__file__).resolve().parent.parent


#: the files whose tests take tens of seconds each (a browser, a soak, a bench, a Redis
#: Cluster): run first, so that the two workers end together rather than one finishing a
#: long browser game while the other waits (each file's tests keep their order)
LONG_FIRST = (
    "tests/web/",
    "tests/test_soak.py",
    "tests/test_bench.py",
    "tests/net/test_redis_cluster.py",
)


#: the asyncio mark of the browser tests: they run on the worker's one session loop, the
#: loop its one Chromium (:func:`chromium`) lives on
ON_THE_SESSION_LOOP = pytest.mark.asyncio(loop_scope="session")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def long_first(item: pytest.Item) -> int:
        path = item.path.relative_to(ROOT).as_posix()
        return 0 if path.startswith(LONG_FIRST) else 1

    items.sort(key=long_first)
    for item in items:
        web = item.path.relative_to(ROOT).as_posix().startswith("tests/web/")
        uses_browser = "browser" in getattr(item, "fixturenames", ())
        if (web or uses_browser) and item.get_closest_marker("asyncio"):
            item.add_marker(ON_THE_SESSION_LOOP, append=False)  # before auto mode's own mark


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_redis(binary: str, data: Path) -> Iterator[str]:
    """``binary`` (a redis-server or valkey-server) on a free loopback port, AOF in ``data``;
    yields its URL, and stops it after."""
    port = free_port()
    args = f"--port {port} --bind 127.0.0.1 --dir {data} --appendonly yes --daemonize no"
    proc = subprocess.Popen(
        [binary, *args.split(), "--save", ""],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    break
        except OSError:
            time.sleep(0.05)
    else:
        proc.kill()
        raise RuntimeError("redis-server did not start")
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server (the system's; ``scripts/test.sh`` installs it) on a free
    loopback port in a temp dir, for the whole test run."""
    with running_redis(redis_binary(), tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def prefix() -> str:
    """A key prefix of its own for each test, so tests sharing one Redis never meet."""
    return f"t{uuid.uuid4().hex[:10]}:"


@pytest.fixture(scope="session")
def registry() -> Registry:
    """The real games plus the test-only rock-paper-scissors."""
    reg = Registry()
    for game in REGISTRY:
        reg.add(game)
    reg.add(RockPaperScissors())
    return reg


@contextlib.asynccontextmanager
async def serving(
    redis_url: str, prefix: str, registry: Registry, **config: Any
) -> AsyncIterator[KibitzServer]:
    """A started test server (``config``: more :class:`Config` fields), stopped after."""
    srv = KibitzServer(
        Config(
            port=0,
            redis_url=redis_url,
            prefix=prefix,
            registry=registry,
            web_dir=ROOT / "web",
            **config,
        )
    )
    await srv.start()
    try:
        yield srv
    finally:
        await within(srv.stop(), STOP_SECONDS, "stopping the server")


def node_config(redis_url: str, prefix: str, registry: Registry, node: str, **more: Any) -> Config:
    """A node of a cluster on the test's Redis and key prefix: leases of 1 s, no bot workers
    (``more``: other :class:`Config` fields, or these overridden)."""
    fields: dict[str, Any] = {"port": 0, "node_id": node, "lease_ms": 1000, "bot_workers": 0}
    return Config(redis_url=redis_url, prefix=prefix, registry=registry, **(fields | more))


@contextlib.asynccontextmanager
async def two_nodes(
    redis_url: str, prefix: str, registry: Registry, **more: Any
) -> AsyncIterator[tuple[KibitzServer, KibitzServer]]:
    """Two started nodes, ``n1`` and ``n2``, of one cluster (:func:`node_config`)."""
    async with (
        KibitzServer(node_config(redis_url, prefix, registry, "n1", **more)) as n1,
        KibitzServer(node_config(redis_url, prefix, registry, "n2", **more)) as n2,
    ):
        yield n1, n2


@pytest.fixture
async def server(redis_url: str, prefix: str, registry: Registry) -> AsyncIterator[KibitzServer]:
    async with serving(redis_url, prefix, registry) as srv:
        yield srv


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Chromium:
    """The worker's one headless Chromium (Debian's), launched on first use; relaunched if
    it died (a crashed or killed browser must not fail every test after it)."""

    def __init__(self, pw: Playwright) -> None:
        self.pw = pw
        self._browser: Browser | None = None

    async def browser(self) -> Browser:
        if self._browser is None or not self._browser.is_connected():
            self._browser = await self.pw.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
        return self._browser

    async def discard(self) -> None:
        """Close the browser (it misbehaved): the next test gets a new one. A browser that
        does not close in time is left to die with the driver (a wedged Chromium once held
        a worker's last teardown for ten minutes: the session's timeout does not cover it)."""
        browser, self._browser = self._browser, None
        if browser is not None:
            with contextlib.suppress(Exception):
                await within(browser.close(), CLOSE_SECONDS, "closing Chromium")


#: how long closing the browser, then the Playwright driver, may take at the session's end
CLOSE_SECONDS = 20
#: how long a test server's ``stop`` may take (its own steps are bounded by less)
STOP_SECONDS = 30


async def within(step: Awaitable[Any], seconds: float, what: str) -> bool:
    """Await a teardown ``step`` for up to ``seconds``. Past that it is cancelled and left
    (``asyncio.wait_for`` would wait for the cancellation to end, and a step that ignores
    it would hold the worker until pytest-timeout fails the test), and a warning names
    the step with every task's stack: what pytest-timeout's thread dump does not show
    when the loop sits idle awaiting something. True if the step ended in time."""
    task = asyncio.ensure_future(step)
    done, _ = await asyncio.wait({task}, timeout=seconds)
    if done:
        task.result()
        return True
    task.cancel()
    stacks = io.StringIO()
    for other in asyncio.all_tasks():
        other.print_stack(file=stacks)
    report = f"{what} did not end in {seconds} s; the loop's tasks:\n{stacks.getvalue()}"
    print(report, file=sys.stderr)
    warnings.warn(report, stacklevel=2)
    return False


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def chromium() -> AsyncIterator[Chromium]:
    """One Chromium per worker, on the session loop, for every browser test (each test
    opens its own contexts in it, and ``browser`` closes them after)."""
    assert shutil.which(CHROMIUM), f"{CHROMIUM} is missing: bash scripts/test.sh installs it"
    pw = await async_playwright().start()
    shared = Chromium(pw)
    try:
        yield shared
    finally:
        await shared.discard()
        with contextlib.suppress(Exception):  # the driver exits with the worker anyway
            await within(pw.stop(), CLOSE_SECONDS, "stopping Playwright")


def kibitz_cmd(*args: str) -> list[str]:
    """The CLI as a subprocess (same interpreter as the tests)."""
    return [sys.executable, "-m", "server", *args]


def env_with_path() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


__all__ = ["ROOT", "env_with_path", "free_port", "kibitz_cmd", "running_redis", "shutil"]
