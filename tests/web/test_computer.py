"""Play with the computer from the lobby's first screen (issue 48, item 2): the game, a level
named plainly with a rating one can read, the side and the clock, then one click — at a
desktop's and a phone's size, in a two-seat game and in Yonin Shogi's four."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser

from server.net.app import KibitzServer

from .levels import readable_level
from .tabs import Tab

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.mark.parametrize("size", SIZES)
async def test_a_game_with_the_computer_in_one_click_from_the_first_screen(
    browser: Browser, server: KibitzServer, shots: Path, size: str
) -> None:
    width, height = SIZES[size]
    ada = await Tab.open(browser, server.url, "Ada", width=width, height=height)
    page = ada.page
    await page.wait_for_selector("#cpu-play")
    play = await page.locator("#cpu-play").bounding_box()
    assert play and play["y"] + play["height"] <= height, "the Play button is off the first screen"
    # every level of the game, named plainly, as the ladder measured it
    games = await page.evaluate("() => window.kibitz.games()")
    [chess] = [g for g in games if g["name"] == "chess"]
    await page.select_option("#cpu-game", "chess")
    labels = await page.locator("#cpu-level option").all_inner_texts()
    assert labels == [readable_level(lv) for lv in chess["levels"]]
    assert "moves at random" in labels[0] and "rated about" in labels[1]
    await ada.screenshot(shots, f"computer-lobby-{size}", full_page=False)

    # Black against level 1 with a clock: the bot (White) moves first
    await page.select_option("#cpu-level", chess["levels"][0]["strength"])
    await page.select_option("#cpu-side", "1")
    await page.select_option("#cpu-clock", "5+3")
    await page.click("#cpu-play")
    await page.wait_for_url("**/#room=*")
    await ada.wait_room()
    u = await ada.latest()
    assert u["game"] == "chess" and u["you"] == 1
    assert [s["kind"] for s in u["seats"]] == ["bot", "person"]
    assert u["settings"]["clock"] == {"type": "fischer", "base": 300, "increment": 3}
    await ada.wait_to_act()  # the bot moved, and it is Ada's turn
    await ada.screenshot(shots, f"computer-chess-{size}", full_page=False)

    # Yonin Shogi: three bots, one click
    await page.click("#to-lobby")
    await page.select_option("#cpu-game", "yonin_shogi")
    await page.select_option("#cpu-side", "0")
    await page.click("#cpu-play")
    await page.wait_for_function("() => location.hash.startsWith('#room=')")
    await ada.wait_room()
    u = await ada.latest()
    assert u["game"] == "yonin_shogi" and u["you"] == 0
    assert [s["kind"] for s in u["seats"]] == ["person", "bot", "bot", "bot"]
    # the choice is remembered for the next visit
    await page.click("#to-lobby")
    assert await page.input_value("#cpu-game") == "yonin_shogi"
    ada.assert_clean()
    await ada.close()
