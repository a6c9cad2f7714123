"""Resilience: a lost connection reconnects with backoff and resumes exactly (hello with the
session and the last versions seen); a lost session gets its seat back with the stored token."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import Browser, WebSocketRoute

from server.net.app import KibitzServer

from .tabs import Tab


class FlakyNetwork:
    """Carries a page's WebSocket through Playwright so the test can cut it and block it."""

    def __init__(self) -> None:
        self.blocked = False
        self.live: list[tuple[WebSocketRoute, WebSocketRoute]] = []
        self.refused = 0
        self.sent: list[dict[str, Any]] = []

    async def handle(self, ws: WebSocketRoute) -> None:
        if self.blocked:
            self.refused += 1
            await ws.close(code=1001, reason="network down")
            return
        upstream = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            if isinstance(message, str):
                self.sent.append(json.loads(message))
            upstream.send(message)

        ws.on_message(to_server)
        upstream.on_message(lambda message: ws.send(message))
        self.live.append((ws, upstream))

    async def cut(self) -> None:
        self.blocked = True
        for page_side, server_side in self.live:
            await server_side.close()
            await page_side.close(code=1001, reason="network down")
        self.live.clear()


async def test_lost_connection_resumes_exactly(browser: Browser, server: KibitzServer) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    net = FlakyNetwork()
    await ada.context.route_web_socket("**/ws", net.handle)
    await ada.page.reload()  # the page's socket now runs through the flaky network
    await ada.page.wait_for_function("() => window.kibitz.state() === 'online'")
    bob = await Tab.open(browser, server.url, "Bob")
    room = await ada.create_room("chess", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await ada.wait_to_act()
    await ada.play("e2e4")
    await bob.wait_to_act()
    seen = await ada.version()

    # the network goes down; Ada's page notices and keeps retrying; Bob moves meanwhile
    await net.cut()
    await ada.page.wait_for_selector("#conn[data-state='offline']")
    assert "reconnecting" in await ada.status()
    await bob.play("e7e5")
    await asyncio.sleep(0.6)
    assert (await ada.version()) == seen  # she missed it
    assert net.refused >= 1  # ... and retried with backoff

    # the network is back: the next retry resumes the session and catches up
    net.sent.clear()
    net.blocked = False
    await ada.page.wait_for_selector("#conn[data-state='online']", timeout=15000)
    await ada.wait_to_act()
    u = await ada.latest()
    assert u["view"]["last_move"] == "e7e5"
    assert u["you"] == 0
    hello = next(m for m in net.sent if m["type"] == "hello")
    assert hello["session"]
    assert hello["since"][room] == seen
    assert await ada.status() == "Your move"
    await ada.play("g1f3")
    await bob.wait_to_act()
    ada.assert_clean()
    bob.assert_clean()


async def test_lost_session_reclaims_the_seat_with_its_token(
    browser: Browser, server: KibitzServer
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    room = await ada.create_room("chess", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await ada.wait_to_act()
    await ada.play("d2d4")
    # the session is gone (expired, or the secret lost): the stored seat token still works
    await ada.page.evaluate("() => localStorage.removeItem('kibitz.session')")
    await ada.page.reload()
    await ada.wait_room()
    assert (await ada.latest())["you"] == 0
    assert await ada.page.evaluate("() => window.kibitz.held()") == [0]
    await bob.play("d7d5")
    await ada.wait_to_act()
    await ada.play("c2c4")
    assert (await bob.latest())["view"]["last_move"] == "c2c4"
    ada.assert_clean()
    bob.assert_clean()
