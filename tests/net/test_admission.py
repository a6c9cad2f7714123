"""New work is admitted in one place for both doors (server/net/transport/admission.py): a flood of
games with a bot from one account is refused past its bounds while another player's bot
game keeps moving, and one count of new work per address and per account is shared by the
WebSocket and the Bot API. Each guard beside its broken twin (the limit patched off: the
flood gets through)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
import requests

from server.bots import STRENGTHS
from server.engine import Registry
from server.net.app import KibitzServer
from server.net.services.seats.bots import FairShare
from server.sdk import KibitzClient, KibitzError

from ..conftest import serving
from .botapi_helpers import api_token, get
from .test_accounts import register_and_login

#: the other player's bot: it answers at once, so any wait is the workers' queue
RANDOM_THINK = STRENGTHS["chess"]["random"][1]
#: the flood's bots: ``level`` 5 is the ``normal`` chess bot (0.5 s a move with no clock),
#: 8 the ``hard`` one (2 s: a queue of them is long whatever the machine's load)
NORMAL, HARD = 5, 8
FLOOD = 40


async def post(
    server: KibitzServer, path: str, token: str, data: dict[str, Any] | None = None
) -> tuple[int, Any, dict[str, str]]:
    """(status, JSON body, headers) of a Bot API POST."""

    def run() -> tuple[int, Any, dict[str, str]]:
        r = requests.post(
            server.url.rstrip("/") + path,
            data=data,
            timeout=10,
            headers={"Authorization": f"Bearer {token}"},
        )
        return r.status_code, json.loads(r.content), dict(r.headers)

    return await asyncio.to_thread(run)


async def person(server: KibitzServer, name: str) -> tuple[str, str]:
    """A person's account: (its login token, an API token that may challenge)."""
    login = await register_and_login(server, name)
    return login, await api_token(server, login, ["challenge:write", "board:play"])


async def warm_workers(server: KibitzServer) -> None:
    """Start every bot worker process now (they start on first use, which takes a second)."""
    assert server.bots is not None and server.bots.pool is not None
    loop = asyncio.get_running_loop()
    pool = server.bots.pool
    await asyncio.gather(*(loop.run_in_executor(pool, time.sleep, 0.2) for _ in range(2)))


async def bot_game(server: KibitzServer) -> tuple[KibitzClient, str, dict[str, Any]]:
    """A guest's game against the random bot, one move played and answered; and the update
    that gave the guest the move again."""
    me = await KibitzClient.connect(server.ws_url)
    made = await me.request(
        "create_room", game="chess", sit=0, name="Bea", bots=[{"seat": 1, "strength": "random"}]
    )
    room = made["room"]
    await me.request("move", room=room, move="e2e4")
    update = await me.wait_update(lambda m: m["turn"] == 2 and m.get("legal"), room=room)
    return me, room, update


async def answer_time(
    me: KibitzClient, room: str, update: dict[str, Any], limit: float
) -> tuple[float, dict[str, Any]]:
    """Play a legal move of ``update`` (the random bot may have given check: no fixed move);
    the seconds until the bot has answered, or ``inf`` when it has not within ``limit``, and
    the update that gave the move back."""
    turn = update["turn"] + 2
    await me.request("move", room=room, move=sorted(update["legal"])[0])
    t0 = time.monotonic()
    try:
        back = await me.wait_update(
            lambda m: m["turn"] >= turn and bool(m.get("legal")), room=room, timeout=limit
        )
    except TimeoutError:
        return float("inf"), update
    return time.monotonic() - t0, back


