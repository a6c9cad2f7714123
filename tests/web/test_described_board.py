"""The board described as data (web/js/boards/described.js) in the browser.

Every registered game whose board is "grid" is played to its end by two people clicking on
the board (a third tab watches): the squares, the terrain, the turned board of the second
seat, the last-move marks, the accessible labels and a move made with the arrow keys are
checked on the way. A toy game (gridtoy.py) plays the gestures the real games do not use: a
drop from the hand, an action on a square, a choice, a pass, a board turned a quarter.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page

from server.engine import REGISTRY, Game, Registry, grid
from server.net.app import KibitzServer

from ..rps import RockPaperScissors
from .gridtoy import GridToy
from .tabs import Tab

GRID_GAMES = [g.name for g in REGISTRY if g.board == "grid" and g.min_seats <= 2 <= g.max_seats]
PLY_CAP = 200
PLAY_SECONDS = 5.0  # then the side to move resigns (the checks are of the first dozen plies)
#: room options that make a game short (the smallest board)
QUICK_OPTIONS: dict[str, dict[str, Any]] = {"ming_mang": {"size": 8}}
PHONE_W, PHONE_H = 390, 844


@pytest.fixture(scope="module")
def registry() -> Registry:
    """The real games, the test-only rock-paper-scissors and the grid toy."""
    reg = Registry()
    for game in REGISTRY:
        reg.add(game)
    reg.add(RockPaperScissors())
    reg.add(GridToy())
    return reg


# -- reading the board ----------------------------------------------------------------------


async def classes(page: Page, square: str) -> list[str]:
    return (await page.get_attribute(f"svg.board [data-square='{square}']", "class") or "").split()


async def label(page: Page, square: str) -> str:
    return await page.get_attribute(f"svg.board [data-square='{square}']", "aria-label") or ""


async def positions(page: Page) -> dict[str, tuple[float, float]]:
    """Square -> (x, y) of its top-left corner in board units, as drawn."""
    raw = await page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('svg.board .sq')].map(g =>
             [g.dataset.square, g.getAttribute('transform').match(/[-\\d.]+/g).map(Number)]))"""
    )
    return {sq: (xy[0], xy[1]) for sq, xy in raw.items()}


def edge_squares(edge: str, files: int, ranks: int) -> list[str]:
    if edge in ("south", "north"):
        r = 0 if edge == "south" else ranks - 1
        return [grid.square_name(f, r) for f in range(files)]
    f = 0 if edge == "west" else files - 1
    return [grid.square_name(f, r) for r in range(ranks)]


async def assert_edge_at_bottom(tab: Tab, desc: dict[str, Any], edge: str) -> None:
    pos = await positions(tab.page)
    assert len(pos) == desc["files"] * desc["ranks"]
    bottom = max(y for _, y in pos.values())
    squares = edge_squares(edge, desc["files"], desc["ranks"])
    assert {pos[sq][1] for sq in squares} == {bottom}, f"{tab.name}: {edge} is not at the bottom"
    assert len({pos[sq][0] for sq in squares}) == len(squares)


async def assert_drawn(tab: Tab, desc: dict[str, Any]) -> None:
    """Squares, terrain fills, pieces' labels and last-move marks as the description says."""
    page = tab.page
    assert await page.locator("svg.board.described .sq").count() == desc["files"] * desc["ranks"]
    filled = {
        sq: next(t for t in names if desc["terrain"].get(t, {}).get("fill"))
        for sq, names in desc["cells"].items()
        if any(desc["terrain"].get(t, {}).get("fill") for t in names)
    }
    drawn = await page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('svg.board .sq')]
             .filter(g => g.querySelector('.terrain'))
             .map(g => { const r = g.querySelector('.terrain');
                         return [g.dataset.square, [r.dataset.terrain, r.getAttribute('fill')]];
                       }))"""
    )
    assert drawn == {sq: [t, desc["terrain"][t]["fill"]] for sq, t in filled.items()}
    for sq, names in desc["cells"].items():
        drawn_classes = await classes(page, sq)
        assert all(f"t-{t}" in drawn_classes for t in names)
    labels = await page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('svg.board .sq')]
             .map(g => [g.dataset.square, g.getAttribute('aria-label')]))"""
    )
    for sq, p in desc["pieces"].items():
        assert labels[sq].startswith(f"{sq}: "), labels[sq]
        assert p["label"] in labels[sq]
    for sq, label in labels.items():
        if sq not in desc["pieces"]:
            assert label.startswith(f"{sq}: empty"), label
    last = await page.evaluate(
        "() => [...document.querySelectorAll('svg.board .sq.last')].map(g => g.dataset.square)"
    )
    assert sorted(last) == sorted(desc["last"])
    status = await page.inner_text(".grid-status")
    assert status == desc["status"]


