"""A page object for one browser context (one person): lobby, rooms, board clicks.

Everything a test does goes through the UI (clicks, keys, form fields); the page's read-only
``window.kibitz`` hook is used only to *read* what the page holds (the latest update, the
legal moves it offers) and to wait for it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Browser, BrowserContext, ConsoleMessage, Page, Route

LOCAL_HOSTS = {"127.0.0.1"}
#: every URL but the test server's (and data:, blob:): only these go through the guard, so
#: that the page's own requests (some forty a load) do not each make a round trip to Python
NOT_LOCAL = re.compile(r"^(?!https?://127\.0\.0\.1[:/]|data:|blob:)")


class Tab:
    def __init__(self, context: BrowserContext, page: Page, name: str, base_url: str) -> None:
        self.context = context
        self.page = page
        self.name = name
        self.base_url = base_url
        self.errors: list[str] = []
        self.external: list[str] = []
        self.watch(page)

    # -- opening --------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        browser: Browser,
        base_url: str,
        name: str,
        *,
        path: str = "",
        width: int = 1280,
        height: int = 900,
    ) -> Tab:
        context = await browser.new_context(viewport={"width": width, "height": height})
        page = await context.new_page()
        tab = cls(context, page, name, base_url)
        await context.route(NOT_LOCAL, tab._guard)
        await page.goto(base_url + path)
        await page.wait_for_function("() => window.kibitz && window.kibitz.state() === 'online'")
        await page.fill("#player-name", name)
        await page.dispatch_event("#player-name", "change")
        return tab

    def watch(self, page: Page) -> None:
        """Record console errors, page errors and WebSockets to other hosts of ``page``."""
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("websocket", self._on_websocket)

    def _on_console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.errors.append(f"console: {msg.text}")

    def _on_websocket(self, ws: Any) -> None:
        if urlsplit(ws.url).hostname not in LOCAL_HOSTS:
            self.external.append(ws.url)

    async def _guard(self, route: Route) -> None:
        url = route.request.url
        host = urlsplit(url).hostname
        if url.startswith(("data:", "blob:")) or host in LOCAL_HOSTS:
            await route.continue_()
        else:
            self.external.append(url)
            await route.abort()

    async def new_page(self, path: str) -> Page:
        """A second tab in the same context (same localStorage, same person)."""
        page = await self.context.new_page()
        self.watch(page)
        await page.goto(self.base_url + path)
        await page.wait_for_function("() => window.kibitz && window.kibitz.state() === 'online'")
        return page

    def assert_clean(self) -> None:
        assert not self.external, f"{self.name}: requests left localhost: {self.external}"
        assert not self.errors, f"{self.name}: console errors: {self.errors}"

    async def close(self) -> None:
        await self.context.close()

    # -- lobby ----------------------------------------------------------------------------

    async def create_room(
        self,
        game: str,
        *,
        seats: list[str] | None = None,
        options: dict[str, Any] | None = None,
        undo: bool | None = None,
        clock: dict[str, Any] | None = None,
        on_timeout: str | None = None,
        spectator_delay: int | None = None,
        spectators_see_all: bool | None = None,
    ) -> str:
        """Fill the lobby form and create a room; ``seats`` per seat: "me" or "open".

        ``clock`` as in the protocol, but a Fischer ``base`` in minutes (as the form asks).
        """
        page = self.page
        if "#room=" in page.url:
            await page.click("#to-lobby")
        await page.wait_for_selector("#create-room")
        await page.select_option("#game", game)
        if seats is not None and await page.locator("#seat-count").count():
            await page.fill("#seat-count", str(len(seats)))
            await page.dispatch_event("#seat-count", "change")
        for name, value in (options or {}).items():
            field = page.locator(f"[data-option='{name}']")
            if await field.evaluate("el => el.tagName") == "SELECT":
                await field.select_option(str(value))
            elif isinstance(value, bool):
                await field.set_checked(value)
            else:
                if not await field.is_visible():
                    await page.click("details.advanced summary")
                await field.fill(str(value))
        for seat, who in enumerate(seats or []):
            await page.select_option(f"#seat-{seat}", who)
        if undo is not None:
            await page.set_checked("#opt-undo", undo)
        if clock is not None:
            await page.select_option("#clock-type", clock["type"])
            if clock["type"] == "fischer":
                await page.fill("#clock-base", str(clock["base"]))
                await page.fill("#clock-increment", str(clock.get("increment", 0)))
            else:
                await page.fill("#clock-seconds", str(clock["seconds"]))
        if on_timeout is not None:
            await page.select_option("#clock-on-timeout", on_timeout)
        if spectator_delay is not None:
            await page.fill("#opt-spectator-delay", str(spectator_delay))
        if spectators_see_all is not None:
            await page.set_checked("#opt-see-all", spectators_see_all)
        await page.click("#create-room")
        await page.wait_for_url("**/#room=*")
        room = page.url.split("#room=")[1]
        await self.wait_room()
        return room

    async def goto_room(self, room: str, *, watch: bool = False) -> None:
        await self.page.goto(f"{self.base_url}#room={room}{'&watch' if watch else ''}")
        await self.wait_room()

    async def wait_room(self) -> None:
        await self.page.wait_for_function("() => window.kibitz.latest() !== null")

    async def sit(self, seat: int) -> None:
        """Take a seat from the room page."""
        await self.page.click(f"#seats [data-take-seat='{seat}']")
        await self.page.wait_for_function("s => window.kibitz.held().includes(s)", arg=seat)

    # -- reading --------------------------------------------------------------------------

    async def latest(self) -> dict[str, Any]:
        data = await self.page.evaluate("() => JSON.stringify(window.kibitz.latest())")
        return json.loads(data)

    async def play_listed(self, text: str) -> None:
        """Play ``text`` from the list of every legal move (a move with no squares to click,
        or one named as the room lists it)."""
        before = await self.version()
        await self.page.locator("#legal-list").evaluate("d => { d.open = true; }")
        await self.page.click(f"#legal-list [data-legal='{text}']")
        await self.wait_version(before + 1)

    async def legal(self) -> list[str]:
        return list(await self.page.evaluate("() => window.kibitz.legal()"))

    async def version(self) -> int:
        return int(await self.page.evaluate("() => window.kibitz.latest().version"))

    async def wait_version(self, version: int, timeout: float | None = None) -> None:
        await self.page.wait_for_function(
            "v => { const u = window.kibitz.latest(); return u && u.version >= v; }",
            arg=version,
            timeout=timeout,
        )

    async def wait_turn(self, turn: int) -> None:
        await self.page.wait_for_function(
            "t => { const u = window.kibitz.latest(); return u && u.turn >= t; }", arg=turn
        )

    async def wait_to_act(self) -> None:
        """Until this page offers legal moves (it is our turn and we have not sealed)."""
        await self.page.wait_for_function(
            "() => { const u = window.kibitz.latest(); return u && u.legal && u.legal.length > 0; }"
        )

    async def wait_over(self) -> dict[str, Any]:
        await self.page.wait_for_function(
            "() => { const u = window.kibitz.latest(); return u && u.status === 'over'; }"
        )
        await self.page.wait_for_selector("#gameover:not([hidden])")
        return await self.latest()

    async def status(self) -> str:
        return (await self.page.inner_text("#status")).strip()

    async def wait_status(self, text: str) -> None:
        """Until the status line holds ``text``: right after a reload the first update may be
        drawn before the game's seat names are known ("Bob", then "Bob (Black)")."""
        await self.page.wait_for_function(
            "t => document.querySelector('#status').innerText.includes(t)", arg=text
        )

    # -- acting ---------------------------------------------------------------------------

    async def click_square(self, square: str) -> None:
        await self.page.click(f"svg.board [data-square='{square}']")

    async def play(self, text: str) -> None:
        """Play a from-to move by clicking its two squares (chess, Apocalypse, BanQi)."""
        before = await self.version()
        if text.startswith("flip "):
            await self.click_square(text[5:])
        else:
            banqi = len(text) == 5 and text[2] in "-x"
            await self.click_square(text[:2])
            await self.click_square(text[3:5] if banqi else text[2:4])
        await self.wait_version(before + 1)

    async def screenshot(self, shots: Path, name: str, *, full_page: bool = True) -> Path:
        path = shots / f"{name}.png"
        await self.page.wait_for_function("() => document.getAnimations().length === 0")
        await self.page.screenshot(path=str(path), full_page=full_page)
        return path
