"""The whole board on screen at scroll 0 (issue 48, item 1): at 1280 x 800 and 1366 x 768 the
status stands beside the board (lichess's layout) and the board is sized to the window; on a
phone (390 x 844, 360 x 740) the status stands above a board sized to what is left. Checked
for a player, a spectator and the end of the game, in boards of every shape taller than
chess's: XiangQi, Yonin Shogi (hands above and below) and Hase und Igel (a track twice as
tall as wide) — and a page whose board is not fitted (a broken twin) is caught."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from server.net.app import KibitzServer

from .tabs import Tab

SIZES = ((1280, 800), (1366, 768), (390, 844), (360, 740))
#: boards taller than wide (chess's square board fits where these do), the tallest last
GAMES = {"xiangqi": 2, "hase_und_igel": 2}
#: Yonin Shogi's hands above and below its board: at the shortest desktop window
HANDS = {"yonin_shogi": 4}
#: the broken twin: every board at its natural size, whatever the window
UNFITTED = ".board-wrap { --fit: 10000px !important; }"


async def boxes(page: Page) -> dict[str, Any]:
    """The board's and the status's boxes at scroll 0, once the board was fitted."""
    await page.evaluate("() => window.scrollTo(0, 0)")
    await page.wait_for_function(
        "() => { const w = document.querySelector('.board-wrap');"
        " return w && w.style.getPropertyValue('--fit') !== ''; }"
    )
    await page.wait_for_function("() => document.getAnimations().length === 0")
    return await page.evaluate(
        """() => {
          const box = (el) => { const r = el.getBoundingClientRect();
            return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
          return {board: box(document.querySelector('svg.board')),
                  status: box(document.querySelector('#status')),
                  width: window.innerWidth, height: window.innerHeight};
        }"""
    )


def misfits(b: dict[str, Any]) -> list[str]:
    """Why the board is not wholly on screen (empty: it is)."""
    board, why = b["board"], []
    if board["top"] < 0 or board["left"] < 0:
        why.append(f"the board begins off screen at {board['left']:.0f},{board['top']:.0f}")
    if board["bottom"] > b["height"] + 0.5:
        why.append(f"the board ends at {board['bottom']:.0f} px of {b['height']}")
    if board["right"] > b["width"] + 0.5:
        why.append(f"the board ends at {board['right']:.0f} px of {b['width']} wide")
    return why


async def check(tab: Tab, shots: Path, what: str) -> None:
    b = await boxes(tab.page)
    assert misfits(b) == [], f"{what}: {misfits(b)}"
    if b["width"] > 860:  # wide: the status beside the board, not above it
        assert b["status"]["left"] >= b["board"]["right"], what
    else:  # a phone: the status above the board
        assert b["status"]["bottom"] <= b["board"]["top"], what
    if b["width"] in (1280, 390):  # the two sizes looked at
        await tab.screenshot(shots, what.replace(" ", "-"), full_page=False)


@pytest.mark.parametrize(("width", "height"), SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_the_board_fits_the_window_for_players_spectators_and_the_end(
    browser: Browser, server: KibitzServer, shots: Path, width: int, height: int
) -> None:
    ada = await Tab.open(browser, server.url, "Ada", width=width, height=height)
    cy = await Tab.open(browser, server.url, "Cy", width=width, height=height)
    games = {**(HANDS if (width, height) == (1366, 768) else {}), **GAMES}
    for game, seats in games.items():
        room = await ada.create_room(game, seats=["me"] * seats)
        await ada.wait_to_act()
        await check(ada, shots, f"fit {game} {width}x{height}")
        if game == "xiangqi":
            await cy.goto_room(room, watch=True)
            await check(cy, shots, f"fit {game} spectator {width}x{height}")
            # a player's controls are a player's: no premove switch for a spectator
            assert await ada.page.locator("#premove-toggle").is_visible()
            assert await cy.page.locator("#premove-toggle").is_hidden()
    # the end of a game: the result beside (or under) a board still wholly on screen
    await ada.page.click("#resign")
    await ada.page.click("#resign-yes")
    await ada.wait_over()
    await check(ada, shots, f"fit the end {width}x{height}")
    await ada.close()
    await cy.close()


async def test_an_unfitted_board_is_caught(browser: Browser, server: KibitzServer) -> None:
    """The broken twin: Hase und Igel's track at its natural width overflows a small phone."""
    context = await browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    ada = Tab(context, await context.new_page(), "Ada", server.url)
    await ada.page.goto(server.url)
    await ada.page.add_style_tag(content=UNFITTED)  # the page's own policy forbids it
    await ada.page.wait_for_function("() => window.kibitz && window.kibitz.state() === 'online'")
    await ada.create_room("hase_und_igel", seats=["me", "me"])
    b = await boxes(ada.page)
    assert any("ends at" in why for why in misfits(b)), b
    await ada.close()
