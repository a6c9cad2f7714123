"""What a lichess player reaches for, and what a newcomer needs (issue 34): the tab title says
"Your turn", the board flips and hides its coordinates, every game says how to play it (in
the lobby and beside the board), the lobby lists open rooms apart from games in progress and
drops games nobody plays in any more, and quick pairing works for any two-seat game."""

from __future__ import annotations

import redis
from playwright.async_api import Browser, Page

from server.net.app import KibitzServer

from .tabs import Tab

TITLE = "() => document.title"


async def square_y(page: Page, square: str) -> float:
    box = await page.locator(f"svg.board [data-square='{square}']").bounding_box()
    assert box
    return box["y"]


async def test_title_flip_coordinates_and_how_to_play(
    browser: Browser, server: KibitzServer
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    page = ada.page

    # every game's rules under its description in the lobby, closed until asked for (the
    # test server's toy games say nothing: no panel)
    games = await page.evaluate("() => window.kibitz.games()")
    for game in games:
        await page.select_option("#game", game["name"])
        rules = page.locator("#game-rules")
        if not game["how_to_play"]:
            assert await rules.count() == 0
            continue
        assert not await rules.get_attribute("open")
        await rules.locator("summary").click()
        assert await rules.locator("p").all_inner_texts() == game["how_to_play"]

    room = await ada.create_room("chess", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await page.wait_for_function("() => document.title === 'Your turn · Chess · Kibitz'")
    assert await bob.page.evaluate(TITLE) == "Chess · Kibitz"
    await ada.play("e2e4")
    await bob.page.wait_for_function("() => document.title.startsWith('Your turn')")
    assert await page.evaluate(TITLE) == "Chess · Kibitz"

    # how to play, beside the board
    panel = page.locator("#how-to-play")
    assert await panel.locator("summary").inner_text() == "How to play Chess"
    await panel.locator("summary").click()
    chess = next(g for g in games if g["name"] == "chess")
    assert await panel.locator("p").all_inner_texts() == chess["how_to_play"]

    # flip: White's first rank goes to the top, and the board still plays
    assert await square_y(page, "a1") > await square_y(page, "a8")
    await page.click("#flip-board")
    assert await page.get_attribute("#flip-board", "aria-pressed") == "true"
    assert await square_y(page, "a1") < await square_y(page, "a8")
    await bob.play("e7e5")
    await ada.play("g1f3")
    await page.click("#flip-board")
    assert await square_y(page, "a1") > await square_y(page, "a8")

    # coordinates: off, remembered across a reload, on again
    coords = page.locator("svg.board .coord").first
    assert await coords.is_visible()
    await page.click("#coords-toggle")
    assert await page.get_attribute("#coords-toggle", "aria-pressed") == "false"
    assert not await coords.is_visible()
    await page.reload()
    await ada.wait_room()
    assert not await page.locator("svg.board .coord").first.is_visible()
    await page.click("#coords-toggle")
    assert await page.locator("svg.board .coord").first.is_visible()
    for tab in (ada, bob):
        tab.assert_clean()
        await tab.close()


async def test_lobby_lists_and_quick_pairing_in_any_game(
    browser: Browser, server: KibitzServer, redis_url: str
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    cy = await Tab.open(browser, server.url, "Cy")
    dee = await Tab.open(browser, server.url, "Dee")

    # a waiting room is open; a game two people play is in progress
    waiting = await dee.create_room("kono", seats=["me", "open"])
    playing = await ada.create_room("chess", seats=["me", "open"])
    await bob.goto_room(playing)
    await bob.sit(1)
    lobby = cy.page
    await lobby.locator(f".open-rooms li[data-room='{waiting}']").wait_for(timeout=10000)
    live = lobby.locator(f".live-rooms li[data-room='{playing}']")
    await live.wait_for(timeout=10000)
    assert await live.locator(f"[data-watch='{playing}']").inner_text() == "Watch"
    assert await lobby.locator(f".open-rooms li[data-room='{playing}']").count() == 0
    assert await lobby.locator(f".live-rooms li[data-room='{waiting}']").count() == 0

    # both players leave: the game leaves the lobby (once no node marks a seat of it
    # attended: its mark, kept up to 30 s, is taken away here)
    await ada.close()
    await bob.close()
    r = redis.Redis.from_url(redis_url)
    r.delete(f"{server.config.prefix}seated:{playing}")
    r.close()
    await live.wait_for(state="detached", timeout=10000)

    # quick pairing in Kono, remembered
    for tab in (cy, dee):
        if "#room=" in tab.page.url:
            await tab.page.click("#to-lobby")
        await tab.page.select_option("#quick-game", "kono")
        assert await tab.page.inner_text("#play-h") == "Play Four-field Kono now"
    await lobby.reload()
    await lobby.wait_for_function("() => window.kibitz && window.kibitz.state() === 'online'")
    await lobby.wait_for_selector("#quick-game option[value='jungle']", state="attached")
    assert await lobby.input_value("#quick-game") == "kono"
    options = await lobby.locator("#quick-game option").evaluate_all("os => os.map(o => o.value)")
    assert "hase_und_igel" in options  # 2 to 6 seats: two may play
    await lobby.click("[data-pool='kono:180+2']")
    await lobby.wait_for_selector("[data-pool='kono:180+2'][aria-pressed=true]")
    await dee.page.click("[data-pool='kono:180+2']")
    for tab in (cy, dee):
        await tab.page.wait_for_url("**/#room=*", timeout=15000)
        await tab.wait_room()
        assert (await tab.latest())["game"] == "kono"
    for tab in (cy, dee):
        tab.assert_clean()
        await tab.close()
