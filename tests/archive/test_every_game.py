"""A player's games list every game they finished with their account (issue 48, round 3):
casual lobby games and games against a bot too, not only paired (seek, pool, rated
tournament) games — from Redis while the game is there, and from the archive after; the
``vs_bot`` filter picks the games against the computer, and a game of guests is nobody's."""

from __future__ import annotations

import asyncio
from typing import Any

from server.engine import Registry
from server.net.app import KibitzServer
from server.sdk import KibitzClient

from ..conftest import serving
from ..net.test_accounts import api
from ..net.test_seeks import user


async def resigned_game(c: KibitzClient, seats: list[Any]) -> str:
    """A chess room created by ``c`` sitting in seat 0, ``seats[1]`` a bot's strength or
    another client who sits; ``c`` resigns at once (no move: the bots need no worker)."""
    opponent = seats[1]
    bots = [{"seat": 1, "strength": opponent}] if isinstance(opponent, str) else []
    made = await c.request("create_room", game="chess", sit=0, name="Guest", bots=bots)
    room = str(made["room"])
    if isinstance(opponent, KibitzClient):
        await opponent.request("take_seat", room=room, seat=1, name="Guest two")
    await c.request("resign", room=room)
    await c.wait_update(lambda u: u["status"] == "over", room=room)
    return room


async def games_of(srv: KibitzServer, name: str, query: str = "") -> dict[str, Any]:
    status, body, _ = await api(srv, "GET", f"/api/users/{name}/games?{query}")
    assert status == 200, body
    return dict(body)


async def wait_total(srv: KibitzServer, name: str, total: int) -> dict[str, Any]:
    """The on_over hook stores the result just after the game ends: wait for it."""
    for _ in range(200):
        body = await games_of(srv, name)
        if body["total"] >= total:
            return body
        await asyncio.sleep(0.05)
    raise AssertionError(f"{name} has {body['total']} games, not {total}")


async def test_casual_and_bot_games_are_in_the_history_and_filtered(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    async with serving(redis_url, prefix, registry, archive=archive_url, bot_workers=1) as srv:
        assert srv.archiver is not None
        ada, bob = await user(srv, "Ada"), await user(srv, "Bob")
        vs_bot = [await resigned_game(ada, [ada, "random"]) for _ in range(2)]
        vs_bob = await resigned_game(ada, [ada, bob])
        games = await wait_total(srv, "Ada", 3)
        assert [g["room"] for g in games["games"]] == [vs_bob, *vs_bot[::-1]]  # newest first
        first = games["games"][-1]
        assert first["rated"] is False and first["reason"] == "resignation"
        assert [(p["name"], p["user"], p["bot"], p["rank"]) for p in first["players"]] == [
            ("Ada", "Ada", False, 2),
            ("Random bot", None, True, 1),
        ]
        assert (await wait_total(srv, "Bob", 1))["games"][0]["room"] == vs_bob
        # one game goes to the archive: the same list and filters from both places
        for room in vs_bot[:1]:
            for _ in range(100):
                if room in await srv.archiver.pending():
                    break
                await asyncio.sleep(0.05)
            assert await srv.archiver.archive_one(room)

        def facts(body: dict[str, Any]) -> list[dict[str, Any]]:  # the time: the event's
            return [{k: v for k, v in g.items() if k != "finished"} for g in body["games"]]

        assert facts(await games_of(srv, "Ada")) == facts(games)
        for query, expected in (
            ("vs_bot=true", vs_bot[::-1]),
            ("vs_bot=false", [vs_bob]),
            ("rated=false", [vs_bob, *vs_bot[::-1]]),
            ("rated=true", []),
            ("vs_bot=true&result=win", []),
            ("vs_bot=false&opponent=bob", [vs_bob]),
            ("per=1&page=3", [vs_bot[0]]),
        ):
            found = await games_of(srv, "Ada", query)
            assert [g["room"] for g in found["games"]] == expected, query
            if "page" not in query:
                assert found["total"] == len(expected), query
        for bad in ("vs_bot=yes", "vs_bot=", "vs_bot=true&vs_bot=false", "per=101", "per=0"):
            status, body, _ = await api(srv, "GET", f"/api/users/Ada/games?{bad}")
            assert (status, body["code"]) == (400, "bad_request"), bad
        await ada.close()
        await bob.close()


async def test_a_game_of_guests_and_bots_is_nobodys_history(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    """The twin: only a seat held by an account puts a game in a history — a guest's game
    against a bot stores no result at all (no ``result:{room}``, no ``games:{name}``)."""
    async with serving(redis_url, prefix, registry, archive=archive_url, bot_workers=1) as srv:
        assert srv.store is not None
        guest = await KibitzClient.connect(srv.ws_url)
        room = await resigned_game(guest, [guest, "random"])
        ada = await user(srv, "Ada")
        await resigned_game(ada, [ada, "random"])  # an account's game after it: stored
        await wait_total(srv, "Ada", 1)
        assert await srv.store.redis.get(f"{prefix}result:{room}") is None
        keys = [k.decode() async for k in srv.store.redis.scan_iter(match=f"{prefix}games:*")]
        assert keys == [f"{prefix}games:ada"]
        await guest.close()
        await ada.close()
