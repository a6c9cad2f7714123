"""The profile lists every finished game (issue 48, round 3): after games against a bot it
said "Recent games (0)" — only paired games were in a player's history. Now each game is
there, newest first, with its result, the opponent, the date and a link to its replay, and
the lists filter by kind (all, rated, casual, against the computer) and by game."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, expect

from server.net.app import KibitzServer

from .tabs import Tab
from .test_accounts import sign_up


async def resign(tab: Tab) -> None:
    await tab.page.click("#resign")
    await tab.page.click("#resign-yes")
    await tab.wait_over()


async def test_the_profile_lists_games_against_a_bot_and_filters_them(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada", width=1280, height=800)
    page = ada.page
    await sign_up(ada, "Ada", "lime-tree-123")
    rooms = []
    for _ in range(3):
        rooms.append(await ada.create_room("kono", seats=["me", "bot:random"]))
        await ada.wait_to_act()
        await resign(ada)
    await page.goto(f"{server.url}#/@/Ada")
    rows = page.locator("#games-list > li")
    await expect(rows).to_have_count(3)
    await expect(page.locator("#games-h")).to_have_text("Games (3)")
    assert await rows.evaluate_all("els => els.map((el) => el.dataset.room)") == rooms[::-1]
    first = page.locator(f"#games-list li[data-room='{rooms[0]}']")
    text = await first.inner_text()
    assert "lost" in text and "vs Random bot (computer)" in text and "Four-field Kono" in text
    assert "casual" in text
    assert await first.locator("time").get_attribute("datetime")
    assert await first.locator("a").get_attribute("href") == f"#room={rooms[0]}"
    assert await page.locator("#games-newer").is_disabled()
    assert await page.locator("#games-older").is_disabled()
    await ada.screenshot(shots, "profile-games-1280", full_page=True)
    await page.screenshot(path=str(shots / "profile-games-1280.png"), full_page=True)

    # the filters: rated (none), against the computer (all three), by game
    await page.select_option("#games-kind", "rated")
    await expect(page.locator("#games-none")).to_be_visible()
    await expect(rows).to_have_count(0)
    await expect(page.locator("#games-h")).to_have_text("Games (0)")
    await page.select_option("#games-kind", "bot")
    await expect(rows).to_have_count(3)
    await page.select_option("#games-game", "chess")
    await expect(rows).to_have_count(0)
    await page.select_option("#games-game", "kono")
    await expect(rows).to_have_count(3)

    # the replay link opens the finished game
    await first.locator("a").click()
    await page.wait_for_url(f"**/#room={rooms[0]}")
    await page.wait_for_function(
        "() => { const u = window.kibitz.latest(); return u && u.status === 'over'; }"
    )
    ada.assert_clean()
    await ada.close()

    # a phone's width: the same list, read by someone else (a guest)
    eve = await Tab.open(browser, server.url, "Eve", width=390, height=844)
    await eve.page.goto(f"{server.url}#/@/Ada")
    await expect(eve.page.locator("#games-list > li")).to_have_count(3)
    await eve.page.locator("#games-h").scroll_into_view_if_needed()
    await eve.screenshot(shots, "profile-games-390", full_page=False)
    await eve.page.screenshot(path=str(shots / "profile-games-390.png"))
    eve.assert_clean()
    await eve.close()
