"""The profile's rating chart in Chromium: every rating change of a player, from the games
still in Redis and those in the archive, one point per game, at a phone's and a desktop's
width."""

from __future__ import annotations

import asyncio
from pathlib import Path

from playwright.async_api import Browser

from server.engine import Registry

from ..net.test_seeks import FOOLS_MATE, user
from ..web.conftest import browser, shots
from ..web.tabs import Tab
from .helpers import archived_server
from .test_http import SCHOLARS_MATE, rated_game

__all__ = ["browser", "shots"]  # the browser tests' fixtures, used here


async def test_the_rating_chart_shows_every_change_from_redis_and_the_archive(
    browser: Browser,
    redis_url: str,
    prefix: str,
    registry: Registry,
    tmp_path: Path,
    shots: Path,
) -> None:
    archive = f"sqlite:{tmp_path / 'archive.sqlite3'}"
    async with archived_server(redis_url, prefix, registry, archive, lag_limit=5.0) as srv:
        assert srv.archiver is not None
        ada, bob = await user(srv, "Ada"), await user(srv, "Bob")
        rooms = []
        for moves in (FOOLS_MATE, SCHOLARS_MATE, FOOLS_MATE, SCHOLARS_MATE):
            rooms.append(await rated_game(ada, bob, moves))
        for _ in range(100):
            if len(await srv.archiver.pending()) == len(rooms):
                break
            await asyncio.sleep(0.05)
        for room in rooms[:2]:  # two in the archive, two still in Redis
            assert await srv.archiver.archive_one(room)
        for width, height in ((1280, 800), (390, 844)):
            tab = await Tab.open(
                browser, srv.url, "Watcher", path="#/@/Ada", width=width, height=height
            )
            chart = tab.page.locator("svg.rating-chart[data-category='chess:blitz']")
            await chart.wait_for()
            assert await chart.get_attribute("data-points") == str(len(rooms))
            points = tab.page.locator("svg.rating-chart circle")
            shown = [await points.nth(i).get_attribute("data-room") for i in range(len(rooms))]
            assert shown == rooms  # oldest first, each game once
            label = await chart.get_attribute("aria-label")
            assert label is not None and "over 4 rated games" in label
            box = await chart.bounding_box()
            assert box is not None and box["width"] <= width  # fits a phone
            await tab.page.screenshot(path=str(shots / f"rating-chart-{width}x{height}.png"))
            assert not tab.errors, tab.errors
            await tab.context.close()
        await ada.close()
        await bob.close()
