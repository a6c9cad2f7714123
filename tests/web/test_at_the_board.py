"""At the board, besides moves: take-backs that only a seat that moved may ask, abort, a
draw offered and accepted, chat (as text, per channel, with a mute), the move list of a
spectator who comes late, the replay with ← and →, the PGN download, sounds, and a rematch
with colours swapped that a spectator can follow."""

from __future__ import annotations

import io
import json
from pathlib import Path

import chess.pgn
from playwright.async_api import Browser, Page

from server.net.app import KibitzServer

from .tabs import Tab

# 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5
GAME = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "f3g5", "d7d5", "e4d5", "f6d5"]
SAN = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "d5", "exd5", "Nxd5"]


async def seat_tags(page: Page) -> list[str]:
    return await page.locator("#seats li .tag").all_inner_texts()


async def chat_texts(page: Page) -> list[str]:
    return await page.locator("#chat-list .chat-text").all_inner_texts()


async def test_draw_chat_replay_pgn_and_rematch(
    browser: Browser, server: KibitzServer, shots: Path, tmp_path: Path
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    room = await ada.create_room("chess", seats=["me", "open"])
    await bob.goto_room(room)
    await bob.sit(1)
    await ada.wait_to_act()
    # before anybody moved: both may abort, nobody may take back
    for tab in (ada, bob):
        assert await tab.page.locator("#abort").count() == 1
        assert await tab.page.locator("#undo").count() == 0
        assert await tab.page.locator("#draw-offer").count() == 1

    await ada.play(GAME[0])
    await bob.wait_to_act()
    # defect: Black was offered "Take back" before Black had moved
    assert await bob.page.locator("#undo").count() == 0
    assert await ada.page.locator("#undo").count() == 1
    assert await bob.page.locator("#abort").count() == 1
    await bob.play(GAME[1])
    await ada.wait_to_act()
    # both have moved: no abort any more, and Black may take back now
    for tab in (ada, bob):
        assert await tab.page.locator("#abort").count() == 0
    assert await bob.page.locator("#undo").count() == 1
    await ada.play(GAME[2])
    await bob.wait_to_act()
    await bob.play(GAME[3])

    # Ada takes back her Nf3 (and Bob's Nc6): the log and the position panel agree
    await ada.wait_to_act()
    await ada.page.click("#undo")
    await bob.page.wait_for_selector("#undo-accept")
    await bob.page.click("#undo-accept")
    await ada.page.wait_for_function("() => window.kibitz.latest().turn === 2")
    log = await ada.page.inner_text("#log")
    assert "back at move 2, White to move" in log, log
    panel = await ada.page.inner_text(".chess-info")
    assert "Move\n2" in panel or "Move\t2" in panel, panel
    assert "turn 4" not in log

    # chat: Ada's markup arrives as text; a spectator's chat does not reach the players
    await ada.page.fill("#chat-input", "<b>good</b> luck & have fun")
    await ada.page.click("#chat-send")
    await bob.page.wait_for_selector("#chat-list .chat-msg")
    assert await chat_texts(bob.page) == ["<b>good</b> luck & have fun"]
    assert await bob.page.locator("#chat-list b").count() == 0
    assert await bob.page.inner_text("#chat-list .chat-channel") == "players"
    # Ada's box empties when her reply comes, which may be after Bob has the message
    await ada.page.wait_for_function("() => document.querySelector('#chat-input').value === ''")
    assert await ada.page.input_value("#chat-input") == ""

    for i in range(2, len(GAME)):
        tab = ada if i % 2 == 0 else bob
        await tab.wait_to_act()
        await tab.play(GAME[i])
    await ada.wait_turn(10)

    # a spectator who comes at move 10 sees moves 1-10, and the chat so far
    eve = await Tab.open(browser, server.url, "Eve")
    await eve.goto_room(room)
    await eve.page.wait_for_function(
        "() => document.querySelectorAll('#move-list [data-ply]').length === 10"
    )
    listed = await eve.page.locator("#move-list [data-ply]").all_inner_texts()
    assert [t.split(" ", 1)[1] for t in listed] == SAN
    assert listed[0] == "1. e4" and listed[9] == "5… Nxd5"
    assert "Nothing has happened yet" not in await eve.page.inner_text("#main")
    await eve.page.wait_for_selector("#chat-list .chat-msg")
    await eve.page.fill("#chat-input", "Eve watching")
    await eve.page.click("#chat-send")
    await eve.page.wait_for_function(
        "() => [...document.querySelectorAll('#chat-list .chat-text')]"
        ".some(e => e.textContent === 'Eve watching')"
    )
    assert await eve.page.locator("#chat-list [data-channel='spectators']").count() == 1
    await bob.page.fill("#chat-input", "thanks")
    await bob.page.click("#chat-send")
    for tab in (ada, bob):
        await tab.page.wait_for_function(
            "() => [...document.querySelectorAll('#chat-list .chat-text')]"
            ".some(e => e.textContent === 'thanks')"
        )
        assert "Eve watching" not in await chat_texts(tab.page)

    # Bob mutes Ada: her messages go, and the choice is kept in localStorage
    await bob.page.click("#chat-list [data-mute='Ada']")
    assert await chat_texts(bob.page) == ["thanks"]
    stored = await bob.page.evaluate("() => localStorage.getItem('kibitz.muted')")
    assert json.loads(stored) == ["Ada"]
    await ada.page.fill("#chat-input", "still there?")
    await ada.page.click("#chat-send")
    await eve.page.wait_for_function(
        "() => [...document.querySelectorAll('#chat-list .chat-text')]"
        ".some(e => e.textContent === 'still there?')"
    )
    assert "still there?" not in await chat_texts(bob.page)

    # sounds: moves and captures were heard; Bob turns his sound off (kept on reload)
    heard = await ada.page.evaluate("() => window.kibitz.sounds()")
    assert "move" in heard and "capture" in heard, heard
    await bob.page.click("#sound-toggle")
    assert await bob.page.inner_text("#sound-toggle") == "Sound off"
    await bob.page.reload()
    await bob.wait_room()
    assert await bob.page.inner_text("#sound-toggle") == "Sound off"

    # Ada offers a draw, Bob accepts
    await ada.page.click("#draw-offer")
    await ada.page.wait_for_selector("#draw-waiting")
    await bob.page.wait_for_selector("#draw-offered")
    assert "Ada (White) offers a draw" in await bob.page.inner_text("#draw-offered")
    await bob.page.click("#draw-accept")
    for tab in (ada, bob, eve):
        final = await tab.wait_over()
        assert final["outcome"]["reason"] == "agreement"
    assert all(t.endswith("drew") for t in await seat_tags(ada.page)), await seat_tags(ada.page)
    assert "rank" not in " ".join(await seat_tags(eve.page))
    heard_ada = await ada.page.evaluate("() => window.kibitz.sounds()")
    assert heard_ada[-1] == "game_end"
    assert "game_end" not in await bob.page.evaluate("() => window.kibitz.sounds()")

    # the replay: ← shows the position before Nxd5, → comes back, a click shows 1. e4
    await ada.page.locator("#moves-h").click()
    assert await ada.page.get_attribute("[data-square='d5']", "aria-label") == (
        "d5: black knight, last move"
    )
    await ada.page.keyboard.press("ArrowLeft")
    await ada.page.wait_for_selector("#move-list li.current [data-ply='9']")
    assert (await ada.page.get_attribute("[data-square='d5']", "aria-label") or "").startswith(
        "d5: white pawn"
    )
    assert await ada.page.locator("svg.board .piece[data-on='f6']").count() == 1
    await ada.page.keyboard.press("ArrowLeft")
    assert await ada.page.locator("svg.board .piece[data-on='d5']").count() == 1  # ...d5
    assert await ada.page.locator("svg.board .piece[data-on='e4']").count() == 1
    await ada.page.keyboard.press("ArrowRight")
    await ada.page.keyboard.press("ArrowRight")
    await ada.page.wait_for_function("() => !document.querySelector('#move-list li.current')")
    assert (await ada.page.get_attribute("[data-square='d5']", "aria-label") or "").startswith(
        "d5: black knight"
    )
    await ada.page.click("#move-list [data-ply='1']")
    assert await ada.page.locator("svg.board .piece[data-on='e2']").count() == 0
    assert await ada.page.locator("svg.board .piece[data-on='e7']").count() == 1
    await ada.page.click("#replay-first")
    assert await ada.page.locator("svg.board .piece[data-on='e2']").count() == 1
    await ada.screenshot(shots, "board-replay-start")
    await ada.page.click("#replay-live")

    # the PGN download parses, with the moves played
    async with ada.page.expect_download() as info:
        await ada.page.click("#download-pgn")
    download = await info.value
    target = tmp_path / "game.pgn"
    await download.save_as(target)
    game = chess.pgn.read_game(io.StringIO(target.read_text()))
    assert game is not None and not game.errors
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    assert sans == SAN
    assert game.headers["Result"] == "1/2-1/2"

    # rematch: Ada asks, Bob accepts; both move to the new room with colours swapped
    await ada.page.click("#rematch")
    await ada.page.wait_for_selector("#rematch-waiting")
    await bob.page.wait_for_selector("#rematch-offered")
    assert "Opponent offers a rematch" in await bob.page.inner_text("#rematch-offered")
    await bob.page.click("#rematch-accept")
    for tab in (ada, bob):
        await tab.page.wait_for_function(f"() => !location.hash.includes('{room}')")
        await tab.wait_room()
    new_room = ada.page.url.split("#room=")[1]
    assert bob.page.url.endswith(new_room)
    await ada.page.wait_for_function("() => window.kibitz.held().length === 1")
    assert await ada.page.evaluate("() => window.kibitz.held()") == [1]
    assert await bob.page.evaluate("() => window.kibitz.held()") == [0]
    stored_room = await ada.page.evaluate("r => localStorage.getItem('kibitz.room.' + r)", new_room)
    tokens = json.loads(stored_room)["tokens"]
    assert list(tokens) == ["1"]
    await bob.wait_to_act()
    assert (await bob.latest())["seats"][0]["name"] == "Bob"
    # the spectator is offered the new room
    await eve.page.wait_for_selector("#follow-rematch")
    await eve.page.click("#follow-rematch")
    await eve.page.wait_for_function(f"() => location.hash.includes('{new_room}')")
    await eve.wait_room()
    assert (await eve.latest())["you"] is None

    # Bob (White now) aborts before anybody moved
    await bob.page.click("#abort")
    final = await ada.wait_over()
    assert final["outcome"]["reason"] == "aborted"
    assert "Aborted" in await ada.status()
    for tab in (ada, bob, eve):
        tab.assert_clean()


async def test_check_and_low_time_sounds(browser: Browser, server: KibitzServer) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    room = await ada.create_room(
        "chess",
        seats=["me", "open"],
        options={"fen": "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"},
        clock={"type": "per_move", "seconds": 11},
    )
    await bob.goto_room(room)
    await bob.sit(1)
    await ada.wait_to_act()
    await ada.play("a1a2")  # the clocks start once each side has moved (as on lichess)
    await bob.wait_to_act()
    await bob.play("e8d8")
    await ada.wait_to_act()
    await ada.play("a2a8")
    # Ada's page may have warned of her own clock while she thought (a slow machine took
    # more than a second): from her move on, only Bob's clock runs
    before = len(await ada.page.evaluate("() => window.kibitz.sounds()"))
    await bob.wait_to_act()
    await bob.page.wait_for_function("() => window.kibitz.sounds().includes('check')")
    # Bob's 11 seconds run below 10: one warning tone, on his page only (his first move had
    # no clock running, so this is his turn's)
    await bob.page.wait_for_function(
        "() => window.kibitz.sounds().includes('low_time')", timeout=15000
    )
    assert "low_time" not in (await ada.page.evaluate("() => window.kibitz.sounds()"))[before:]
    for tab in (ada, bob):
        tab.assert_clean()
