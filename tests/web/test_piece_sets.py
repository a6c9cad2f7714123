"""Piece sets (issue 48, item 4): XiangQi's Chinese characters or Western letters, Jungle's
letters with their ranks or Dou Shou Qi's characters, the choice kept per game; Kono's stones
on the points."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab

PHONE_W, PHONE_H = 390, 844

GLYPH = "sq => document.querySelector(`svg.board [data-on='${sq}'] text.glyph`)"


async def glyph(tab: Tab, square: str) -> str:
    return str(await tab.page.evaluate(f"sq => ({GLYPH})(sq).textContent", square))


async def until_glyph(tab: Tab, square: str, text: str) -> None:
    await tab.page.wait_for_function(
        f"([sq, text]) => ({GLYPH})(sq).textContent === text", arg=[square, text]
    )


async def test_xiangqi_western_letters_and_jungle_ranks_kept_per_game(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    page = ada.page
    await ada.create_room("xiangqi", seats=["me", "me"])
    await ada.wait_to_act()
    assert await glyph(ada, "a1") == "俥"  # Red's chariot, as the game draws it
    toggle = page.locator("#pieces-toggle")
    assert await toggle.inner_text() == "Pieces: Chinese"
    await toggle.click()
    await until_glyph(ada, "a1", "R")
    assert await glyph(ada, "e1") == "K" and await glyph(ada, "b3") == "C"
    assert await toggle.inner_text() == "Pieces: Western"
    await ada.screenshot(shots, "pieces-xiangqi-western", full_page=False)
    # Jungle: a letter and the rank, and its own choice (XiangQi's is not Jungle's)
    await ada.create_room("jungle", seats=["me", "me"])
    await ada.wait_to_act()
    assert await glyph(ada, "g1") == "L7"  # the Lion, rank 7
    assert await page.locator("#pieces-toggle").inner_text() == "Pieces: Letters and ranks"
    await page.click("#pieces-toggle")
    await until_glyph(ada, "g1", "獅")
    await ada.screenshot(shots, "pieces-jungle-chinese", full_page=False)
    # XiangQi again: Western, as chosen
    await ada.create_room("xiangqi", seats=["me", "me"])
    await ada.wait_to_act()
    assert await glyph(ada, "a1") == "R"
    ada.assert_clean()
    await ada.close()
    phone = await Tab.open(browser, server.url, "Bea", width=PHONE_W, height=PHONE_H)
    await phone.create_room("jungle", seats=["me", "me"])
    await phone.wait_to_act()
    await phone.screenshot(shots, "pieces-jungle-phone", full_page=False)
    phone.assert_clean()
    await phone.close()
