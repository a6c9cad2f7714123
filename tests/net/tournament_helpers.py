"""Helpers of the tournament tests (tests/net/test_tournament_*.py): nodes with bots, a
tournament of bots created and watched to its end, and a recount from the games' records."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.request
from collections.abc import AsyncIterator, Callable
from typing import Any

from server.engine import Registry
from server.net.app import Config, KibitzServer
from server.net.transport.connection import Limits
from server.sdk import KibitzClient, KibitzError
from server.store.log import unpack
from server.store.tournaments import TournamentStore

from ..conftest import node_config

Message = dict[str, Any]


def config(redis_url: str, prefix: str, registry: Registry, node: str, **more: Any) -> Config:
    fields: dict[str, Any] = {"bot_workers": 1, "limits": Limits(rate=1000, burst=1000)}
    return node_config(redis_url, prefix, registry, node, **(fields | more))


@contextlib.asynccontextmanager
async def nodes(
    redis_url: str, prefix: str, registry: Registry, n: int = 2
) -> AsyncIterator[list[KibitzServer]]:
    async with contextlib.AsyncExitStack() as stack:
        servers = []
        for i in range(n):
            cfg = config(redis_url, prefix, registry, f"n{i + 1}")
            servers.append(await stack.enter_async_context(KibitzServer(cfg)))
        yield servers


async def two_joined(server: KibitzServer, spec: Message) -> tuple[list[KibitzClient], str, float]:
    """Two players connected to ``server`` who joined a new tournament of ``spec`` starting
    in a minute: their clients, its id, when it starts."""
    players = [await KibitzClient.connect(server.ws_url) for _ in range(2)]
    starts = time.time() + 60
    created = await players[0].request("tournament_create", **spec, starts_at=starts)
    tid = str(created["tournament"])
    for p in players:
        await p.request("tournament_join", tournament=tid)
    return players, tid, starts


async def with_bots(
    c: KibitzClient,
    spec: Message,
    bots: int,
    level: str = "random",
    adders: list[KibitzClient] | None = None,
) -> str:
    """Create a tournament and fill it with ``bots`` bots (added through ``adders`` in turn:
    the creator's connections, maybe on several nodes); its id."""
    created = await c.request("tournament_create", **spec)
    tid = str(created["tournament"])
    via = adders or [c]
    for i in range(bots):
        adder = via[i % len(via)]
        await adder.request_while_unavailable("tournament_add_bot", tournament=tid, level=level)
    return tid


async def wait_view(
    c: KibitzClient, tid: str, done: Callable[[Message], bool], timeout: float
) -> Message:
    """The first pushed ``tournament`` view of ``tid`` for which ``done`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        left = deadline - loop.time()
        if left <= 0:
            raise TimeoutError(f"tournament {tid} did not get there in {timeout} s")
        msg = await c.next_message(left)
        if msg.get("type") == "tournament" and msg["tournament"] == tid and done(msg["view"]):
            return msg["view"]


def finished(view: Message) -> bool:
    return view["status"] == "finished" and not any(g["ongoing"] for g in view["games"])


async def log_of(server: KibitzServer, tid: str) -> list[Message]:
    assert server.store is not None
    return await TournamentStore(server.store).load(tid)


async def records(c: KibitzClient, rooms: list[str], within: float = 30) -> dict[str, Message]:
    """Every room's record. A room whose host was killed answers ``unavailable`` until its
    lease runs out and a live node takes it ("it moves shortly"): asked again meanwhile,
    for up to ``within`` seconds in all."""
    out = {}
    deadline = time.monotonic() + within
    for room in rooms:
        while True:
            try:
                out[room] = (await c.request("record", room=room))["record"]
                break
            except KibitzError as exc:
                if exc.code != "unavailable" or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)
    return out


def http_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.loads(answer.read())


def pairings(log: list[Message]) -> list[Message]:
    return [e["d"] for e in log if e["k"] == "paired"]


def results(log: list[Message]) -> dict[str, Message]:
    out: dict[str, Message] = {}
    for e in log:
        if e["k"] == "result":
            assert e["d"]["room"] not in out, f"room {e['d']['room']} has two results"
            out[e["d"]["room"]] = e["d"]
    return out


def assert_nobody_paired_twice(log: list[Message]) -> None:
    """No player is paired into a game while another of theirs has no result, and every
    room is paired once."""
    playing: dict[str, str] = {}
    rooms: set[str] = set()
    for e in log:
        d = e["d"]
        if e["k"] == "paired":
            assert d["room"] not in rooms, f"room {d['room']} paired twice"
            rooms.add(d["room"])
            for key in d["players"]:
                assert key not in playing, f"{key} paired in {d['room']} while in {playing[key]}"
                playing[key] = d["room"]
        elif e["k"] == "result":
            for key in [k for k, r in playing.items() if r == d["room"]]:
                del playing[key]


__all__ = ["unpack"]


def recount_arena(log: list[Message], recs: dict[str, Message]) -> dict[str, dict[str, float]]:
    """Each player's points, games, wins, draws and losses recounted from the games'
    records (their outcomes), in the order the results came: a win 2, a draw 1, a loss 0,
    many seats by places (2 for each player behind, 1 for each tied), doubled after two
    wins in a row until a game that is not a win."""
    table: dict[str, dict[str, float]] = {}
    streak: dict[str, int] = {}
    for e in log:
        if e["k"] != "result":
            continue
        rec = recs[e["d"]["room"]]
        outcome = rec["outcome"]
        if outcome["reason"] == "aborted":
            continue
        ranks = outcome["ranks"]
        assert e["d"]["ranks"] == [r - 1 for r in ranks]  # the log holds what the room said
        for seat, name in enumerate(rec["players"]):
            behind = sum(1 for r in ranks if r > ranks[seat])
            ahead = sum(1 for r in ranks if r < ranks[seat])
            tied = len(ranks) - behind - ahead - 1
            won, drew = not ahead and not tied, not ahead and tied > 0
            row = table.setdefault(name, dict.fromkeys(("points", "games", "W", "D", "L"), 0))
            fire = streak.get(name, 0) >= 2
            row["points"] += (2 * behind + tied) * (2 if fire else 1)
            row["games"] += 1
            row["W" if won else "D" if drew else "L"] += 1
            streak[name] = streak.get(name, 0) + 1 if won else 0
    return table


def standings_table(view: Message) -> dict[str, dict[str, float]]:
    return {
        r["name"]: {
            "points": r["points"],
            "games": r["games"],
            "W": r["wins"],
            "D": r["draws"],
            "L": r["losses"],
        }
        for r in view["standings"]
        if r["games"]
    }
