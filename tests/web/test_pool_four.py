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


async def test_a_table_size_for_hase_und_igel_is_chosen_and_kept(
    browser: Browser, server: KibitzServer
) -> None:
    """Hase und Igel plays at two to six: the lobby offers the size (Yonin Shogi, at four
    only, and chess offer none); three guests who choose three meet at a table of three, and
    the choice is kept for the game."""
    tabs = [await Tab.open(browser, server.url, name) for name in ("Ann", "Ben", "Cat")]
    first = tabs[0].page
    await first.select_option("#quick-game", "chess")
    assert not await first.is_visible("#quick-seats")
    await first.select_option("#quick-game", "yonin_shogi")
    assert not await first.is_visible("#quick-seats")
    pool = "hase_und_igel:180+2/3"
    for tab in tabs:
        await tab.page.select_option("#quick-game", "hase_und_igel")
        assert await tab.page.is_visible("#quick-seats")
        sizes = await tab.page.locator("#quick-seats option").evaluate_all(
            "os => os.map(o => o.value)"
        )
        assert sizes == ["2", "3", "4", "5", "6"]
        await tab.page.select_option("#quick-seats", "3")
        assert await tab.page.inner_text("#play-h") == "Play Hase und Igel now, 3 players"
        await tab.page.click(f"[data-pool='{pool}']")
    for tab in tabs:
        await tab.page.wait_for_url("**/#room=*", timeout=15000)
        await tab.wait_room()
        latest = await tab.latest()
        assert latest["game"] == "hase_und_igel" and len(latest["seats"]) == 3
    await first.click("#to-lobby")  # a new Play panel reads the choice back
    await first.wait_for_selector("#quick-game option[value='chess']", state="attached")
    await first.select_option("#quick-game", "chess")
    await first.select_option("#quick-game", "hase_und_igel")
    assert await first.input_value("#quick-seats") == "3"  # kept for the game
    for tab in tabs:
        tab.assert_clean()
        await tab.close()
