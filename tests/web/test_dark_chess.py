"""Dark Chess in the browser: fog over unseen squares, spectators see no square, a king
capture ends the game and lifts the fog."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page

from server.net.app import KibitzServer

from .tabs import Tab

PIECES_ON = "els => els.map(e => e.dataset.on).sort()"


async def pieces_on(page: Page) -> list[str]:
    return list(await page.locator("svg.board .piece").evaluate_all(PIECES_ON))


async def fogged(page: Page) -> list[str]:
    return list(
        await page.locator("svg.board .fogged").evaluate_all(
            "els => els.map(e => e.dataset.fog).sort()"
        )
    )


async def test_fog_spectators_and_king_capture(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    eve = await Tab.open(browser, server.url, "Eve")
    room = await ada.create_room("dark_chess", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    await ada.wait_to_act()

    # White sees her own half and the squares her moves reach; the rest is cloud
    view = (await ada.latest())["view"]
    assert set(await fogged(ada.page)) == {f"{f}{r}" for f in "abcdefgh" for r in "12345678"} - set(
        view["visible"]
    )
    assert "e8" in await fogged(ada.page)
    assert await ada.page.get_attribute("[data-square='e8']", "aria-label") == "e8: not visible"
    assert all(sq[1] in "12" for sq in await pieces_on(ada.page))

    # a spectator sees no square at all while the game runs: no piece anywhere in its page
    assert await pieces_on(eve.page) == []
    assert len(await fogged(eve.page)) == 64
    assert set((await eve.latest())["view"]["fen"].split(" ")[0]) <= set("?/")

    # the same holds for a second tab of a player opened as a spectator
    watch_href = await ada.page.get_attribute("#watch-tab", "href")
    assert watch_href == f"#room={room}&watch"
    second = await ada.new_page(watch_href)
    await second.wait_for_function("() => window.kibitz.latest() !== null")
    assert await pieces_on(second) == []
    assert await second.locator("#resign").count() == 0
    await ada.page.bring_to_front()  # a background tab gets no animation frames

    # 1. e4 f5 2. Qh5 a6 3. Qxe8: the king is taken
    await ada.play("e2e4")
    await bob.wait_to_act()
    await bob.play("f7f5")
    await ada.wait_to_act()
    await ada.play("d1h5")
    await bob.wait_to_act()
    # Black cannot see the queen: it is not in his page; White sees her target e8 now
    assert "h5" not in await pieces_on(bob.page)
    assert "h5" in await fogged(bob.page)
    assert "e8" in await pieces_on(ada.page)
    # her own last move marked (not "last"); Black to move, so she may premove her queen
    assert await ada.page.get_attribute("[data-square='h5']", "class") == "sq own-last premovable"
    await ada.screenshot(shots, "dark-chess-white")
    await bob.screenshot(shots, "dark-chess-black")
    await eve.screenshot(shots, "dark-chess-spectator")
    assert await pieces_on(eve.page) == []
    assert await pieces_on(second) == []
    await bob.play("a7a6")
    await ada.wait_to_act()
    await ada.play("h5e8")

    for tab in (ada, bob, eve):
        final = await tab.wait_over()
        assert final["outcome"]["reason"] == "king_captured"
        assert final["outcome"]["winner"] == 0
    assert "You win — the king was captured" in await ada.status()
    # the game is over: the record opens and the fog lifts for everybody
    await eve.page.wait_for_selector("text=the fog has lifted")
    assert len(await pieces_on(eve.page)) == 31
    assert await fogged(eve.page) == []
    await eve.screenshot(shots, "dark-chess-over-spectator")
    for tab in (ada, bob, eve):
        tab.assert_clean()
