"""Chess in the browser: two people and a spectator, clicks and drags, take-back, reload,
promotion, keyboard play, resignation."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser

from server.net.app import KibitzServer

from .tabs import Tab


async def test_fools_mate_with_spectator_takeback_and_reload(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    eve = await Tab.open(browser, server.url, "Eve")
    room = await ada.create_room("chess", seats=["me", "open"])
    assert await ada.page.input_value("#room-link") == f"{server.url}#room={room}"
    assert "Waiting for 1 more player" in await ada.status()

    # Bob follows the shared link and sits down; Eve follows it and watches
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    await ada.wait_to_act()
    assert await ada.status() == "Your move"
    assert "Waiting for Ada (White)" in await bob.status()
    assert "Watching" in await eve.status()
    assert await eve.page.locator("#resign").count() == 0

    # 1. e4 by clicks; the target squares are highlighted once e2 is selected
    await ada.click_square("e2")
    targets = await ada.page.locator("svg.board .sq.target").evaluate_all(
        "els => els.map(e => e.dataset.square).sort()"
    )
    assert targets == ["e3", "e4"]
    await ada.click_square("e4")
    await bob.wait_turn(1)
    await eve.wait_turn(1)
    assert await eve.page.get_attribute("[data-square='e4']", "aria-label") == (
        "e4: white pawn, last move"
    )

    # Ada takes it back, Bob accepts
    await ada.page.click("#undo")
    await bob.page.wait_for_selector("#undo-accept")
    await bob.page.click("#undo-accept")
    await ada.wait_to_act()
    assert (await ada.latest())["turn"] == 0
    assert await ada.page.locator("svg.board .piece[data-on='e2']").count() == 1

    # 1. f3 e5 2. g4 (Bob drags his pawn) ...
    await ada.play("f2f3")
    await bob.wait_to_act()
    before = await bob.version()
    src = await bob.page.locator("[data-square='e7']").bounding_box()
    dst = await bob.page.locator("[data-square='e5']").bounding_box()
    assert src and dst
    await bob.page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    await bob.page.mouse.down()
    await bob.page.mouse.move(dst["x"] + 10, dst["y"] + 10, steps=5)
    await bob.page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=3)
    await bob.page.mouse.up()
    await bob.wait_version(before + 1)
    assert (await bob.latest())["view"]["last_move"] == "e7e5"
    await ada.wait_to_act()
    await ada.play("g2g4")

    # Ada reloads mid-game: the session resumes her seat, exactly where it was
    version = await ada.version()
    await ada.page.reload()
    await ada.wait_room()
    await ada.wait_version(version)
    assert (await ada.latest())["you"] == 0
    await ada.wait_status("Waiting for Bob (Black)")

    # ... 2... Qh4#
    await bob.wait_to_act()
    await ada.screenshot(shots, "chess-before-mate")
    await bob.play("d8h4")
    for tab in (ada, bob, eve):
        final = await tab.wait_over()
        assert final["outcome"]["reason"] == "checkmate"
        assert final["outcome"]["winner"] == 1
    assert "Bob (Black) wins" in await ada.status()
    assert "You win" in await bob.status()
    assert "checkmate" in await eve.page.inner_text("#gameover")
    assert "check" in (await ada.page.get_attribute("[data-square='e1']", "class") or "")
    await bob.screenshot(shots, "chess-mate-black")
    await eve.screenshot(shots, "chess-mate-spectator")
    for tab in (ada, bob, eve):
        tab.assert_clean()
    # the game reached every page as deltas (protocol 2), none lost, and what they built is
    # the room as a fresh full update shows it
    for tab in (bob, eve):
        counts = await tab.page.evaluate("() => window.kibitz.deltas()")
        assert counts["applied"] >= 3 and counts["gaps"] == 0, counts
    built = {k: v for k, v in (await eve.latest()).items() if k != "events"}
    await eve.page.reload()
    await eve.wait_room()
    await eve.wait_version(built["version"])
    fresh = {k: v for k, v in (await eve.latest()).items() if k != "events"}
    assert built == fresh


async def test_promotion_keyboard_and_resignation(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob", width=375, height=760)
    room = await ada.create_room(
        "chess", seats=["me", "open"], options={"fen": "k7/4P3/8/8/8/8/P7/4K3 w - - 0 1"}
    )
    await bob.goto_room(room)
    await bob.sit(1)
    await ada.wait_to_act()

    # e7-e8 asks which piece; Ada picks a knight
    await ada.click_square("e7")
    await ada.click_square("e8")
    await ada.page.wait_for_selector(".promo [data-promo='n']")
    await ada.screenshot(shots, "chess-promotion-picker", full_page=False)
    await ada.page.click(".promo [data-promo='n']")
    await bob.wait_to_act()
    assert (await bob.latest())["view"]["last_move"] == "e7e8n"
    label = await bob.page.get_attribute("[data-square='e8']", "aria-label")
    assert label == "e8: white knight, last move"

    # Bob (phone width, board turned for Black) plays Ka8-b7 with the keyboard only
    await bob.page.focus("svg.board [data-square='a8']")
    await bob.page.keyboard.press("Enter")
    await bob.page.keyboard.press("ArrowLeft")  # the board is turned: b8 is to the left
    await bob.page.keyboard.press("ArrowUp")  # ... and rank 7 above rank 8
    focused = await bob.page.evaluate("() => document.activeElement.dataset.square")
    assert focused == "b7"
    before = await bob.version()
    await bob.page.keyboard.press("Enter")
    await bob.wait_version(before + 1)
    assert (await bob.latest())["view"]["last_move"] == "a8b7"
    await bob.screenshot(shots, "chess-phone-black")

    # Ada resigns (with a confirmation)
    await ada.wait_to_act()
    await ada.page.click("#resign")
    await ada.page.click("#resign-yes")
    final = await bob.wait_over()
    assert final["outcome"]["reason"] == "resignation"
    assert final["outcome"]["winner"] == 1
    assert "You win — resignation" in await bob.status()
    ada.assert_clean()
    bob.assert_clean()


async def test_hotseat_both_seats_in_one_browser(browser: Browser, server: KibitzServer) -> None:
    """One person holding both seats plays each side in turn; the board follows the mover."""
    ada = await Tab.open(browser, server.url, "Ada")
    room = await ada.create_room("chess", seats=["me", "me"])
    assert await ada.page.evaluate("() => window.kibitz.held()") == [0, 1]
    await ada.wait_to_act()
    assert (await ada.latest())["you"] == 0
    await ada.play("e2e4")
    await ada.page.wait_for_function("() => window.kibitz.latest().you === 1")
    # Black's turn: the board is turned for Black (a8 is now in the bottom right corner)
    box8 = await ada.page.locator("[data-square='a8']").bounding_box()
    box1 = await ada.page.locator("[data-square='a1']").bounding_box()
    assert box8 and box1 and box8["y"] > box1["y"] and box8["x"] > box1["x"] - 1
    await ada.play("e7e5")
    await ada.page.wait_for_function("() => window.kibitz.latest().you === 0")
    assert (await ada.latest())["view"]["last_san"] == "e5"
    assert room in ada.page.url
    ada.assert_clean()
