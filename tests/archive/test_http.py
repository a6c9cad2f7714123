"""The doors of archived games over HTTP: the record and PGN routes, a player's games from
Redis and the archive together (paged, filtered), and the streamed export."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from server.engine import Registry
from server.net.app import KibitzServer
from server.sdk import KibitzClient, KibitzError

from ..net.test_accounts import api
from ..net.test_seeks import BLITZ, FOOLS_MATE, next_of, play, user
from .helpers import archived_server, where

#: the moves of a game White wins (Black is mated)
SCHOLARS_MATE = ["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]


async def rated_game(ada: KibitzClient, bob: KibitzClient, moves: list[str]) -> str:
    posted = await ada.request("seek", game="chess", settings=BLITZ, rated=True)
    paired_b = await bob.request("accept_seek", seek=posted["seek"])
    paired_a = await next_of(ada, "paired")
    room = paired_a["room"]
    by_seat = {paired_a["seat"]: ada, paired_b["seat"]: bob}
    await play(by_seat, room, moves)
    await ada.wait_update(
        lambda m: m["status"] == "over" and (m.get("rated") or {}).get("changes"), room=room
    )
    return str(room)


def get_text(srv: KibitzServer, path: str) -> str:
    with urllib.request.urlopen(f"{srv.url.rstrip('/')}{path}", timeout=20) as r:
        return str(r.read().decode())


def get_lines(srv: KibitzServer, path: str) -> tuple[int, list[Any]]:
    try:
        with urllib.request.urlopen(f"{srv.url.rstrip('/')}{path}", timeout=20) as r:
            return r.status, [json.loads(x) for x in r.read().decode().splitlines() if x]
    except urllib.error.HTTPError as exc:
        return exc.code, [json.loads(exc.read())]


async def test_records_games_and_export_from_redis_and_the_archive(
    redis_url: str, prefix: str, registry: Registry, archive_url: str
) -> None:
    async with archived_server(redis_url, prefix, registry, archive_url) as srv:
        assert srv.archiver is not None and srv.store is not None
        ada, bob = await user(srv, "Ada"), await user(srv, "Bob")
        rooms = []
        for moves in (FOOLS_MATE, SCHOLARS_MATE, FOOLS_MATE):
            rooms.append(await rated_game(ada, bob, moves))
        for _ in range(100):  # every game marked
            if len(await srv.archiver.pending()) == 3:
                break
            await asyncio.sleep(0.05)
        live_record = []
        for r in rooms:
            status, record, _ = await api(srv, "GET", f"/api/rooms/{r}/record")
            assert status == 200
            live_record.append(record)
        live_pgn = await asyncio.to_thread(get_text, srv, f"/api/rooms/{rooms[0]}/pgn")
        assert live_pgn.startswith("[Event")
        _, live_games, _ = await api(srv, "GET", "/api/users/Ada/games")
        assert live_games["total"] == 3
        # the two oldest leave Redis; the newest stays (its grace period is not over)
        for room in rooms[:2]:
            assert await srv.archiver.archive_one(room)
            assert await where(srv.store, srv.archiver.archive, room) == (False, True)
        assert await where(srv.store, srv.archiver.archive, rooms[2]) == (True, False)
        for room, before in zip(rooms, live_record, strict=True):
            assert (await api(srv, "GET", f"/api/rooms/{room}/record"))[:2] == (200, before)
        assert await asyncio.to_thread(get_text, srv, f"/api/rooms/{rooms[0]}/pgn") == live_pgn
        # the replay viewer's way in: watch the archived room, ask for its record and views
        viewer = await KibitzClient.connect(srv.ws_url)
        assert (await viewer.request("watch", room=rooms[0]))["type"] == "watching"
        shown = await viewer.wait_update(room=rooms[0])
        assert shown["status"] == "over" and shown["version"] == live_record[0]["version"]
        assert (await viewer.request("record", room=rooms[0]))["record"] == live_record[0]
        views = await viewer.request("history", room=rooms[0])
        assert views["type"] == "history" and len(views["turns"]) == len(FOOLS_MATE) + 1
        with pytest.raises(KibitzError) as refused:  # the game is over and gone: no rematch
            await viewer.request("rematch", room=rooms[0])
        assert refused.value.code in ("no_such_room", "bad_request", "not_seated")
        await viewer.close()
        # a player's games: the same list, from both places, newest first
        _, games, _ = await api(srv, "GET", "/api/users/Ada/games")
        assert games["total"] == 3
        assert [g["room"] for g in games["games"]] == rooms[::-1]
        for got, was in zip(games["games"], live_games["games"], strict=True):
            assert {k: v for k, v in got.items() if k != "finished"} == {
                k: v for k, v in was.items() if k != "finished"
            }
        paged = []
        for page in (1, 2, 3, 4):
            _, one, _ = await api(srv, "GET", f"/api/users/ada/games?per=1&page={page}")
            assert one["total"] == 3
            paged += [g["room"] for g in one["games"]]
        assert paged == rooms[::-1]
        # filters: the result as Ada saw it, rated, the game, the opponent
        ada_won = [
            r
            for r, g in zip(rooms[::-1], games["games"], strict=True)
            if next(p for p in g["players"] if p["user"] == "Ada")["rank"] == 1
        ]
        for query, expected in (
            ("result=win", ada_won),
            ("result=loss", [r for r in rooms[::-1] if r not in ada_won]),
            ("result=draw", []),
            ("rated=true", rooms[::-1]),
            ("rated=false", []),
            ("game=chess&opponent=BOB", rooms[::-1]),
            ("game=xiangqi", []),
            ("opponent=Nobody", []),
        ):
            _, found, _ = await api(srv, "GET", f"/api/users/Ada/games?{query}")
            assert [g["room"] for g in found["games"]] == expected, query
            assert found["total"] == len(expected), query
        for bad in ("result=won", "rated=yes", "game=", "game=a&game=b", "opponent=a%20b"):
            status, body, _ = await api(srv, "GET", f"/api/users/Ada/games?{bad}")
            assert (status, body["code"]) == (400, "bad_request"), bad
        # the export: every game, streamed, PGN for chess
        status, lines = await asyncio.to_thread(get_lines, srv, "/api/users/Ada/export")
        assert status == 200
        assert [line["room"] for line in lines] == rooms[::-1]
        for line, before in zip(lines, live_record[::-1], strict=True):
            assert line["pgn"] == before["exports"]["pgn"]
        assert lines[-1]["pgn"] == live_pgn
        status, lines = await asyncio.to_thread(get_lines, srv, "/api/users/Ada/export?result=zz")
        assert status == 400
        status, _ = await asyncio.to_thread(get_lines, srv, "/api/users/Nobody/export")
        assert status == 404
        # once all are archived, Redis holds nothing of them: no key names a game, and the
        # players' histories there are empty (Redis is bounded by the live games)
        assert await srv.archiver.archive_one(rooms[2])
        keys = [k.decode() async for k in srv.store.redis.scan_iter(match=f"{prefix}*")]
        assert [k for k in keys if any(r in k for r in rooms)] == []
        for name in ("ada", "bob"):
            assert await srv.store.redis.zcard(f"{prefix}games:{name}") == 0
        assert await srv.store.redis.zcard(f"{prefix}archive:pending") == 0
        _, games, _ = await api(srv, "GET", "/api/users/Ada/games?per=2&page=2")
        assert games["total"] == 3 and [g["room"] for g in games["games"]] == [rooms[0]]
        await ada.close()
        await bob.close()
