"""Tournaments in Chromium (issue 38, item 7): the list kept live, the create form (its
refusals are the server's, shown in the form, and nothing is created), and a quick arena that
two people (an account and a guest) and two bots join and play to its end — the pairing takes
each person to the board by itself, berserk before the first move halves the clock (and
is worth a point more on a win), the board leads back to the tournament, and a third person watching
the tournament's page sees the standings change live. Every page at 1280x800 and on a phone
(390x844), none wider than the screen."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from server.net.app import KibitzServer
from server.net.services.tournaments import rooms as tournament_rooms
from server.tournaments import arena as arena_rules

from .tabs import Tab
from .test_accounts import sign_up
from .test_lobby import assert_accessible_names
from .test_phone import assert_fits

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


async def api(tab: Tab, path: str) -> Any:
    """A GET of the HTTP API, from the browser (the server shares the test's event loop)."""
    res = await tab.page.request.get(f"{tab.base_url}api/{path}")
    assert res.status == 200, (path, res.status)
    return await res.json()


async def open_list(tab: Tab) -> None:
    """From the lobby to the tournaments (the lobby's link)."""
    await tab.page.click("#to-tournaments")
    await tab.page.wait_for_selector("#t-create")


async def fill_form(page: Page, **fields: str | bool) -> None:
    """Set the create form's fields by id suffix (``base="0.25"`` -> #t-base)."""
    for name, value in fields.items():
        sel = f"#t-{name.replace('_', '-')}"
        tag = await page.locator(sel).evaluate("el => el.tagName + ':' + el.type")
        if isinstance(value, bool):
            await page.set_checked(sel, value)
        elif tag.startswith("SELECT"):
            await page.select_option(sel, value)
            await page.dispatch_event(sel, "change")
        else:
            await page.fill(sel, value)
            await page.dispatch_event(sel, "change")


def points(page: Page) -> Any:
    """Every standings row as {name: [points, wins, draws, losses, sheet]} as shown, the sheet
    as [(outcome, text, room)]."""
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#t-standings tbody tr')]
             .map(tr => [tr.dataset.name, [
               Number(tr.querySelector('td.points').dataset.points),
               ...tr.querySelector('td.wdl').innerText.split('/').map(Number),
               [...tr.querySelectorAll('.sheet-game')]
                 .map(s => [s.dataset.outcome, s.innerText, s.dataset.room])]]))"""
    )


async def test_the_create_form_refuses_bad_input_with_the_servers_words(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada", **DESKTOP)
    bob = await Tab.open(browser, server.url, "Bob", **PHONE)
    await open_list(ada)
    await open_list(bob)
    page = ada.page
    # a guest may not create a rated one: the box is off and cannot be ticked
    assert await page.is_disabled("#t-rated")
    assert "accounts only" in await page.inner_text("#t-rated-note")

    refusals = [
        # (fields, the server's words)
        ({"base": "0.1"}, "base must be a whole number from 15 to"),
        ({"base": "3", "minutes": "0"}, "minutes must be a whole number from 1 to 720"),
        ({"minutes": "30", "name": "x" * 41}, "name must be 1 to 40 characters"),
        (
            {"name": "Swiss", "system": "swiss", "rounds": "25"},
            "rounds must be a whole number from 1 to 20",
        ),
        (
            {"system": "arena", "game": "hase_und_igel", "seats": "3", "max_players": "1"},
            "max_players must be",
        ),
        (
            {"max_players": "", "start": "at", "start_at": "2020-01-01T10:00"},
            "starts_at must be from now to seven days ahead",
        ),
    ]
    for fields, words in refusals:
        await fill_form(page, **fields)
        await page.click("#t-create")
        await page.wait_for_function(
            "w => document.querySelector('#t-error').innerText.includes(w)", arg=words
        )
        assert page.url.endswith("#/tournaments")  # still on the form, nothing opened
        assert await page.input_value("#t-name") != ""  # the form keeps what was typed
    await ada.screenshot(shots, "tournament-form-refused-1280")
    listing = await api(ada, "tournaments")
    assert listing == {"upcoming": [], "running": [], "finished": []}
    assert await bob.page.locator("#tourneys-upcoming .tourney-card").count() == 0

    # the same form, corrected, creates one: Bob's list shows it without a reload
    await fill_form(
        page,
        game="chess",
        system="arena",
        name="Evening arena",
        base="3",
        increment="2",
        minutes="45",
        start="in",
        start_in="30",
        max_players="",
    )
    await page.click("#t-create")
    await page.wait_for_url("**/#/tournament/*")
    tid = page.url.rsplit("/", 1)[1]
    assert [t["id"] for t in (await api(ada, "tournaments"))["upcoming"]] == [tid]
    card = bob.page.locator(f"#tourneys-upcoming [data-tournament='{tid}']")
    await card.wait_for()
    text = await card.inner_text()
    assert "Evening arena" in text and "Chess · 3+2 · Arena · 45 minutes · casual" in text
    assert "Starts in 29:" in text or "Starts in 30:" in text
    await bob.screenshot(shots, "tournament-list-390")
    for tab, size in ((ada, DESKTOP), (bob, PHONE)):
        await assert_fits(tab.page, size["width"], "the tournaments")
        await assert_accessible_names(tab.page)
    ada.assert_clean()
    bob.assert_clean()


async def first_game(tab: Tab) -> dict[str, Any]:
    """Wait until the pairing has taken ``tab`` to a board; its first update."""
    await tab.page.wait_for_url("**/#room=*", timeout=20000)
    await tab.page.wait_for_function(
        "() => { const u = window.kibitz.latest(); return u && u.status === 'playing'; }"
    )
    return await tab.latest()


#: the status of the tournament on screen (none: it is not a tournament's page)
STATUS = "() => document.querySelector('.tourney-view')?.dataset.status"
#: the game ``r`` on screen is over (or another is on screen)
OVER = """r => { const u = window.kibitz.latest();
  return !u || u.room !== r || u.status !== 'playing'; }"""


async def resign(tab: Tab) -> bool:
    """Resign the game on screen (Resign, then Yes): again if the page moved under the click
    (a phone's first-move notice comes and goes above the buttons). False: it ended first."""
    page = tab.page
    room = (await tab.latest())["room"]
    for _ in range(10):
        u = await tab.latest()
        if u is None or u["room"] != room or u["status"] != "playing":
            return False
        try:
            if not await page.locator("#resign-yes").is_visible():
                await page.click("#resign", timeout=2000)
            await page.click("#resign-yes", timeout=2000)
        except PlaywrightTimeout:
            continue
        await page.wait_for_function(OVER, arg=room)  # (and maybe the next pairing took us on)
        return True
    raise AssertionError(f"{tab.name} could not resign")


async def resign_each_game(
    tab: Tab, tid: str, resigned: list[str], deadline: float, to_a_bot: asyncio.Event
) -> None:
    """Until the tournament is over: a resignation in every game the arena pairs
    ``tab`` into (it lands there by itself), then back to the tournament by the board's link.
    ``resigned`` gets the games resigned against a bot (``to_a_bot`` is set at the first)."""
    page = tab.page
    seen = set(resigned)
    while time.monotonic() < deadline:
        where = await page.evaluate("() => location.hash")
        if where.startswith("#room="):
            room = where[len("#room=") :]
            u = await tab.latest()
            if u and u["room"] == room and u["status"] == "playing" and room not in seen:
                seen.add(room)
                # against a bot, the resignation decides it (two people may resign at once)
                if await resign(tab) and u["seats"][1 - u["you"]]["kind"] == "bot":
                    resigned.append(room)
                    to_a_bot.set()
            elif u and u["room"] == room and u["status"] == "over":
                assert await page.get_attribute("#t-back", "href") == f"#/tournament/{tid}"
                await page.click("#t-back")
        elif await page.evaluate(STATUS) == "finished":
            return
        await asyncio.sleep(0.3)
    raise AssertionError(f"{tab.name}: the tournament did not finish in time")


async def test_two_people_and_bots_play_an_arena_and_see_the_standings_change(
    browser: Browser, server: KibitzServer, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a minute for the first move (berserk, screenshots and the standings checks come before
    # it: under load they outlast the 15 s a bullet game gives, and the game is aborted)
    monkeypatch.setattr(tournament_rooms, "FIRST_MOVE", 60.0)
    ada = await Tab.open(browser, server.url, "Ada", **DESKTOP)
    await sign_up(ada, "Ada", "lime-tree-123")
    bob = await Tab.open(browser, server.url, "Bob", **PHONE)  # a guest, on a phone
    cleo = await Tab.open(browser, server.url, "Cleo", **PHONE)  # watches the standings

    # Ada creates a one-minute chess arena of 15-second games, starting when four have joined
    await open_list(ada)
    assert await ada.page.is_enabled("#t-rated")  # an account may make it rated (not this one)
    await open_list(cleo)
    await fill_form(
        ada.page,
        name="Quick arena",
        game="chess",
        system="arena",
        base="0.25",
        increment="0",
        minutes="1",
        start="full",
        max_players="4",
        berserk=True,
    )
    await ada.page.click("#t-create")
    await ada.page.wait_for_url("**/#/tournament/*")
    tid = ada.page.url.rsplit("/", 1)[1]
    # Cleo's list shows it by itself; she opens it
    await cleo.page.click(f"#tourneys-upcoming [data-tournament='{tid}'] a.title")
    await cleo.page.wait_for_selector("#t-standings")

    # Ada joins and adds two bots; Cleo sees each arrive
    await ada.page.click("#t-join")
    await ada.page.wait_for_selector("#t-withdraw")
    await ada.page.select_option("#t-bot-level", "random")
    for n in (1, 2):
        await ada.page.click("#t-add-bot")
        await cleo.page.wait_for_selector(f"#t-standings tr[data-name='Random bot {n}']")
    assert "Starts when full (3 of 4)" in await cleo.page.inner_text("#t-clock")
    ada_row = cleo.page.locator("#t-standings tr[data-name='Ada']")
    assert await ada_row.locator("a.name").count() == 1  # an account: a link to the profile
    await ada.screenshot(shots, "tournament-upcoming-1280")
    await cleo.screenshot(shots, "tournament-upcoming-390")
    for tab, size in ((ada, DESKTOP), (cleo, PHONE)):
        await assert_fits(tab.page, size["width"], "an upcoming tournament")
        await assert_accessible_names(tab.page)

    # Bob (a guest) joins from the list: the fourth; it starts and pairs both people, who land
    # at their boards by themselves
    await bob.page.click("#to-tournaments")
    await bob.page.click(f"[data-tournament='{tid}'] a.title")
    await bob.page.click("#t-join")
    ua, ub = await asyncio.gather(first_game(ada), first_game(bob))
    for tab in (ada, bob):
        bar = tab.page.locator("#t-bar")  # named once the tournament's view has come
        await expect(bar).to_contain_text("Quick arena", timeout=10000)
        assert await tab.page.get_attribute("#t-back", "href") == f"#/tournament/{tid}"
    await cleo.page.wait_for_selector(".tourney-view[data-status='running']")
    assert all(row[0] == 0 for row in (await points(cleo.page)).values())

    # berserk before the first move: the clock halved (15 s -> 7.5 s, the other's kept), the
    # button gone, the game marked in the tournament
    together = ua["room"] == ub["room"]
    berserker = ada if not together or ua["you"] == 1 else bob  # together: Black goes berserk
    await berserker.page.click("#t-berserk")
    await berserker.page.wait_for_function(
        "() => { const u = window.kibitz.latest(); return u.clock.left[u.you] === 7.5; }"
    )
    u = await berserker.latest()
    assert u["clock"]["left"][1 - u["you"]] == 15
    await berserker.page.wait_for_selector("#t-berserk", state="hidden")
    room = u["room"]
    mark = cleo.page.locator(f"#t-games li[data-room='{room}'] .berserk")
    await mark.wait_for()
    assert await mark.inner_text() == berserker.name
    await ada.screenshot(shots, "tournament-board-1280", full_page=False)
    await bob.screenshot(shots, "tournament-board-390", full_page=False)

    resigned: dict[str, list[str]] = {"Ada": [], "Bob": []}
    if together:  # Fool's Mate: Black (berserk) wins, 2 + 1 points
        white, black = (ada, bob) if ua["you"] == 0 else (bob, ada)
        for tab, move in ((white, "f2f3"), (black, "e7e5"), (white, "g2g4"), (black, "d8h4")):
            await tab.wait_to_act()
            await tab.play(move)
        first_points = {black.name: 3, white.name: 0}
        # over on the server (the pages may already be at their next games: a free player
        # is paired at once, and the page follows)
        hub = server.hub
        assert hub is not None
        for _ in range(300):
            if (await hub.read(ua["room"], "info", {}))["status"] == "over":
                break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the first game did not end")
    else:  # each against a bot: a resignation, the bot's 2 points
        first_points = {"Ada": 0, "Bob": 0}
    # then every game the arena gives them until its end, resigned (the board leads back),
    # while the standings change on Cleo's page, live
    deadline = time.monotonic() + 150
    to_a_bot = {"Ada": asyncio.Event(), "Bob": asyncio.Event()}
    people = asyncio.gather(
        resign_each_game(ada, tid, resigned["Ada"], deadline, to_a_bot["Ada"]),
        resign_each_game(bob, tid, resigned["Bob"], deadline, to_a_bot["Bob"]),
    )
    await cleo.page.wait_for_function(
        """() => [...document.querySelectorAll('#t-standings td.points')]
                   .some(td => Number(td.dataset.points) > 0)"""
    )
    await cleo.screenshot(shots, "tournament-running-390")
    # once each person has resigned a game to a bot, all the arena has to show has happened:
    # its minute is cut short there (the director's end time set to now, as if the clock had
    # run out): it finishes as at the end of its time, the games still running played out
    both = asyncio.ensure_future(asyncio.gather(*(e.wait() for e in to_a_bot.values())))
    await asyncio.wait([both, people], return_when=asyncio.FIRST_COMPLETED)
    both.cancel()
    directed = server.tournaments.director.directed.get(tid)
    if directed is not None and directed.t.ends_at is not None:
        directed.t.ends_at = min(directed.t.ends_at, server.hub.clock())
    await people
    await cleo.page.wait_for_selector(".tourney-view[data-status='finished']", timeout=60000)

    # what the pages show is the server's view, and adds up: the points are the score
    # sheet's, the games the W/D/L's, the first games' points as played
    view = (await api(cleo, f"tournaments/{tid}"))["view"]
    shown = await points(cleo.page)
    assert set(shown) == {"Ada", "Bob", "Random bot 1", "Random bot 2"}
    for row in view["standings"]:
        pts, wins, draws, losses, sheet = shown[row["name"]]
        assert pts == row["points"]
        assert [wins, draws, losses] == [row["wins"], row["draws"], row["losses"]]
        scored = [text for outcome, text, _ in sheet if outcome in "WDL"]  # A: aborted, no points
        assert pts == sum(float(text) for text in scored)
        assert len(scored) == wins + draws + losses
    for name, first in first_points.items():
        assert shown[name][4][0][1] == str(first), (name, shown[name])
    for name in ("Ada", "Bob"):  # every game they resigned to a bot is on their sheet, lost
        sheet = {room: outcome for outcome, _, room in shown[name][4]}
        assert resigned[name] and all(sheet[room] == "L" for room in resigned[name]), (name, sheet)
    berserked = cleo.page.locator(
        f"#t-standings tr[data-name='{berserker.name}'] .sheet-game[data-room='{room}']"
    )
    assert await berserked.get_attribute("class") == "sheet-game berserk" + (
        " zero" if first_points[berserker.name] == 0 else ""
    )
    games = cleo.page.locator("#t-games li")
    assert await games.count() == len(view["games"])
    assert "Finished" in await cleo.page.inner_text("#t-status")
    await ada.screenshot(shots, "tournament-finished-1280")
    await cleo.screenshot(shots, "tournament-finished-390")
    for tab, size in ((ada, DESKTOP), (bob, PHONE), (cleo, PHONE)):
        await assert_fits(tab.page, size["width"], "a finished tournament")
    for tab in (ada, bob, cleo):
        tab.assert_clean()


async def test_pause_come_back_and_the_creators_cancel(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada", **DESKTOP)
    bob = await Tab.open(browser, server.url, "Bob", **PHONE)

    # a round robin starting in half an hour: only its creator may add bots and cancel it
    await open_list(ada)
    await fill_form(ada.page, name="Club round robin", system="round_robin", start="in")
    await ada.page.click("#t-create")
    await ada.page.wait_for_url("**/#/tournament/*")
    robin = ada.page.url.rsplit("/", 1)[1]
    await ada.page.click("#t-join")
    await ada.page.select_option("#t-bot-level", "easy")
    await ada.page.click("#t-add-bot")
    await ada.page.wait_for_selector("#t-standings tr[data-name='Easy bot 1']")
    await bob.page.goto(f"{server.url}#/tournament/{robin}")
    await bob.page.wait_for_selector("#t-standings tr[data-name='Easy bot 1']")
    heads = await bob.page.locator("#t-standings th").all_inner_texts()
    assert heads == ["#", "Player", "Pts", "W/D/L", "BH", "SB"]  # the tie-breaks of a robin
    assert await bob.page.locator("#t-add-bot, #t-cancel").count() == 0
    await bob.page.click("#t-join")  # joins, withdraws before the start (out), joins again
    await bob.page.click("#t-withdraw")
    await bob.page.wait_for_selector("#t-join")
    assert await ada.page.locator("#t-standings tr[data-name='Bob']").count() == 0
    await bob.page.click("#t-join")
    await ada.page.wait_for_selector("#t-standings tr[data-name='Bob']")
    await bob.screenshot(shots, "tournament-robin-390")
    await ada.page.click("#t-cancel")
    await ada.page.click("#t-cancel-yes")
    for tab in (ada, bob):
        await tab.page.wait_for_selector(".tourney-view[data-status='cancelled']")
        assert await tab.page.inner_text("#t-status") == "This tournament was cancelled."
        assert await tab.page.locator("#t-join, #t-withdraw, #t-cancel").count() == 0
    await bob.page.click("#to-tournaments")
    card = bob.page.locator(f"#tourneys-finished [data-tournament='{robin}']")
    assert "Cancelled" in await card.inner_text()

    # an arena with a bot: Ada pauses after her game, is not paired while paused, comes
    # back and is paired again (the pairing takes her to the board by itself)
    await ada.page.click("#to-tournaments")
    await fill_form(
        ada.page,
        name="Pause arena",
        system="arena",
        base="0.25",
        increment="0",
        minutes="5",
        start="full",
        max_players="2",
    )
    await ada.page.click("#t-create")
    await ada.page.wait_for_url("**/#/tournament/*")
    arena = ada.page.url.rsplit("/", 1)[1]
    await ada.page.click("#t-join")
    await ada.page.select_option("#t-bot-level", "random")
    await ada.page.click("#t-add-bot")
    first = (await first_game(ada))["room"]
    assert await resign(ada)
    ended = time.monotonic()
    await ada.page.click("#t-back")  # within the 5 s before the same two meet again
    await ada.page.click("#t-withdraw")
    row = ada.page.locator("#t-standings tr[data-name='Ada']")
    await row.locator(".badge.paused").wait_for()
    await ada.page.wait_for_selector("#t-return")
    # past the wait before the same two meet again (counted from the game's end), and a
    # director's round more: a player not paused would have been paired by now
    await asyncio.sleep(max(0.0, ended + arena_rules.REPEAT_WAIT + 1.5 - time.monotonic()))
    assert ada.page.url.endswith(f"#/tournament/{arena}")
    assert "You are paused" in await ada.page.inner_text("#t-status")
    await ada.screenshot(shots, "tournament-paused-1280")
    await ada.page.click("#t-return")
    second = (await first_game(ada))["room"]
    assert second != first
    # mid-game, to the standings and back: the page offers her game, her seat kept
    await ada.page.click("#t-back")
    await ada.page.click("#t-go-board")
    await ada.page.wait_for_url(f"**/#room={second}")
    await ada.page.wait_for_function("() => window.kibitz.held().length === 1")
    assert await resign(ada)
    for tab in (ada, bob):
        tab.assert_clean()


async def test_an_arena_of_three_seat_tables_on_a_phone(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    """Hase und Igel tables of three, all bots: each finished table lists its places under
    its players, the three sheet entries of its first game share the 6 points of a table of
    three (4, 2, 0 by rank; a tie splits), and the page keeps to the phone's width."""
    ada = await Tab.open(browser, server.url, "Ada", **PHONE)
    await open_list(ada)
    await fill_form(
        ada.page,
        name="Hase tables",
        game="hase_und_igel",
        system="arena",
        seats="3",
        base="0.5",
        increment="0",
        minutes="1",
        start="full",
        max_players="3",
    )
    assert not await ada.page.is_visible("#t-berserk")  # berserk: two-seat arenas only
    await ada.page.click("#t-create")
    await ada.page.wait_for_url("**/#/tournament/*")
    await ada.page.wait_for_function(
        "() => document.querySelector('#t-what').innerText.includes('tables of 3')"
    )
    await ada.page.select_option("#t-bot-level", "random")
    for n in (1, 2, 3):
        await ada.page.click("#t-add-bot")
        await ada.page.wait_for_selector(f"#t-standings tr[data-name='Random bot {n}']")
    table = ada.page.locator("#t-games li.many.over").first
    await table.wait_for(timeout=90000)
    room = await table.get_attribute("data-room")
    places = await table.locator(".result").inner_text()
    assert places.startswith("1. Random bot ") and ", 3. Random bot " in places, places
    entries = ada.page.locator(f"#t-standings .sheet-game[data-room='{room}']")
    assert sorted(await entries.all_inner_texts()) in (
        ["0", "2", "4"],
        ["1", "1", "4"],
        ["0", "3", "3"],
        ["2", "2", "2"],
    )
    await assert_fits(ada.page, PHONE["width"], "an arena of three-seat tables")
    await ada.screenshot(shots, "tournament-tables-390")
    ada.assert_clean()