# -- acting ---------------------------------------------------------------------------------


async def play(tab: Tab, text: str) -> None:
    """Play a move text the way a person does it on the board."""
    before = await tab.version()
    page = tab.page
    g = grid.gesture(text)
    if g is None or g.kind == "pass":
        await page.click(f".grid-actions button[data-move='{text}']")
    elif g.kind == "act":
        assert g.src
        await tab.click_square(g.src)
        # the square offers moves too: a second click acts
        if "selected" in await classes(page, g.src):
            await tab.click_square(g.src)
    elif g.kind == "drop":
        assert g.dst
        await page.click(f".hands button.hand-piece[data-letter='{g.letter}']")
        await page.wait_for_selector(f"svg.board .sq.target[data-square='{g.dst}']")
        await tab.click_square(g.dst)
    else:
        assert g.src and g.dst
        await tab.click_square(g.src)
        await tab.click_square(g.dst)
        if g.choice:
            await page.click(f".promo button[data-choice='{g.choice}']")
        elif await page.locator(".promo").count():  # the same squares with a choice too
            await page.click(".promo button[data-choice='-']")
    await tab.wait_version(before + 1)


async def play_by_keys(tab: Tab, text: str) -> None:
    """Play a from-to move with the arrow keys and Enter only."""
    g = grid.gesture(text)
    assert g and g.kind == "move" and g.src and g.dst
    before = await tab.version()
    page = tab.page
    pos = await positions(page)
    await page.focus(f"svg.board [data-square='{g.src}']")
    await page.keyboard.press("Enter")
    assert "selected" in (await classes(page, g.src))
    dx = round((pos[g.dst][0] - pos[g.src][0]) / 100)
    dy = round((pos[g.dst][1] - pos[g.src][1]) / 100)
    for _ in range(abs(dx)):
        await page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        await page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    focused = await page.evaluate("() => document.activeElement.dataset.square")
    assert focused == g.dst
    await page.keyboard.press("Enter")
    await tab.wait_version(before + 1)


FAR = {"south": "north", "north": "south", "west": "east", "east": "west"}


def choose(desc: dict[str, Any], legal: list[str], seat: int, previous: str | None) -> str:
    """A move that ends the game soon: into a den or the far line, a capture, forward."""
    files, ranks = desc["files"], desc["ranks"]
    far = FAR[desc["seats"][seat]["edge"]]

    def toward(sq: str) -> int:
        f, r = grid.parse_square(sq, files, ranks)
        return {"north": r, "south": ranks - 1 - r, "east": f, "west": files - 1 - f}[far]

    def score(text: str) -> float:
        g = grid.gesture(text)
        if g is None or g.kind == "pass" or g.dst is None:
            return -1000.0
        value = 100.0 * g.capture + 3 * toward(g.dst)
        if g.src:
            value += toward(g.dst) - toward(g.src)
            if previous and grid.gesture(previous) and grid.gesture(previous).src == g.dst:  # type: ignore[union-attr]
                value -= 20  # do not walk straight back
        if any(t.startswith("den") for t in desc["cells"].get(g.dst, [])):
            value += 1000
        if toward(g.dst) == (ranks if far in ("north", "south") else files) - 1:
            value += 50
        return value

    return max(legal, key=score)


class Mirror:
    """The test's own copy of a game, played move for move beside the room, to see which
    move takes most (material by the game's evaluate) and which one wins at once. Used only
    while its board matches the room's; when it does not, :func:`choose` decides alone."""

    def __init__(self, game: Game[Any, Any], options: dict[str, Any], n_seats: int) -> None:
        self.game = game
        self.state = game.new(options, n_seats, random.Random(0))
        self.rng = random.Random(0)

    def play(self, seat: int, text: str) -> None:
        move = self.game.parse_move(self.state, seat, text)
        self.state = self.game.play(self.state, {seat: move}, self.rng)

    def matches(self, desc: dict[str, Any]) -> bool:
        return bool(self.game.view(self.state, None)["grid"]["pieces"] == desc["pieces"])

    def gain(self, seat: int, text: str) -> float:
        """How much better ``seat`` stands after ``text`` (a win: very much)."""
        game, state = self.game, self.state
        after = game.play(state, {seat: game.parse_move(state, seat, text)}, self.rng)
        done = game.outcome(after)
        if done is not None:
            return 10_000.0 * (done.scores[seat] - 0.5)
        if not hasattr(game, "evaluate"):
            return 0.0
        before, now = game.evaluate(state, seat), game.evaluate(after, seat)
        mine = now[seat] - before[seat]
        others = sum(now[s] - before[s] for s in range(len(now)) if s != seat)
        return float(mine - others / max(1, len(now) - 1))


