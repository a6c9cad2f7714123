"""Browser fixtures: headless Chromium (Debian's), one browser per worker (``chromium`` in
``tests/conftest.py``) and new contexts per test, closed after it; a guard per context.

Every context opened through :func:`open_tab` fails the test on a request that leaves
127.0.0.1, on a console error or an uncaught page error. Screenshots go to one temp dir for
the whole run; its path is printed in the terminal summary.

The tests here run on the worker's session event loop (``tests/conftest.py`` marks them), the
loop the shared browser lives on: an async fixture of theirs that starts a server must be on
it too, ``@pytest_asyncio.fixture(loop_scope="session")`` (as ``server`` below), so that the
server is started and stopped on its test's loop.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser

from server.engine import Registry
from server.net.app import KibitzServer

from ..conftest import Chromium, serving, within

_SHOTS: list[Path] = []


@pytest_asyncio.fixture(loop_scope="session")
async def server(redis_url: str, prefix: str, registry: Registry) -> AsyncIterator[KibitzServer]:
    """The server of the browser tests: the same as everywhere, but it sheds load only past
    5 s of loop lag, not 0.5 s. It shares its loop with the test (and the machine with
    Chromium), and a screenshot or a busy CI box must not turn a tab's connection into a
    503: shedding is tested in ``tests/net/test_limits.py``."""
    async with serving(redis_url, prefix, registry, lag_limit=5.0) as srv:
        yield srv


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory the web tests save their screenshots in (printed at the end)."""
    path = tmp_path_factory.mktemp("web-screenshots")
    _SHOTS.append(path)
    return path


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for path in _SHOTS:
        files = sorted(p.name for p in path.glob("*.png"))
        if files:
            terminalreporter.write_line(f"web screenshots ({len(files)}): {path}")


@pytest_asyncio.fixture(loop_scope="session")
async def browser(chromium: Chromium) -> AsyncIterator[Browser]:
    """The worker's shared Chromium, with no context open; every context the test opened
    (its tabs) is closed after it, passed or failed. A browser that cannot close them in
    10 s is discarded, and the next test launches a new one."""
    b = await chromium.browser()
    try:
        yield b
    finally:

        async def close_contexts() -> None:
            for context in list(b.contexts):
                await context.close()

        try:
            closed = await within(close_contexts(), 10, "closing the test's browser contexts")
        except Exception:
            closed = False
        if not closed:
            await chromium.discard()
