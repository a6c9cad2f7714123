"""Accounts in the browser: sign up, log in, a rated seek accepted from another browser,
both players land in the room by themselves, Fool's Mate, the winner's profile."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab
from .test_lobby import assert_accessible_names


async def sign_up(tab: Tab, name: str, password: str) -> None:
    page = tab.page
    await page.click("[data-action=signup]")
    await page.fill("input[name=account-name]", name)
    await page.fill("input[name=account-password]", password)
    await page.click("[data-action=submit]")
    await page.wait_for_selector(f".account-bar [data-user='{name}']")
    await page.wait_for_function("() => window.kibitz && window.kibitz.state() === 'online'")


async def test_sign_up_seek_accept_mate_and_profile(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    await sign_up(ada, "Ada", "lime-tree-123")
    await sign_up(bob, "Bob", "oak-leaf-456")
    await assert_accessible_names(ada.page)

    # Ada posts a rated 3+2 chess seek; Bob sees it, with Ada's rating, and plays it
    page = ada.page
    await page.select_option("select[name=seek-game]", "chess")
    await page.fill("input[name=seek-minutes]", "3")
    await page.fill("input[name=seek-increment]", "2")
    await page.check("input[name=seek-rated]")
    await page.click("[data-action=seek]")
    row = bob.page.locator(".seek-list .seek")
    await row.first.wait_for()
    text = await row.first.inner_text()
    assert "Ada" in text and "1500?" in text and "3+2" in text and "rated" in text
    await page.screenshot(path=str(shots / "accounts-lobby.png"))
    await bob.page.click(".seek-list [data-accept]")

    # both land in the room by themselves
    for tab in (ada, bob):
        await tab.page.wait_for_function("() => /^#room=/.test(location.hash)")
        await tab.page.wait_for_function(
            "() => { const u = window.kibitz.latest(); return u && u.status === 'playing'; }"
        )
    room = (await ada.page.evaluate("() => location.hash"))[len("#room=") :]
    you = {t.name: await t.page.evaluate("() => window.kibitz.latest().you") for t in (ada, bob)}
    assert sorted(you.values()) == [0, 1]
    white = ada if you["Ada"] == 0 else bob
    black = bob if white is ada else ada
    # Fool's Mate, clicked on the boards
    for tab, mv in [(white, "f2f3"), (black, "e7e5"), (white, "g2g4"), (black, "d8h4")]:
        await tab.wait_to_act()
        await tab.play(mv)
    end = await ada.wait_over()
    assert end["outcome"]["winner"] == 1

    # the winner's profile shows the Glicko-2 rating after one win
    await ada.page.goto(server.url + f"#/@/{black.name}")
    cell = ada.page.locator("tr[data-category='chess:blitz'] .rating")
    await cell.wait_for()
    assert await cell.inner_text() == "1662?"
    assert "Provisional" in (await cell.get_attribute("title") or "")  # the "?" explained
    link = ada.page.locator(f".history [data-room='{room}'] a")
    assert await link.get_attribute("href") == f"#room={room}"
    # "Export games": the profile's link downloads what the HTTP route streams, the mate
    async with ada.page.expect_download() as download:
        await ada.page.click("#export-games")
    lines = Path(await (await download.value).path()).read_text().splitlines()
    assert len(lines) == 1, lines
    assert "Qh4#" in lines[0], lines  # the game's PGN
    await ada.page.screenshot(path=str(shots / "accounts-profile.png"))

    # log out: a guest again
    await ada.page.click("[data-action=logout]")
    await ada.page.wait_for_selector("[data-action=login]")
    assert not ada.errors and not bob.errors


async def test_quick_pairing_grid_lands_two_guests_in_a_room(
    browser: Browser, server: KibitzServer
) -> None:
    ann = await Tab.open(browser, server.url, "Ann")
    ben = await Tab.open(browser, server.url, "Ben")
    await ann.page.click("[data-pool='chess:180+2']")
    await ann.page.wait_for_selector("[data-pool='chess:180+2'][aria-pressed=true]")
    await ben.page.click("[data-pool='chess:180+2']")
    rooms = []
    for tab in (ann, ben):
        await tab.page.wait_for_function("() => /^#room=/.test(location.hash)")
        await tab.page.wait_for_function(
            "() => { const u = window.kibitz.latest(); return u && u.status === 'playing'; }"
        )
        rooms.append(await tab.page.evaluate("() => location.hash"))
    assert rooms[0] == rooms[1]
    seats = sorted([(await t.latest())["you"] for t in (ann, ben)])
    assert seats == [0, 1]
    assert not ann.errors and not ben.errors
