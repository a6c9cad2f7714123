"""At the board in games that hide something: a Dark Chess room made with a spectator
delay and "spectators see everything" from the lobby form, whose spectators' chat does not
reach the players while it runs, a resignation told as won / lost, the record opening at
the end; and the Hase und Igel log (seat lines, plurals, one line per runner)."""

from __future__ import annotations

from playwright.async_api import Browser, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from server.net.app import KibitzServer

from .tabs import Tab


async def has_chat(page: Page, text: str) -> None:
    await page.wait_for_function(
        "t => [...document.querySelectorAll('#chat-list .chat-text')]"
        ".some(e => e.textContent === t)",
        arg=text,
    )


async def test_dark_chess_delay_chat_channels_and_resignation(
    browser: Browser, server: KibitzServer
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    eve = await Tab.open(browser, server.url, "Eve")
    # the lobby form refuses "see everything" without a delay of 2 turns or more
    await ada.page.select_option("#game", "dark_chess")
    await ada.page.set_checked("#opt-see-all", True)
    await ada.page.click("#create-room")
    await ada.page.wait_for_selector(".toast >> text=delay of at least 2 turns")
    assert "#room=" not in ada.page.url
    room = await ada.create_room(
        "dark_chess", seats=["me", "open"], spectator_delay=3, spectators_see_all=True
    )
    settings = (await ada.latest())["settings"]
    assert settings["spectator_delay"] == 3 and settings["spectators_see_all"] is True
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    await ada.wait_to_act()
    await ada.play("e2e4")
    await bob.wait_to_act()
    await bob.play("e7e5")
    await ada.wait_to_act()
    assert "Watching" in await eve.status()
    assert await eve.page.locator("svg.board").count() == 1  # the delayed view is drawn
    # the spectator is told what she sees: everything, late; a player is told nothing
    assert (
        await eve.page.inner_text("#watch-note") == "You watch every player's view, 3 turns late."
    )
    assert await ada.page.is_hidden("#watch-note")
    note = await eve.page.inner_text("#replay-note")
    assert "opens when it ends" in note

    # the spectators' channel does not reach the players while the game runs
    await eve.page.fill("#chat-input", "white should push f4")
    await eve.page.click("#chat-send")
    await has_chat(eve.page, "white should push f4")
    await ada.page.fill("#chat-input", "hello from Ada")
    await ada.page.click("#chat-send")
    for tab in (ada, bob, eve):
        await has_chat(tab.page, "hello from Ada")
    for tab in (ada, bob):
        texts = await tab.page.locator("#chat-list .chat-text").all_inner_texts()
        assert texts == ["hello from Ada"], texts
        assert await tab.page.locator("#chat-list [data-channel='spectators']").count() == 0
    assert await eve.page.locator("#chat-list [data-channel='spectators']").count() == 1

    # Ada resigns: the seats say won and lost (not "rank 2")
    await ada.page.click("#resign")
    await ada.page.click("#resign-yes")
    for tab in (ada, bob, eve):
        await tab.wait_over()
    tags = await ada.page.locator("#seats li .tag").all_inner_texts()
    assert tags[0].endswith("lost") and tags[1].endswith("won"), tags
    assert "rank" not in " ".join(tags)
    # the record opens at the end: both moves in the list, and the PGN to download
    for tab in (ada, eve):
        await tab.page.wait_for_function(
            "() => document.querySelectorAll('#move-list [data-ply]').length === 2"
        )
        assert await tab.page.locator("#move-list [data-ply]").all_inner_texts() == [
            "1. e4",
            "1… e5",
        ]
        assert await tab.page.is_visible("#download-pgn")
    # after the end, a new spectators' message reaches the players too
    await eve.page.fill("#chat-input", "gg")
    await eve.page.click("#chat-send")
    await has_chat(ada.page, "gg")
    for tab in (ada, bob, eve):
        tab.assert_clean()


async def act(tab: Tab, which: str) -> None:
    """Click a Hase und Igel action until the room moves on (a click that lands while the
    page redraws its buttons is tried again; the room's version tells that it took)."""
    before = await tab.version()
    for _ in range(3):
        await tab.page.click(f".hase-actions {which}")
        try:
            await tab.wait_version(before + 1, timeout=5_000)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError(f"{tab.name}: the click on {which} was never taken")


async def play_until_turn(tabs: tuple[Tab, ...], turn: int) -> None:
    """Whoever may act plays its first action until the race has had ``turn`` turns (a
    hare card can give a runner another move, or skip one: no fixed order of seats)."""
    while (await tabs[0].latest())["turn"] < turn:
        for tab in tabs:
            u = await tab.latest()
            if u.get("legal"):
                await act(tab, "[data-move]")
                break
        else:
            await tabs[0].page.wait_for_timeout(100)


async def test_hase_log_lines(browser: Browser, server: KibitzServer) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    room = await ada.create_room("hase_und_igel", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await ada.wait_to_act()
    log = await ada.page.inner_text("#log")
    assert "Bob took seat 2" in log, log  # not "took the seat Seat 2"
    assert "took the seat" not in log
    label = await ada.page.inner_text(".hase-actions [data-move='advance 1']")
    assert label.endswith("for 1 carrot"), label
    assert (await ada.page.inner_text(".hase-actions [data-move='advance 2']")).endswith(
        "for 3 carrots"
    )
    await act(ada, "[data-move='advance 1']")  # a hare field: its card may move Ada again

    # a move whose turn made several runners do something: one log line per runner
    lines = await ada.page.evaluate(
        """async () => {
            const m = await import(new URL('js/boards/hase.js', location.href).href);
            const info = { name: 'hase_und_igel', title: 'Hase und Igel', seat_names: [] };
            const u = { you: 0, seats: [{ name: 'Ada' }, { name: 'Bob' }, { name: 'Cy' }], view: {
                last_seat: 0, last_move: 'advance 1', events: [
                    { seat: 0, kind: 'advance', field: 1, carrots: -1 },
                    { seat: 0, kind: 'card_carrots', carrots: 1, card: 'x' },
                    { seat: 1, kind: 'miss' },
                    { seat: 2, kind: 'eat', carrots: 10 },
                    { seat: 1, kind: 'skip_next' },
                ] } };
            return m.describeHaseMove(info, u);
        }"""
    )
    assert lines == [
        "You: advance 1 · You: +1 carrot (x)",
        "Bob missed a turn · Bob will miss the next turn",
        "Cy ate a salad (+10 carrots)",
    ], lines

    await play_until_turn((ada, bob), 2)

    # a spectator coming in mid-race sees the moves so far (they are public; only the
    # deck order is hidden, and the record leaves out the seed that would tell it)
    eve = await Tab.open(browser, server.url, "Eve")
    await eve.goto_room(room)
    await eve.page.wait_for_selector("#move-list [data-ply='2']")
    listed = await eve.page.locator("#move-list [data-ply]").all_inner_texts()
    assert any("advance 1" in item for item in listed), listed
    assert await eve.page.is_hidden("#replay-note")
    # ...and steps back to a position it never saw live (the room's history fills it in)
    await eve.page.click("#move-list [data-ply='1']")
    await eve.page.wait_for_function(
        "() => document.querySelector('#replay-showing').textContent"
        ".startsWith('Showing the position after move 1 of ')"
    )
    assert "Nothing has happened yet" not in await eve.page.inner_text("#main")
    for tab in (ada, bob, eve):
        tab.assert_clean()


async def test_a_spectator_of_fog_is_told_why(browser: Browser, server: KibitzServer) -> None:
    """Dark Chess watched without "see everything": only what is public, and why."""
    ada = await Tab.open(browser, server.url, "Ada")
    eve = await Tab.open(browser, server.url, "Eve")
    room = await ada.create_room("dark_chess", seats=["me", "open"])
    await eve.goto_room(room, watch=True)
    await eve.page.wait_for_selector("#watch-note:not([hidden])")
    note = await eve.page.inner_text("#watch-note")
    assert note.startswith("Dark Chess hides each player's pieces from the other"), note
    assert "you see only what is public" in note
    assert await ada.page.is_hidden("#watch-note")
    await ada.close()
    await eve.close()
