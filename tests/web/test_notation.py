"""Each game in its players' notation (issue 48, item 3: XiangQi, Yonin Shogi): the move list writes
WXF (``C2=5``, ``H8+7``, as the record's ``exports.wxf`` has it) with move numbers, and
squares are a click away, the choice kept; a game without a notation of its own numbers its
moves too."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab


async def moves(tab: Tab, count: int) -> list[str]:
    await tab.page.wait_for_function(
        "n => document.querySelectorAll('#move-list li').length === n", arg=count
    )
    return await tab.page.locator("#move-list li").all_inner_texts()


async def test_xiangqi_moves_in_wxf_and_squares_on_demand(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    page = ada.page
    await ada.create_room("xiangqi", seats=["me", "me"])
    await ada.wait_to_act()
    await ada.play("h3-e3")  # Red's central cannon
    await page.click("#legal-list summary")
    await page.click("#legal-list [data-legal='h10-g8']")  # Black's horse
    await page.wait_for_function("() => window.kibitz.latest().turn === 2")
    assert await moves(ada, 2) == ["1. C2=5", "2. H8+7"]
    await ada.screenshot(shots, "notation-xiangqi-wxf", full_page=False)
    await page.click("#notation-toggle")
    await page.wait_for_function(
        "() => document.querySelector('#move-list li').innerText === '1. h3-e3'"
    )
    assert await moves(ada, 2) == ["1. h3-e3", "2. h10-g8"]
    # the choice is kept: a new XiangQi game shows squares until switched back
    await ada.create_room("xiangqi", seats=["me", "me"])
    await ada.wait_to_act()
    await ada.play("h3-e3")
    assert await moves(ada, 1) == ["1. h3-e3"]
    await page.click("#notation-toggle")
    assert await moves(ada, 1) == ["1. C2=5"]
    # Jungle has no notation of its own: squares, numbered
    await ada.create_room("jungle", seats=["me", "me"])
    await ada.wait_to_act()
    await page.click("#legal-list summary")
    first = (await ada.legal())[0]
    await page.click(f"#legal-list [data-legal='{first}']")
    assert await moves(ada, 1) == [f"1. {first}"]
    assert await page.locator("#notation-toggle").is_hidden()
    ada.assert_clean()
    await ada.close()


async def test_yonin_shogi_in_shogi_notation_one_line_a_turn(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    page = ada.page
    await ada.create_room("yonin_shogi", seats=["me", "me", "me", "me"])
    for move in ("d2-d3", "a3-b3"):  # South's Pawn, West's Silver
        await ada.wait_to_act()
        await ada.play_listed(move)
    assert await moves(ada, 2) == ["1. Ada: Pd2-d3", "2. Ada: Sa3-b3"]
    # one line a turn: every item starts at the list's left edge
    lefts = await page.locator("#move-list li").evaluate_all(
        "els => els.map((el) => Math.round(el.getBoundingClientRect().left))"
    )
    assert len(set(lefts)) == 1, lefts
    await ada.screenshot(shots, "notation-yonin-shogi", full_page=False)
    await page.click("#notation-toggle")
    assert await moves(ada, 2) == ["1. Ada: d2-d3", "2. Ada: a3-b3"]
    ada.assert_clean()
    await ada.close()