def choose_with(
    mirror: Mirror | None, desc: dict[str, Any], legal: list[str], seat: int, previous: str | None
) -> str:
    """:func:`choose`, but a move that wins or gains material first when the mirror knows."""
    if mirror is None or not mirror.matches(desc):
        return choose(desc, legal, seat, previous)
    gains = {text: mirror.gain(seat, text) for text in legal}
    best = max(gains.values())
    if best <= 0.01:
        return choose(desc, legal, seat, previous)
    return choose(desc, [t for t, g in gains.items() if g >= best - 0.01], seat, previous)


# -- the games ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GRID_GAMES)
async def test_a_whole_game_by_clicks(
    browser: Browser, server: KibitzServer, shots: Path, game: str
) -> None:
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob")
    eve = await Tab.open(browser, server.url, "Eve", width=PHONE_W, height=PHONE_H)
    options = QUICK_OPTIONS.get(game, {})
    room = await ada.create_room(game, seats=["me", "open"], options=options)
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    tabs = (ada, bob)
    mirror = Mirror(REGISTRY.get(game), options, 2)
    u = await eve.latest()
    desc = u["view"]["grid"]
    for tab in (ada, bob, eve):
        await tab.page.wait_for_selector("svg.board.described")
        await assert_drawn(tab, desc)
    await assert_edge_at_bottom(ada, desc, desc["seats"][0]["edge"])
    await assert_edge_at_bottom(bob, desc, desc["seats"][1]["edge"])  # the board is turned
    await assert_edge_at_bottom(eve, desc, desc["seats"][0]["edge"])
    if game == "jungle":
        assert sum("water" in t for t in desc["cells"].values()) >= 12
        assert await ada.page.locator("svg.board .sq.t-water rect.terrain").count() >= 12
        assert await ada.page.locator(".legend li[data-terrain='water']").count() == 1
    if game == "kamisado":
        assert await ada.page.locator("svg.board .sq rect.terrain").count() == 64
    seat_colour = await ada.page.locator("#seats li[data-seat='1'] .chip").evaluate(
        "el => getComputedStyle(el).backgroundColor"
    )
    hexes = desc["seats"][1]["colour"].lstrip("#")
    assert seat_colour == "rgb({}, {}, {})".format(*(int(hexes[i : i + 2], 16) for i in (0, 2, 4)))

    previous: dict[int, str] = {}
    keyed = False
    started = time.monotonic()
    for ply in range(PLY_CAP):
        u = await eve.latest()
        enough = keyed and ply > 3 and time.monotonic() - started > PLAY_SECONDS
        if u["status"] == "over" or enough:
            break
        seat = u["to_act"][0]
        mover = tabs[seat]
        await mover.wait_to_act()
        legal = await mover.legal()
        mine = (await mover.latest())["view"]["grid"]
        text = choose_with(mirror, mine, legal, seat, previous.get(seat))
        g = grid.gesture(text)
        if not keyed and seat == 1 and g and g.kind == "move" and not g.choice:
            await play_by_keys(mover, text)
            keyed = True
        else:
            await play(mover, text)
        previous[seat] = text
        mirror.play(seat, text)
        await eve.wait_turn(ply + 1)
        if ply % 5 == 1:
            after = (await eve.latest())["view"]["grid"]
            await assert_drawn(eve, after)
            assert after["last"], "a move leaves its mark"
            entry = await eve.page.inner_text("#log li:first-child")
            said = (await eve.latest())["view"].get("last_move")
            assert entry.endswith(f": {said if isinstance(said, str) else text}"), entry
        if ply == 3:
            await ada.screenshot(shots, f"described-{game}-desktop")
            await bob.screenshot(shots, f"described-{game}-desktop-second-seat")
            await eve.screenshot(shots, f"described-{game}-phone")
            right = await eve.page.locator("svg.board").evaluate(
                "el => el.getBoundingClientRect().right"
            )
            assert right <= PHONE_W, "the board overflows a phone"
    u = await eve.latest()
    if u["status"] != "over":  # the cap: the side to move resigns
        await tabs[u["to_act"][0]].page.click("#resign")
        await tabs[u["to_act"][0]].page.click("#resign-yes")
    assert keyed, "no move was played with the keys"
    final = await eve.wait_over()
    for tab in tabs:
        assert (await tab.wait_over())["outcome"] == final["outcome"]
    own = await ada.page.inner_text("#log")
    assert "You: " in own
    for tab in (ada, bob, eve):
        tab.assert_clean()