@pytest.mark.parametrize(
    ("limits", "fair", "level"),
    [
        ({}, True, NORMAL),
        ({"bot_games": 1000, "rooms_per_minute": 1000}, True, NORMAL),
        ({}, False, HARD),
    ],
    ids=["bounded", "broken-unbounded", "broken-unfair"],
)
async def test_a_flood_of_ai_games_is_refused_and_another_bot_game_keeps_moving(
    redis_url: str,
    prefix: str,
    registry: Registry,
    limits: dict[str, int],
    fair: bool,
    level: int,
) -> None:
    """Issue 47: one account made 560 games against the bots in 3 s and every player's bot
    stalled behind them. Past 10 games with a bot in progress the account is refused (429,
    saying the limit); the flood's searches hold one worker at most, so another player's
    bot answers within its think time and a second."""
    async with serving(redis_url, prefix, registry, bot_workers=2, **limits) as server:
        assert server.bots is not None
        if not fair:  # the twin: every search straight to the workers' queue, first come
            server.bots.share = FairShare(1000)
        await warm_workers(server)
        me, room, update = await bot_game(server)
        _, token = await person(server, "Flood")
        flood = {"level": level, "color": "black"}  # the bots move first: they think
        answers = await asyncio.gather(
            *(post(server, "/api/challenge/ai", token, flood) for _ in range(FLOOD))
        )
        made = [body for status, body, _ in answers if status == 201]
        refused = [body["error"] for status, body, _ in answers if status == 429]
        assert len(made) + len(refused) == FLOOD, answers
        status, playing = await get(server, "/api/account/playing", token)
        assert status == 200 and len(playing["nowPlaying"]) == len(made)  # refusals: nothing
        if limits:
            assert len(made) == FLOOD  # the twin: the whole flood gets through
        else:
            assert len(made) == server.config.bot_games == 10
            assert {*refused} == {
                "at most 10 games with a bot in progress at once per player: finish or "
                "resign one first"
            }
        bound = RANDOM_THINK + 1.0
        if fair:
            took = []
            for _ in range(3):
                seconds, update = await answer_time(me, room, update, bound)
                took.append(seconds)
            assert max(took) <= bound, took
        else:  # the twin: the other player's bot waits behind the flood's searches
            assert (await answer_time(me, room, update, bound))[0] > bound
        await me.close()


@pytest.mark.parametrize("per_minute", [3, 1000], ids=["one-count", "broken-unlimited"])
async def test_one_count_of_new_work_per_account_and_address_for_both_doors(
    redis_url: str, prefix: str, registry: Registry, per_minute: int
) -> None:
    """Challenges over the Bot API and rooms over the WebSocket draw on one count: an
    account that used its minute over HTTP is refused on the WebSocket too, from another
    address; a guest of that other address still may; the first address is spent."""
    async with serving(
        redis_url, prefix, registry, bot_workers=1, rooms_per_minute=per_minute
    ) as server:
        login, token = await person(server, "Ada")
        elsewhere = {"local_addr": ("127.0.0.2", 0)}  # loopback: another client address
        ada = await KibitzClient.connect(server.ws_url, hello=False, **elsewhere)
        await ada.request("hello", protocol=2, auth=login)
        guest = await KibitzClient.connect(server.ws_url, **elsewhere)
        here = await KibitzClient.connect(server.ws_url)
        answers = [await post(server, "/api/challenge/ai", token, {"level": 1}) for _ in range(4)]
        statuses = [status for status, _, _ in answers]
        if per_minute == 1000:  # the twin: nothing counted, nothing refused
            assert statuses == [201] * 4
            await ada.request("create_room", game="chess")
            await here.request("create_room", game="chess")
        else:
            assert statuses == [201, 201, 201, 429], answers
            _, body, headers = answers[3]
            assert "at most 3 a minute" in body["error"] and "try again in" in body["error"]
            assert 1 <= int(headers["Retry-After"]) <= 20
            with pytest.raises(KibitzError) as err:
                await ada.request("create_room", game="chess")
            assert err.value.code == "too_many" and "from your account" in err.value.message
            with pytest.raises(KibitzError) as err:
                await here.request("create_room", game="chess")
            assert err.value.code == "too_many" and "from your address" in err.value.message
        assert (await guest.request("create_room", game="chess"))["type"] == "room_created"
        for c in (ada, guest, here):
            await c.close()


async def test_the_bot_workers_fair_share_keeps_one_for_the_others() -> None:
    """FairShare alone (no server): one owner's searches hold all workers but one, others
    are served in turn, a cancelled waiter gives its turn on, and nothing is left held."""
    share = FairShare(2)
    ran: list[str] = []
    gates: dict[str, asyncio.Event] = {}

    async def search(owner: str, name: str) -> None:
        gates[name] = asyncio.Event()
        async with share.slot(owner):
            ran.append(name)
            await gates[name].wait()

    async def settled(expected: list[str]) -> None:
        for _ in range(100):  # bounded: a few turns of the loop
            if ran == expected:
                return
            await asyncio.sleep(0)
        assert ran == expected

    flood = [asyncio.create_task(search("flood", f"f{i}")) for i in range(4)]
    await settled(["f0"])  # one worker stays free for the others
    other = asyncio.create_task(search("other", "o0"))
    await settled(["f0", "o0"])
    flood[1].cancel()  # a waiter that goes away gives its turn on
    gates["o0"].set()
    await settled(["f0", "o0"])  # the flood still holds all but one worker
    gates["f0"].set()
    await settled(["f0", "o0", "f2"])
    gates["f2"].set()
    await settled(["f0", "o0", "f2", "f3"])
    gates["f3"].set()
    await asyncio.gather(*flood, other, return_exceptions=True)
    assert (share.running, dict(share.busy), share.waiting) == (0, {}, {})
