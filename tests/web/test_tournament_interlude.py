"""A Swiss's interlude in Chromium (issue 48, round 3): a player who finished their game
sees their result and "Next round in N s — you play X (round k of n)" — at the board they
played on, or on the tournament's page — before the next round's game takes them to its
board; at 1280x800 and on a phone (390x844)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from playwright.async_api import Browser, expect

from server.net.app import KibitzServer

from .tabs import Tab
from .test_tournaments import DESKTOP, PHONE, fill_form, first_game, open_list, resign

NEXT = re.compile(r"Next round in \d+ s — you (play .+|have a bye) \(round 2 of 2(, you start)?\)")


async def next_game(tab: Tab, old: str) -> dict:
    """Until the pairing has taken ``tab`` to a board other than ``old``: its update."""
    await tab.page.wait_for_function(
        """r => { const u = window.kibitz.latest();
                  return u && u.room !== r && u.status === 'playing'; }""",
        arg=old,
        timeout=30000,
    )
    return await tab.latest()


async def test_a_swiss_shows_the_result_and_the_next_opponent_before_the_next_game(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada", **DESKTOP)
    bob = await Tab.open(browser, server.url, "Bob", **PHONE)
    await open_list(ada)
    await fill_form(
        ada.page,
        name="Interlude swiss",
        game="kono",
        system="swiss",
        base="1",
        increment="0",
        rounds="2",
        interlude="10",
        start="full",
        max_players="4",
    )
    for size, width in ((PHONE, 390), (DESKTOP, 1280)):  # the form's "Between rounds"
        await ada.page.set_viewport_size(size)
        await ada.page.locator("#t-interlude").scroll_into_view_if_needed()
        await ada.page.screenshot(path=str(shots / f"tournament-form-{width}.png"))
    await ada.page.click("#t-create")
    await ada.page.wait_for_url("**/#/tournament/*")
    tid = ada.page.url.rsplit("/", 1)[1]
    await ada.page.click("#t-join")
    await ada.page.select_option("#t-bot-level", "random")
    for n in (1, 2):
        await ada.page.click("#t-add-bot")
        await ada.page.wait_for_selector(f"#t-standings tr[data-name='Random bot {n}']")
    await bob.page.goto(f"{server.url}#/tournament/{tid}")
    await bob.page.click("#t-join")
    ua, ub = await asyncio.gather(first_game(ada), first_game(bob))
    for tab in (ada, bob):
        await resign(tab)

    # Ada stays at the board she played on: the bar says how it went and what comes next
    box = ada.page.locator("#t-next-board")
    await expect(box).to_be_visible(timeout=30000)
    await expect(ada.page.locator("#t-next-board-line")).to_have_text(NEXT)
    await expect(ada.page.locator("#t-next-board-last")).to_have_text(
        re.compile(r"Round 1: (you lost|you won) · \d point")
    )
    assert (await ada.latest())["room"] == ua["room"]  # still the first game
    said = await ada.page.inner_text("#t-next-board-line")
    await ada.screenshot(shots, "tournament-interlude-board-1280", full_page=False)
    await ada.page.screenshot(path=str(shots / "tournament-interlude-board-1280.png"))

    # Bob, on a phone, sees it at his board too, then goes back to the standings: the
    # tournament's page says the same
    await expect(bob.page.locator("#t-next-board-line")).to_have_text(NEXT)
    await bob.page.locator("#t-next-board").scroll_into_view_if_needed()
    await bob.page.screenshot(path=str(shots / "tournament-interlude-board-390.png"))
    await bob.page.click("#t-back")
    await bob.page.wait_for_selector("#t-standings")
    await expect(bob.page.locator("#t-next-line")).to_have_text(NEXT)
    await expect(bob.page.locator("#t-clock")).to_have_text(
        re.compile(r"Round 2 of 2 starts in 00:\d\d")
    )
    await bob.screenshot(shots, "tournament-interlude-page-390", full_page=False)
    await bob.page.screenshot(path=str(shots / "tournament-interlude-page-390.png"))
    await bob.page.set_viewport_size(DESKTOP)
    await bob.page.screenshot(path=str(shots / "tournament-interlude-page-1280.png"))
    await bob.page.set_viewport_size(PHONE)

    # then the pairing takes each to the next game: the opponent announced, the box gone
    va, _vb = await asyncio.gather(next_game(ada, ua["room"]), next_game(bob, ub["room"]))
    if "you play" in said:
        opponent = said.split("you play ", 1)[1].split(" (", 1)[0]
        names = [s["name"] for s in va["seats"]]
        assert opponent in names and names[va["you"]] == "Ada", (said, names)
    await expect(ada.page.locator("#t-next-board")).to_be_hidden()
    await bob.page.screenshot(path=str(shots / "tournament-interlude-next-game-390.png"))
    for tab in (ada, bob):
        await resign(tab)
        tab.assert_clean()