async def test_every_gesture_on_a_board_turned_a_quarter(
    browser: Browser, server: KibitzServer, shots: Path
) -> None:
    """The toy: a drop, an action, a choice, passes and keys, on boards with the west and
    east edges at the bottom."""
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob", width=PHONE_W, height=PHONE_H)
    eve = await Tab.open(browser, server.url, "Eve")
    room = await ada.create_room("gridtoy", seats=["me", "open"], options={"sides": "west-east"})
    await bob.goto_room(room)
    await bob.sit(1)
    await eve.goto_room(room)
    desc = (await eve.latest())["view"]["grid"]
    for tab in (ada, bob, eve):
        await tab.page.wait_for_selector("svg.board.described")
        await assert_drawn(tab, desc)
    await assert_edge_at_bottom(ada, desc, "west")
    await assert_edge_at_bottom(bob, desc, "east")
    await assert_edge_at_bottom(eve, desc, "west")
    page = ada.page
    # two terrains on c4: the first fills it, the second is a corner of it; the legend
    assert await page.locator("svg.board [data-square='c4'] .terrain").count() == 2
    legend = await page.locator(".legend li").all_inner_texts()
    assert [t.strip() for t in legend] == ["Pool", "Gate", "Moss"]
    assert await label(page, "a1") == "a1: empty, Gate"
    # the face-down rock shows nothing
    assert await label(page, "b2") == "b2: face-down rock"
    assert await page.locator("svg.board .piece.face-down text").count() == 0
    # the king to move is pointed out
    assert "mark-next" in await classes(page, "a4")

    # a drop: the hand piece marks the squares it may go to
    await page.click(".hands button.hand-piece[data-letter='P']")
    assert await page.get_attribute(".hands button.hand-piece", "aria-pressed") == "true"
    assert await page.locator("svg.board .sq.target").count() == 9
    await page.click(".hands button.hand-piece[data-letter='P']")  # and again: unselected
    assert await page.locator("svg.board .sq.target").count() == 0
    await play(ada, "P*b3")
    await play(bob, "P*b1")
    await eve.screenshot(shots, "described-toy-spectator")
    await bob.screenshot(shots, "described-toy-phone-east")
    # an action on a square that also offers moves: select, then act
    await play(ada, "b3")
    assert "promoted" in (await page.get_attribute("svg.board .piece[data-on='b3']", "class") or "")
    # a choice: the chooser lists the letters
    await bob.click_square("b1")
    await bob.click_square("a1")
    choices = await bob.page.locator(".promo button.choice").evaluate_all(
        "bs => bs.map(b => b.dataset.choice)"
    )
    assert choices == ["Q", "R"]
    await bob.page.click(".promo button.secondary")  # cancel: nothing is played
    await bob.page.wait_for_selector(".promo", state="detached")
    await play(bob, "b1-a1=R")
    assert (await eve.latest())["view"]["grid"]["pieces"]["a1"]["kind"] == "R"
    await play(ada, "pass")
    await play_by_keys(bob, "a1-a2")
    await play(ada, "pass")
    await play(bob, "a2-a3")
    await play(ada, "pass")
    await play(bob, "a3xa4")
    final = await eve.wait_over()
    assert final["outcome"]["winner"] == 1
    await assert_drawn(eve, final["view"]["grid"])
    log = await bob.page.locator("#log li").all_inner_texts()
    assert log[0] == "You: a3xa4", log[:3]
    log = await eve.page.locator("#log li").all_inner_texts()
    assert any(line.startswith("Ada (Gold): ") for line in log), log
    await bob.screenshot(shots, "described-toy-over-phone")
    for tab in (ada, bob, eve):
        tab.assert_clean()


