"""A phone's screen (390 x 844): no page is wider than the screen — the lobby with every
field open, a chess game, a Jungle game, a Hase und Igel race, a profile — and in a clocked
game both clocks are on screen with the board, without scrolling (issue 34, item 4). The
same pages at 1280 x 800 keep the lobby's fields inside their panels."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page

from server.net.app import KibitzServer

from .tabs import Tab
from .test_accounts import sign_up

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

#: elements that stick out of their panel to the right (the desktop lobby's complaint)
OUT_OF_PANEL = """() => [...document.querySelectorAll('.panel')].flatMap(panel => {
  const edge = panel.getBoundingClientRect().right;
  return [...panel.querySelectorAll('input, select, fieldset, details, button')]
    .filter(el => el.getClientRects().length && el.getBoundingClientRect().right > edge + 1)
    .map(el => el.outerHTML.slice(0, 80));
})"""


async def assert_fits(page: Page, width: int, what: str) -> None:
    scroll = await page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width, f"{what} is {scroll} px wide on a {width} px screen"
    assert await page.evaluate(OUT_OF_PANEL) == [], what


async def test_every_page_fits_a_phone_and_the_clocks_sit_by_the_board(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada", **PHONE)
    bob = await Tab.open(browser, server.url, "Bob", **PHONE)
    desk = await Tab.open(browser, server.url, "Cy", **DESKTOP)
    for tab, size in ((ada, PHONE), (desk, DESKTOP)):
        page = tab.page
        await page.wait_for_selector("#create-room")
        for game in ("chess", "dark_chess", "hase_und_igel", "jungle"):
            await page.select_option("#game", game)
            if await page.locator("details.advanced").count():
                await page.click("details.advanced summary")
            await page.click("#game-rules summary")
            await page.select_option("#clock-type", "fischer")
            await assert_fits(page, size["width"], f"the lobby ({game})")
        await tab.screenshot(shots, f"phone-lobby-{size['width']}")

    # a clocked chess game: both clocks on the first screen, above and below the board
    room = await ada.create_room(
        "chess", seats=["me", "open"], clock={"type": "fischer", "base": 5, "increment": 2}
    )
    await bob.goto_room(room)
    await bob.sit(1)
    # Ada's room opened at its top; Bob scrolled down to the seats to sit: he goes back up
    await bob.page.evaluate("() => window.scrollTo(0, 0)")
    for tab, mine, theirs in ((ada, 0, 1), (bob, 1, 0)):
        page = tab.page
        await page.wait_for_selector(f"#board-clock-bottom [data-seat='{mine}'] .clock")
        await assert_fits(page, PHONE["width"], "a chess game")
        board = await page.locator("svg.board").bounding_box()
        top = await page.locator("#board-clock-top .clock").bounding_box()
        bottom = await page.locator("#board-clock-bottom .clock").bounding_box()
        assert board and top and bottom
        assert top["y"] >= 0  # on screen: the room opens at its top, not where the lobby was
        assert top["y"] + top["height"] <= board["y"] + 1  # the opponent's above the board
        assert bottom["y"] >= board["y"] + board["height"] - 1  # ours below it
        assert bottom["y"] + bottom["height"] <= PHONE["height"]  # on screen, no scrolling
        await tab.screenshot(shots, f"phone-chess-{mine}", full_page=False)
        assert await page.locator(f"#board-clock-top #clock-{theirs}").count() == 1
        assert await page.locator("#seats .clock").count() == 0  # not twice
    await ada.screenshot(shots, "phone-chess-clocks", full_page=False)
    # on a wide screen the clocks stay in the players' list
    await desk.goto_room(room, watch=True)
    assert await desk.page.locator("#seats .clock").count() == 2
    assert await desk.page.locator("#board-clock-top").inner_text() == ""
    await assert_fits(desk.page, DESKTOP["width"], "a chess game")
    await desk.screenshot(shots, "desktop-chess", full_page=False)

    # a Jungle game and a Hase und Igel race, against bots
    for game in ("jungle", "hase_und_igel"):
        await ada.page.click("#to-lobby")
        await ada.page.wait_for_selector("#create-room")
        await ada.page.select_option("#game", game)
        bot = await ada.page.locator("#seat-1 option[value^='bot:']").first.get_attribute("value")
        assert bot
        await ada.create_room(game, seats=["me", bot])
        await ada.wait_to_act()
        await assert_fits(ada.page, PHONE["width"], f"a {game} game")
        await ada.screenshot(shots, f"phone-{game}")

    # a profile page
    await sign_up(bob, "bob_phone", "a long password")
    await bob.page.goto(f"{server.url}#/@/bob_phone")
    await bob.page.wait_for_selector(".profile-view")
    await assert_fits(bob.page, PHONE["width"], "a profile")
    await bob.screenshot(shots, "phone-profile")
    for tab in (ada, bob, desk):
        tab.assert_clean()
        await tab.close()
