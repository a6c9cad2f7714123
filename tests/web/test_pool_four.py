"""Quick pairing for four in the browser: the lobby offers Yonin Shogi's pool (tables of four);
three guests who click 3+2 wait, the fourth fills the table, and all four land in one room,
each in a seat of its own."""

from __future__ import annotations

import asyncio

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab

POOL = "yonin_shogi:180+2/4"


async def test_four_guests_meet_in_the_yonin_shogi_pool(
    browser: Browser, server: KibitzServer
) -> None:
    tabs = [await Tab.open(browser, server.url, name) for name in ("Ann", "Ben", "Cat", "Dan")]
    for tab in tabs:
        await tab.page.select_option("#quick-game", "yonin_shogi")
        assert await tab.page.inner_text("#play-h") == "Play Yonin Shogi now, 4 players"
    for tab in tabs[:3]:
        await tab.page.click(f"[data-pool='{POOL}']")
        await tab.page.wait_for_selector(f"[data-pool='{POOL}'][aria-pressed=true]")
    await asyncio.sleep(1.5)  # three rounds of pairing: three are no table
    for tab in tabs[:3]:
        assert "#room=" not in tab.page.url
    await tabs[3].page.click(f"[data-pool='{POOL}']")
    rooms, seats = set(), []
    for tab in tabs:
        await tab.page.wait_for_url("**/#room=*", timeout=15000)
        await tab.wait_room()
        latest = await tab.latest()
        assert latest["game"] == "yonin_shogi" and len(latest["seats"]) == 4
        rooms.add(latest["room"])
        seats.append(latest["you"])
    assert len(rooms) == 1 and sorted(seats) == [0, 1, 2, 3]
    for tab in tabs:
        tab.assert_clean()
        await tab.close()
