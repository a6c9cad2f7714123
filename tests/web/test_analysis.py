"""The finished-game page asks for an analysis (issue 52, item 3, its minimal part): the
"Request analysis" button under the game over box, then each player's summary — the
issue's blunder game in a real Chromium against a real server, Redis and Stockfish."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio
from playwright.async_api import Browser

from server.engine import Registry
from server.net.app import KibitzServer
from server.sdk import KibitzClient

from ..conftest import serving
from ..net.analysis_helpers import SCHOLAR, settings
from .tabs import Tab


@pytest_asyncio.fixture(loop_scope="session")
async def analysing_server(
    redis_url: str, prefix: str, registry: Registry
) -> AsyncIterator[KibitzServer]:
    async with serving(redis_url, prefix, registry, lag_limit=5.0, analysis=settings()) as srv:
        yield srv


async def test_a_finished_game_asks_for_its_analysis_and_shows_the_blunder(
    browser: Browser, analysing_server: KibitzServer, shots: Path
) -> None:
    srv = analysing_server
    a, b = await KibitzClient.connect(srv.ws_url), await KibitzClient.connect(srv.ws_url)
    room = (await a.request("create_room", game="chess"))["room"]
    await a.request("take_seat", room=room, seat=0, name="Ada")
    await b.request("take_seat", room=room, seat=1, name="Bob")
    for i, move in enumerate(SCHOLAR):
        await (a, b)[i % 2].request("move", room=room, move=move)
    await a.close()
    await b.close()
    eve = await Tab.open(browser, srv.url, "Eve")
    await eve.goto_room(room, watch=True)
    await eve.wait_over()
    page = eve.page
    button = page.locator("#request-analysis")
    await button.wait_for(state="visible")
    await button.click()
    bob = page.locator("#analysis-summary li[data-seat='1']")
    await bob.wait_for(state="visible", timeout=60_000)
    assert "1 blunder" in await bob.inner_text()
    assert "0 blunders" in await page.locator("#analysis-summary li[data-seat='0']").inner_text()
    assert await button.is_hidden()
    await eve.screenshot(shots, "analysis-summary", full_page=False)
    # a second visitor finds it done, without asking
    other = await Tab.open(browser, srv.url, "Finn")
    await other.goto_room(room, watch=True)
    await other.page.locator("#analysis-summary li[data-seat='1']").wait_for(state="visible")
    assert await other.page.locator("#request-analysis").is_hidden()
    eve.assert_clean()
    other.assert_clean()
    await eve.close()
    await other.close()
