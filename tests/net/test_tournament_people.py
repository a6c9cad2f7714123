"""People in a rated arena: paired on every connection as seeks pair them, the game rated
once through the rating service, berserk before one's first move only, a pause."""

from __future__ import annotations

import asyncio

import pytest

from server.engine import Registry
from server.net.services.tournaments import rooms as tournament_rooms
from server.rooms.room import Room
from server.sdk import KibitzClient, KibitzError

from .test_protocol_examples import register
from .tournament_helpers import http_json, nodes, wait_view

ARENA = {
    "name": "Rated bullet",
    "game": "chess",
    "system": "arena",
    "clock": {"base": 60, "increment": 0},
    "seconds": 30,
    "max_players": 2,
    "rated": True,
}


async def paired(c: KibitzClient, tid: str) -> dict:
    while True:
        msg = await c.next_message(10)
        if msg.get("type") == "paired" and msg.get("tournament") == tid:
            return msg


async def test_a_rated_arena_game_of_two_accounts(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with nodes(redis_url, prefix, registry) as (n1, n2):
        ada, bob = KibitzClient, KibitzClient
        tokens = {}
        for name in ("Ada", "Bob"):
            tokens[name] = await asyncio.to_thread(register, n1.url, name)
        ada = await KibitzClient.connect(n1.ws_url)
        await ada.request("hello", protocol=2, auth=tokens["Ada"])
        bob = await KibitzClient.connect(n2.ws_url)  # on the other node
        await bob.request("hello", protocol=2, auth=tokens["Bob"])
        guest = await KibitzClient.connect(n2.ws_url)
        try:
            await guest.request("tournament_create", **ARENA)
            raise AssertionError("a guest created a rated tournament")
        except KibitzError as exc:
            assert exc.code == "forbidden"
        tid = (await ada.request("tournament_create", **ARENA))["tournament"]
        await ada.request("tournament_join", tournament=tid)
        await bob.request("tournament_join", tournament=tid)
        a_game, b_game = await paired(ada, tid), await paired(bob, tid)
        room = a_game["room"]
        assert b_game["room"] == room and a_game["rated"] is True
        assert {a_game["seat"], b_game["seat"]} == {0, 1}
        mine = await ada.request("tournament_watch", tournament=tid)
        want = {"room": room, "seat": a_game["seat"], "token": a_game["token"]}
        assert mine["me"] == {"joined": True, "paused": False, "game": want}
        white = ada if a_game["seat"] == 0 else bob
        black = bob if white is ada else ada
        # berserk: before one's own first move only, and only in one's own game
        try:
            await guest.request("tournament_berserk", tournament=tid, room=room)
            raise AssertionError("a guest went berserk in a game not theirs")
        except KibitzError as exc:
            assert exc.code == "not_found"
        await white.request("move", room=room, move="e2e4")
        try:
            await white.request("tournament_berserk", tournament=tid, room=room)
            raise AssertionError("berserk after a move")
        except KibitzError as exc:
            assert exc.code == "bad_request"
        first = await black.request("tournament_berserk", tournament=tid, room=room)
        again = await black.request("tournament_berserk", tournament=tid, room=room)
        assert "repeated" not in first and again["repeated"] is True  # once only, and said so
        assert n1.hub is not None
        assert n1.hub.rooms[room].room.clock.left == [60.0, 30.0]  # black's time halved
        await white.request("resign", room=room)
        loser, winner = ("Ada", "Bob") if white is ada else ("Bob", "Ada")
        view = await wait_view(
            ada, tid, lambda v: v["games_total"] and not v["games"][0]["ongoing"], 10
        )
        rows = {r["name"]: r for r in view["standings"]}
        assert rows[winner]["points"] == 3 and rows[loser]["points"] == 0  # a berserked win
        await bob.request("tournament_withdraw", tournament=tid)  # a pause: no more games
        view = await wait_view(ada, tid, lambda v: any(r["paused"] for r in v["standings"]), 5)
        assert [r["name"] for r in view["standings"] if r["paused"]] == ["Bob"]
        # rated once, through the rating service
        for name in ("Ada", "Bob"):
            user = await asyncio.to_thread(http_json, f"{n2.url}api/users/{name}")
            assert user["ratings"]["chess:bullet"]["games"] == 1
            games = await asyncio.to_thread(http_json, f"{n1.url}api/users/{name}/games")
            assert games["total"] == 1 and games["games"][0]["room"] == room
        for c in (ada, bob, guest):
            await c.close()


@pytest.mark.parametrize("pausing", [True, False])
async def test_a_player_who_does_not_start_their_game_is_paused(
    redis_url: str, prefix: str, registry: Registry, monkeypatch: pytest.MonkeyPatch, pausing: bool
) -> None:
    monkeypatch.setattr(tournament_rooms, "FIRST_MOVE", 5)
    if not pausing:  # the twin that keeps the absent: they are paired again and again
        monkeypatch.setattr(tournament_rooms, "absent_seats", lambda room: [])
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        gus = await KibitzClient.connect(n1.ws_url)
        spec = ARENA | {"game": "kamisado", "rated": False, "seconds": 60}
        tid = (await gus.request("tournament_create", **spec))["tournament"]
        await gus.request("tournament_add_bot", tournament=tid, level="random")
        await gus.request("tournament_join", tournament=tid, name="Gus")
        game = await paired(gus, tid)
        await gus.request("tournament_watch", tournament=tid)
        view = await wait_view(gus, tid, lambda v: not v["games"][0]["ongoing"], 15)
        assert view["games"][0]["reason"] == "aborted"  # Gus never moved
        rows = {r["name"]: r for r in view["standings"]}
        assert rows["Gus"]["games"] == 0 and rows["Gus"]["sheet"][0]["outcome"] == "A"
        if pausing:
            me = (await gus.request("tournament_watch", tournament=tid))["me"]
            assert me == {"joined": True, "paused": True, "game": None}
            assert rows["Gus"]["paused"] and not rows["Random bot 1"]["paused"]
        else:
            again = await paired(gus, tid)
            assert again["room"] != game["room"]
        await gus.close()


def everyone_who_never_moved(room: Room) -> list[int]:
    """The rule before: every person who never moved was absent (Black too, who never had
    the move)."""
    moved = room.moved_seats()
    return [s for s, seat in enumerate(room.seats) if seat.kind == "person" and s not in moved]


@pytest.mark.parametrize("twin", [False, True])
async def test_only_the_player_who_had_the_move_is_paused(
    redis_url: str, prefix: str, registry: Registry, monkeypatch: pytest.MonkeyPatch, twin: bool
) -> None:
    """Two people, neither moves: the game is aborted when White's first-move wait ends, and
    White alone is paused; Black never had the move and plays on (lichess's rule)."""
    monkeypatch.setattr(tournament_rooms, "FIRST_MOVE", 5)
    if twin:  # the rule before, patched back in: the check catches Black paused too
        monkeypatch.setattr(tournament_rooms, "absent_seats", everyone_who_never_moved)
    async with nodes(redis_url, prefix, registry, 1) as (n1,):
        ada = await KibitzClient.connect(n1.ws_url)
        bob = await KibitzClient.connect(n1.ws_url)
        spec = ARENA | {"rated": False, "seconds": 60}
        tid = (await ada.request("tournament_create", **spec))["tournament"]
        await ada.request("tournament_join", tournament=tid, name="Ada")
        await bob.request("tournament_join", tournament=tid, name="Bob")
        a_game, b_game = await paired(ada, tid), await paired(bob, tid)
        assert a_game["room"] == b_game["room"]
        white, black = ("Ada", "Bob") if a_game["seat"] == 0 else ("Bob", "Ada")
        await ada.request("tournament_watch", tournament=tid)
        view = await wait_view(ada, tid, lambda v: not v["games"][0]["ongoing"], 15)
        assert view["games"][0]["reason"] == "aborted"
        paused = {r["name"] for r in view["standings"] if r["paused"]}
        if twin:
            assert paused == {white, black}
        else:
            assert paused == {white}
            me = (
                await (bob if black == "Bob" else ada).request("tournament_watch", tournament=tid)
            )["me"]
            assert me == {"joined": True, "paused": False, "game": None}
        for c in (ada, bob):
            await c.close()
