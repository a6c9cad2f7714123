"""The status line under the board says the result once the game ends (issue 48, round 3):
after a resignation it said "White to move" still — the engine's line, which knows nothing
of a resignation."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.async_api import Browser, expect

from server.net.app import KibitzServer

from .tabs import Tab


async def test_after_a_resignation_the_status_line_says_who_resigned_and_who_won(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    for width, height in ((1280, 800), (390, 844)):
        ada = await Tab.open(browser, server.url, "Ada", width=width, height=height)
        page = ada.page
        await ada.create_room("kono", seats=["me", "bot:random"])
        await ada.wait_to_act()
        me, them = await page.evaluate(
            "() => window.kibitz.latest().view.grid.seats.map((s) => s.name)"
        )
        line = page.locator(".grid-status")
        await expect(line).to_have_text(re.compile("to move$"))  # the running game's line
        await page.click("#resign")
        await page.click("#resign-yes")
        await ada.wait_over()
        await expect(line).to_have_text(f"{me} resigned — {them} wins")
        await expect(page.locator("#status")).to_contain_text("wins — resignation")
        await line.scroll_into_view_if_needed()
        await ada.screenshot(shots, f"status-line-resigned-{width}", full_page=False)
        await page.screenshot(path=str(shots / f"status-line-resigned-{width}.png"))
        ada.assert_clean()
        await ada.close()
