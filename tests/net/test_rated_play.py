"""Rated play at the board (issue 34, items 1, 2, 3, 8, 9), over real sockets against a real
redis-server: names and ratings are separate fields, the rating change is shown in the game,
a rematch stays rated, no clock runs before the first moves (and a first move that does not
come aborts the game, unrated), the PGN carries the tags a chess player expects, and bots in
one race have names of their own."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from server.net.app import KibitzServer
from server.sdk import KibitzClient

from .test_accounts import api
from .test_seeks import BLITZ, FOOLS_MATE, next_of, play, user

Json = dict[str, Any]


async def rated_game(ada: KibitzClient, bob: KibitzClient, settings: Json) -> tuple[str, dict]:
    posted = await ada.request("seek", game="chess", settings=settings, rated=True)
    paired_b = await bob.request("accept_seek", seek=posted["seek"])
    paired_a = await next_of(ada, "paired")
    return paired_a["room"], {paired_a["seat"]: ada, paired_b["seat"]: bob}


async def rated_changes(c: KibitzClient, room: str) -> Json:
    return await c.wait_update(
        lambda m: m["status"] == "over" and (m.get("rated") or {}).get("changes"), room=room
    )


async def test_names_and_ratings_apart_the_change_shown_and_the_rematch_rated(
    server: KibitzServer,
) -> None:
    ada, bob = await user(server, "Ada"), await user(server, "Bob")
    room, by_seat = await rated_game(ada, bob, BLITZ)
    start = await ada.wait_update(lambda m: m["status"] == "playing", room=room)
    # item 1: the name is the name; the rating a field of its own (seats, lobby)
    assert sorted(s["name"] for s in start["seats"]) == ["Ada", "Bob"]
    assert all(s["rating"] == 1500 and s["provisional"] is True for s in start["seats"])
    assert start["rated"] == {"category": "chess:blitz", "changes": None}
    lobby = await ada.request("list_rooms")
    entry = next(r for r in lobby["rooms"] if r["room"] == room)
    assert sorted((s["name"], s["rating"]) for s in entry["seats"]) == [
        ("Ada", 1500),
        ("Bob", 1500),
    ]
    await play(by_seat, room, FOOLS_MATE)
    # item 2: the change reaches the board — an event of the log, for players and watchers
    end = await rated_changes(ada, room)
    changes = end["rated"]["changes"]
    assert changes[1]["change"] == pytest.approx(162.31, abs=0.02)
    assert changes[0]["change"] == pytest.approx(-162.31, abs=0.02)
    assert changes[1]["new_rating"] == pytest.approx(1662.31, abs=0.02)
    assert changes[0]["rating"] == 1500.0
    watcher = await KibitzClient.connect(server.ws_url)
    await watcher.request("watch", room=room)
    seen = await watcher.wait_update(room=room)
    assert seen["rated"]["changes"] == changes
    # item 8: the PGN — plain names, Elo, rating diffs, time control, date, result
    record = (await ada.request("record", room=room))["record"]
    pgn = record["exports"]["pgn"]
    white, black = (s["name"] for s in end["seats"])
    assert f'[White "{white}"]' in pgn and f'[Black "{black}"]' in pgn
    assert '[WhiteElo "1500"]' in pgn and '[BlackElo "1500"]' in pgn
    assert '[WhiteRatingDiff "-162"]' in pgn and '[BlackRatingDiff "+162"]' in pgn
    assert '[TimeControl "180+2"]' in pgn and '[Result "0-1"]' in pgn
    assert '[Termination "Normal"]' in pgn
    assert re.search(r'\[Date "\d{4}\.\d{2}\.\d{2}"\]', pgn) and "?" not in pgn.split("\n\n")[0]
    # item 1: the rematch keeps the accounts, the speed and the rating (as it is now)
    await ada.request("rematch", room=room)
    await bob.request("rematch", room=room)
    notice, to_bob = await next_of(ada, "rematch"), await next_of(bob, "rematch")
    new_room = notice["new_room"]
    for c, n in ((ada, notice), (bob, to_bob)):
        await c.request("join", room=new_room, seat=n["seat"], token=n["token"])
    again = await ada.wait_update(lambda m: m["status"] == "playing", room=new_room)
    assert [s["name"] for s in again["seats"]] == [black, white]  # colours swapped
    assert [s["rating"] for s in again["seats"]] == [1662, 1338]
    assert again["rated"] == {"category": "chess:blitz", "changes": None}
    pairing = (await ada.request("pairing", room=new_room))["pairing"]
    assert pairing["rated"] is True and pairing["category"] == "chess:blitz"
    new_seats = {notice["seat"]: ada, 1 - notice["seat"]: bob}
    await play(new_seats, new_room, FOOLS_MATE)
    rerated = await rated_changes(bob, new_room)
    assert rerated["rated"]["changes"][0]["rating"] == pytest.approx(1662.31, abs=0.02)
    for c in (ada, bob, watcher):
        await c.close()


async def test_no_first_move_aborts_a_rated_game_unrated_and_both_sides_are_told(
    server: KibitzServer,
) -> None:
    ada, bob = await user(server, "Ada"), await user(server, "Bob")
    settings = {**BLITZ, "first_move": 5}
    room, by_seat = await rated_game(ada, bob, settings)
    start = await ada.wait_update(lambda m: m["status"] == "playing", room=room)
    clock = start["clock"]
    assert clock["started"] is False and clock["running"] == []
    assert clock["abort_at"] == pytest.approx(clock["since"] + 5)
    await by_seat[0].request("move", room=room, move="e2e4")  # White moves; Black does not
    moved = await ada.wait_update(lambda m: m["turn"] == 1, room=room)
    assert moved["clock"]["left"] == [180.0, 180.0] and moved["clock"]["started"] is False
    for c in (ada, bob):  # the seek's other side (and this one) are told why
        over = await c.wait_update(lambda m: m["status"] == "over", room=room, timeout=10)
        assert over["outcome"]["reason"] == "aborted"
        assert over["events"] == [{"kind": "abort", "seat": 1, "reason": "no_first_move"}]
    for _ in range(50):
        _, history, _ = await api(server, "GET", "/api/users/Ada/games")
        if history["total"]:
            break
        await asyncio.sleep(0.1)
    assert history["games"][0]["rated"] is False
    _, profile, _ = await api(server, "GET", "/api/users/Ada")
    assert profile["ratings"] == {}
    for c in (ada, bob):
        await c.close()


async def test_bots_in_one_race_have_names_of_their_own(server: KibitzServer) -> None:
    c = await KibitzClient.connect(server.ws_url)
    room = (await c.request("create_room", game="hase_und_igel", seats=6))["room"]
    await c.request("take_seat", room=room, seat=0, name="Ada")
    for seat in range(1, 6):
        await c.request("add_bot", room=room, seat=seat, strength="easy")
    state = await c.wait_update(lambda m: m["status"] == "playing", room=room)
    names = [s["name"] for s in state["seats"]]
    assert names[1:] == ["Easy bot", "Easy bot 2", "Easy bot 3", "Easy bot 4", "Easy bot 5"]
    await c.close()
