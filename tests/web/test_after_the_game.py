"""After the game (issue 48, item 7): every finished game downloads its record in its game's
format (a Kono record here; chess keeps its PGN), the lobby's "Your games" says won, lost or
the place, with the date, newest first, and a player's game log says the game began."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab


async def resign(tab: Tab) -> None:
    await tab.page.click("#resign")
    await tab.page.click("#resign-yes")
    await tab.wait_over()


async def test_a_kono_record_downloads_and_your_games_say_how_it_went(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    page = ada.page
    first = await ada.create_room("kono", seats=["me", "bot:random"])
    await ada.wait_to_act()
    # a player who was there from the start is not told they "came in during the game"
    move = (await ada.legal())[0]
    await ada.play_listed(move)
    await page.wait_for_function("() => window.kibitz.latest().turn >= 2")
    assert await page.locator("#download-record").is_hidden()  # not before the end
    await resign(ada)
    link = page.locator("#download-record")
    await link.wait_for(state="visible")
    assert await page.locator("#download-pgn").is_hidden()
    async with page.expect_download() as info:
        await link.click()
    download = await info.value
    assert download.suggested_filename == f"kibitz-{first}.json"
    record = json.loads(Path(await download.path()).read_text())
    assert record["game"] == "kono" and record["room"] == first
    assert list(record["moves"][0]["moves"].values()) == [move]
    assert record["outcome"]["reason"] == "resignation"
    await ada.screenshot(shots, "after-kono-record", full_page=False)

    # a second game, left running: newest first in "Your games", the first one "lost"
    second = await ada.create_room("kono", seats=["me", "bot:random"])
    await ada.wait_to_act()
    await page.click("#to-lobby")
    cards = page.locator(".my-rooms li.room-card")
    await page.wait_for_function(
        "() => document.querySelectorAll('.my-rooms li.room-card').length === 2"
    )
    rooms = await cards.evaluate_all("els => els.map((el) => el.dataset.room)")
    assert rooms == [second, first]
    lost = page.locator(f".my-rooms li[data-room='{first}'] .badge")
    assert (await lost.inner_text()) == "lost"
    assert await page.locator(f".my-rooms li[data-room='{first}'] time").count() == 1
    await ada.screenshot(shots, "after-your-games", full_page=False)
    ada.assert_clean()
    await ada.close()
