"""Names in the browser: a guest cancels their own seek (it was offered to them to "Play");
logged in, the header shows the account and no guest name; a guest's seat and chat lines
carry a "guest" badge, an account's never; a guest cannot take an account's name. Lobby and
room at 390x844 and 1280x800, no page wider than the screen."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Page

from server.net.app import KibitzServer

from .tabs import Tab
from .test_accounts import sign_up

SIZES = [(390, 844), (1280, 800)]


async def assert_fits(page: Page) -> None:
    width = await page.evaluate("() => document.documentElement.scrollWidth")
    inner = await page.evaluate("() => window.innerWidth")
    assert width <= inner, f"the page is {width} px wide on a {inner} px screen"


async def test_a_guest_cancels_their_own_seek(browser: Browser, server: KibitzServer) -> None:
    gus = await Tab.open(browser, server.url, "Gus")
    other = await Tab.open(browser, server.url, "Olga")
    await gus.page.fill("input[name=seek-minutes]", "3")
    await gus.page.click("[data-action=seek]")
    for tab in (gus, other):
        await tab.page.locator(".seek-list .seek").first.wait_for()
    # the poster's row offers Cancel, everybody else's Play
    assert await gus.page.locator(".seek-list [data-cancel]").count() == 1
    assert await gus.page.locator(".seek-list [data-accept]").count() == 0
    assert await other.page.locator(".seek-list [data-accept]").count() == 1
    await gus.page.click(".seek-list [data-cancel]")
    await other.page.wait_for_selector(".seek-list .empty-note")
    await gus.page.wait_for_selector(".seek-list .empty-note")
    assert not gus.errors and not other.errors
    for tab in (gus, other):
        await tab.close()


async def test_logged_in_the_header_shows_only_the_account(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Player 123")
    assert await ada.page.locator("#player-name").is_visible()
    await sign_up(ada, "Ada", "lime-tree-123")
    await ada.page.wait_for_selector("#player-name", state="hidden")
    header = await ada.page.locator("header.top").inner_text()
    assert "Ada" in header and "Player 123" not in header and "Your name" not in header
    for width, height in SIZES:
        await ada.page.set_viewport_size({"width": width, "height": height})
        await assert_fits(ada.page)
        await ada.screenshot(shots, f"names-lobby-account-{width}", full_page=False)
    assert not ada.errors
    await ada.close()


async def test_guests_are_marked_in_seats_and_chat(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    await sign_up(ada, "Ada", "lime-tree-123")
    gus = await Tab.open(browser, server.url, "Gus")
    room = await gus.create_room("chess", seats=["me", "open"])
    await ada.goto_room(room)
    await ada.sit(1)
    for tab in (ada, gus):
        await tab.page.wait_for_function("() => window.kibitz.latest().status === 'playing'")
    seats = gus.page.locator("#seats .seat")
    await seats.nth(1).get_by_text("Ada").wait_for()
    assert await seats.nth(0).locator(".badge-guest").count() == 1  # Gus
    assert await seats.nth(1).locator(".badge-guest").count() == 0  # Ada's account
    for tab, text in ((gus, "hello from a guest"), (ada, "hello from an account")):
        await tab.page.fill("#chat-input", text)
        await tab.page.click("#chat-send")
    lines = ada.page.locator("#chat-list .chat-msg")
    await lines.nth(1).wait_for()
    assert await lines.nth(0).locator(".badge-guest").count() == 1
    assert await lines.nth(1).locator(".badge-guest").count() == 0
    for width, height in SIZES:
        await gus.page.set_viewport_size({"width": width, "height": height})
        await assert_fits(gus.page)
        await gus.screenshot(shots, f"names-room-{width}", full_page=False)
    # a guest may not take an account's name: refused, said so
    impostor = await Tab.open(browser, server.url, "ada")
    await impostor.goto_room(room)
    await impostor.page.click("#to-lobby")
    await impostor.page.wait_for_selector("#create-room")
    await impostor.page.select_option("#game", "chess")
    await impostor.page.select_option("#seat-0", "me")
    await impostor.page.click("#create-room")
    toast = impostor.page.locator("#toasts")
    await toast.get_by_text("registered player's name").wait_for()
    await impostor.screenshot(shots, "names-impostor-1280", full_page=False)
    for tab in (ada, gus, impostor):
        await tab.close()
