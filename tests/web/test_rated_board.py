"""A rated game at the board, in Chromium (issue 34, items 1, 2, 3): the names and the
ratings apart, no clock running before the first moves (a countdown for the first move
instead), and the rating change beside each name and in the game-over box when it ends —
at 1280x800 and on a phone (390x844)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab
from .test_accounts import sign_up


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
async def test_a_rated_game_shows_ratings_apart_first_move_wait_and_the_change(
    browser: Browser, server: KibitzServer, shots: Path, size: tuple[int, int]
) -> None:
    width, height = size
    ada = await Tab.open(browser, server.url, "Ada", width=width, height=height)
    bob = await Tab.open(browser, server.url, "Bob", width=width, height=height)
    await sign_up(ada, "Ada", "lime-tree-123")
    await sign_up(bob, "Bob", "oak-leaf-456")
    page = ada.page
    await page.select_option("select[name=seek-game]", "chess")
    await page.fill("input[name=seek-minutes]", "3")
    await page.fill("input[name=seek-increment]", "2")
    await page.check("input[name=seek-rated]")
    await page.click("[data-action=seek]")
    await bob.page.locator(".seek-list [data-accept]").first.click()
    for tab in (ada, bob):
        await tab.page.wait_for_function(
            "() => { const u = window.kibitz.latest(); return u && u.status === 'playing'; }"
        )
    you = {t.name: (await t.latest())["you"] for t in (ada, bob)}
    white = ada if you["Ada"] == 0 else bob
    black = bob if white is ada else ada

    # names and ratings apart: "Ada 1500?", never "Ada (1500?)"
    for tab in (ada, bob):
        seats = tab.page.locator("#seats .seat")
        for seat in range(2):
            text = await seats.nth(seat).inner_text()
            assert "(1500" not in text
            assert await seats.nth(seat).locator(".rating").inner_text() == "1500?"
        assert await tab.page.inner_text("#rated") == "Rated game · blitz"
    # no clock before the first moves: 3:00 on both, nothing running, a first-move countdown
    notice = white.page.locator("#first-move")
    await notice.wait_for()
    assert "Make your first move within" in await notice.inner_text()
    assert "Ada" in await black.page.inner_text(
        "#first-move"
    ) or "Bob" in await black.page.inner_text("#first-move")
    for tab in (ada, bob):
        assert await tab.page.inner_text("#clock-0") == "03:00"
        assert "running" not in (await tab.page.get_attribute("#clock-0", "class") or "")
        assert "starts after each side's first move" in await tab.page.inner_text("#clock-summary")
    await white.screenshot(shots, f"rated-first-move-{width}", full_page=False)
    await white.wait_to_act()
    await white.play("f2f3")
    await black.wait_to_act()
    assert "Make your first move within" in await black.page.inner_text("#first-move")
    assert await white.page.inner_text("#clock-0") == "03:00"  # White's first move was free
    await black.play("e7e5")
    await white.wait_to_act()
    await white.page.wait_for_selector("#first-move", state="hidden")
    await white.page.wait_for_selector("#clock-0.running")  # now the clocks run
    await white.play("g2g4")
    await black.wait_to_act()
    await black.play("d8h4")

    # the change beside each name and in the game-over box, with the rating after
    for tab in (ada, bob):
        await tab.wait_over()
        box = tab.page.locator("#rating-changes li")
        await box.first.wait_for()
        lines = [await box.nth(i).inner_text() for i in range(2)]
        assert any("1500 → 1662 +162" in line for line in lines), lines
        assert any("1500 → 1338 \u2212162" in line for line in lines), lines
        diffs = tab.page.locator("#seats .rating-diff")
        assert sorted([await diffs.nth(i).inner_text() for i in range(2)]) == ["+162", "\u2212162"]
        assert await tab.page.locator("#seats .rating-diff.up").count() == 1
        log = await tab.page.inner_text("#log")
        assert "Ratings:" in log
        width_now = await tab.page.evaluate("() => document.documentElement.scrollWidth")
        assert width_now <= width, width_now
    await black.screenshot(shots, f"rated-over-{width}", full_page=False)
    await black.page.locator("#gameover").scroll_into_view_if_needed()
    await black.screenshot(shots, f"rated-over-box-{width}", full_page=False)
    ada.assert_clean()
    bob.assert_clean()