async def test_a_board_of_points(browser: Browser, server: KibitzServer, shots: Path) -> None:
    """The toy on the crossings: lines between neighbours but the breaks, the links, the
    river's name across the gap, coordinates in the frame; pieces stand on the crossings
    and the squares' areas are still what a click or a key acts on."""
    ada = await Tab.open(browser, server.url, "Ada")
    bob = await Tab.open(browser, server.url, "Bob", width=PHONE_W, height=PHONE_H)
    room = await ada.create_room("gridtoy", seats=["me", "open"], options={"board": "points"})
    await bob.goto_room(room)
    await bob.sit(1)
    desc = (await ada.latest())["view"]["grid"]
    assert desc["style"] == "points"
    for tab in (ada, bob):
        await tab.page.wait_for_selector("svg.board.described.points")
        await assert_drawn(tab, desc)
    await assert_edge_at_bottom(ada, desc, "south")
    await assert_edge_at_bottom(bob, desc, "north")
    page = ada.page
    segments = await page.locator("svg.board .lines line").evaluate_all(
        "ls => ls.map(l => [l.dataset.a, l.dataset.b, l.classList.contains('link')])"
    )
    # 3 x 4 crossings: 8 segments along the ranks and 9 along the files, 2 broken, 2 links
    assert len(segments) == 8 + 9 - 2 + 2
    pairs = {frozenset((a, b)) for a, b, _ in segments}
    assert frozenset(("a2", "a3")) not in pairs and frozenset(("c2", "c3")) not in pairs
    assert frozenset(("b2", "b3")) in pairs and frozenset(("a1", "a2")) in pairs
    assert sorted(sorted((a, b)) for a, b, link in segments if link) == [["a1", "b2"], ["b2", "c1"]]
    assert await page.text_content("svg.board .river-label") == "River"
    # no squares drawn: the squares' areas are transparent, the wood shows through
    fill = await page.locator("svg.board [data-square='a3'] .bg").evaluate(
        "el => getComputedStyle(el).fill"
    )
    assert fill in ("transparent", "rgba(0, 0, 0, 0)"), fill
    # a piece stands on its crossing: the lines from a1 start at the king's centre
    king = await page.locator("svg.board .piece[data-on='a1']").evaluate(
        """el => { const b = el.getBBox(), m = el.getAttribute('transform').match(/[-\\d.]+/g);
                   return [+m[0] + b.x + b.width / 2, +m[1] + b.y + b.height / 2]; }"""
    )
    line = await page.locator("svg.board .lines line[data-a='a1'][data-b='b1']").evaluate(
        "l => [Number(l.getAttribute('x1')), Number(l.getAttribute('y1'))]"
    )
    assert abs(king[0] - line[0]) < 2 and abs(king[1] - line[1]) < 2, (king, line)
    # the coordinates in the frame: a b c under the board, 1..4 beside it
    coords = await page.locator("svg.board .frame .edge-coord").all_text_contents()
    assert sorted(coords) == ["1", "2", "3", "4", "a", "b", "c"]
    assert await page.locator("svg.board .frame .edge-coord").count() == 7
    # played on the crossings: a step, a drop, a step by the keys, a capture
    await play(ada, "a1-a2")
    await play(bob, "P*a3")
    await play(ada, "P*c1")
    await play_by_keys(bob, "a3-b3")
    await ada.screenshot(shots, "described-toy-points-desktop")
    await bob.screenshot(shots, "described-toy-points-phone")
    right = await bob.page.locator("svg.board").evaluate("el => el.getBoundingClientRect().right")
    assert right <= PHONE_W
    await assert_drawn(ada, (await ada.latest())["view"]["grid"])
    for tab in (ada, bob):
        tab.assert_clean()


@pytest.mark.parametrize("size", [9, 17])
async def test_boards_of_points_on_a_phone(
    browser: Browser, server: KibitzServer, shots: Path, size: int
) -> None:
    """Ming-Mang's boards, up to the traditional 17 x 17 lines, fit a phone's width and are
    played by taps."""
    ada = await Tab.open(browser, server.url, "Ada", width=PHONE_W, height=PHONE_H)
    await ada.create_room("ming_mang", seats=["me", "me"], options={"size": size})
    page = ada.page
    await page.wait_for_selector("svg.board.described.points")
    desc = (await ada.latest())["view"]["grid"]
    assert (desc["files"], desc["ranks"]) == (size, size)
    assert await page.locator("svg.board .lines line").count() == 2 * size * (size - 1)
    await assert_drawn(ada, desc)
    box = await page.locator("svg.board").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_W
    # a crossing's square is still a target a finger can hit: over 20 px
    square = await page.locator("svg.board [data-square='e5'] .bg").bounding_box()
    assert square and square["width"] >= 20, square
    await ada.wait_to_act()
    await play(ada, choose(desc, await ada.legal(), 0, None))
    await ada.screenshot(shots, f"described-ming_mang-{size}-phone")
    ada.assert_clean()
