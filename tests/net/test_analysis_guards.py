"""The analysis door's guards over real HTTP and Redis: the limits per address and per
account (429, with how long to wait), the queue's bound (503 busy), each with its broken twin
(no limit to speak of) shown letting through what the guard refuses; and a flood of requests
refused while the server goes on serving a game (measured)."""

from __future__ import annotations

import asyncio
import statistics
import time

import pytest

from server.engine import Registry
from server.sdk import KibitzClient

from .analysis_helpers import analysing, finished, http
from .test_accounts import register_and_login

#: the twin's limits: none to speak of
NO_LIMIT = 10_000


@pytest.mark.parametrize("limit", [3, NO_LIMIT])
async def test_an_address_may_ask_so_many_times(
    redis_url: str, prefix: str, registry: Registry, limit: int
) -> None:
    async with analysing(redis_url, prefix, registry, workers=0, per_address=limit) as srv:
        rooms = [await finished(srv, []) for _ in range(4)]
        answers = [await http(srv, "POST", f"/api/rooms/{r}/analysis") for r in rooms]
        assert [a[0] for a in answers[:3]] == [202] * 3
        status, body, head = answers[3]
        if limit == NO_LIMIT:  # the broken twin lets the fourth in
            assert status == 202
            return
        assert (status, body["code"]) == (429, "rate_limited")
        assert 0 < body["retry_after"] <= 600 and head["Retry-After"] == str(body["retry_after"])
        assert "ask again in" in body["message"]
        assert await srv.analyses.queue.size() == 3  # the refused one is not queued


@pytest.mark.parametrize("limit", [2, NO_LIMIT])
async def test_an_account_may_ask_so_many_times(
    redis_url: str, prefix: str, registry: Registry, limit: int
) -> None:
    async with analysing(redis_url, prefix, registry, workers=0, per_account=limit) as srv:
        token = await register_and_login(srv, "Analyst")
        auth = {"Authorization": f"Bearer {token}"}
        rooms = [await finished(srv, []) for _ in range(3)]
        answers = [await http(srv, "POST", f"/api/rooms/{r}/analysis", auth) for r in rooms]
        assert [a[0] for a in answers[:2]] == [202, 202]
        if limit == NO_LIMIT:
            assert answers[2][0] == 202
            return
        assert (answers[2][0], answers[2][1]["code"]) == (429, "rate_limited")
        assert "account" in answers[2][1]["message"]
        # without the token, the same address may still ask (its own count is not spent)
        assert (await http(srv, "POST", f"/api/rooms/{rooms[2]}/analysis"))[0] == 202


@pytest.mark.parametrize("bound", [2, NO_LIMIT])
async def test_a_full_queue_says_so_and_how_long_to_wait(
    redis_url: str, prefix: str, registry: Registry, bound: int
) -> None:
    async with analysing(redis_url, prefix, registry, workers=0, queue=bound) as srv:
        rooms = [await finished(srv, []) for _ in range(3)]
        answers = [await http(srv, "POST", f"/api/rooms/{r}/analysis") for r in rooms]
        assert [a[0] for a in answers[:2]] == [202, 202]
        if bound == NO_LIMIT:
            assert answers[2][0] == 202
            return
        status, body, head = answers[2]
        assert (status, body["code"]) == (503, "busy") and body["retry_after"] >= 1
        assert head["Retry-After"] == str(body["retry_after"])
        assert await srv.analyses.queue.size() == 2
        # asking again for a queued game answers where it stands
        status, body, _ = await http(srv, "POST", f"/api/rooms/{rooms[0]}/analysis")
        assert (status, body["status"], body["position"]) == (202, "queued", 1)


async def test_a_flood_is_refused_and_the_games_go_on(
    redis_url: str, prefix: str, registry: Registry
) -> None:
    async with analysing(redis_url, prefix, registry, workers=1, per_address=5, queue=4) as srv:
        rooms = [await finished(srv, []) for _ in range(8)]
        a, b = await KibitzClient.connect(srv.ws_url), await KibitzClient.connect(srv.ws_url)

        async def new_game() -> str:
            game = (await a.request("create_room", game="chess"))["room"]
            await a.request("take_seat", room=game, seat=0, name="Ada")
            await b.request("take_seat", room=game, seat=1, name="Bob")
            return str(game)

        game = await new_game()
        flood = 400

        async def flooding() -> list[int]:
            paths = [f"/api/rooms/{rooms[i % len(rooms)]}/analysis" for i in range(flood)]
            sem = asyncio.Semaphore(8)

            async def one(path: str) -> int:
                async with sem:
                    return (await http(srv, "POST", path))[0]

            return list(await asyncio.gather(*(one(p) for p in paths)))

        task = asyncio.create_task(flooding())
        shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]  # drawn by repetition after two rounds
        latencies: list[float] = []
        ply = 0
        while not task.done():
            if ply == 8:
                game, ply = await new_game(), 0
            t0 = time.perf_counter()
            await (a, b)[ply % 2].request("move", room=game, move=shuffle[ply % 4])
            latencies.append(time.perf_counter() - t0)
            ply += 1
        statuses = await task
        await a.close()
        await b.close()
        refused = sum(1 for s in statuses if s in (429, 503))
        accepted = statuses.count(202)  # queued (counted); 200: analysed already
        assert refused + accepted + statuses.count(200) == flood and accepted <= 5
        assert refused >= flood - 5 - statuses.count(200)
        assert await srv.analyses.queue.size() <= 4
        median, worst = statistics.median(latencies), max(latencies)
        print(
            f"flood of {flood} POSTs: {refused} refused, {accepted} accepted; "
            f"{len(latencies)} moves meanwhile, median {median * 1000:.1f} ms, "
            f"worst {worst * 1000:.1f} ms"
        )
        assert len(latencies) >= 10  # the games went on (their pace is a figure, not a test)
