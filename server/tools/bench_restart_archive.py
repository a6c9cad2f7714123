"""``kibitz bench --restart --archived N``: a node restarted beside a full archive.

The archive (``--archive``; by default an SQLite file in the run's scratch folder) is filled
with N finished chess games through its own API (:meth:`~server.archive.Archive.put_many`,
a thousand games a transaction): a few dozen games are played to their end through the
rooms API (random moves, then a resignation) and turned into archived games by the
archiver's own :func:`~server.net.services.archive.archiving.game_of`; each of the N is one of them
under its own id, its own players' accounts (one of 2,000) and its own end time. Then
``--rooms`` live rooms of ``--moves`` moves are written to Redis, leased to a node that was
killed, as ``--restart`` does, and the node starts again under its id with the archive:
seconds to an open port and until every live room has played a first move, then reads of
archived games (their records, over the WebSocket, and a player's page of games over HTTP).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from ..archive import Game, open_archive
from ..engine import REGISTRY
from ..net.services.archive.archiving import game_of
from ..rooms.room import Room
from .bench_common import HOST, _start_redis, raise_nofile, rss_mb, stop_all
from .bench_modes import NOW, _write_rooms, connect_admitted, restart_and_play

#: distinct games played to their end, of which the archive's games are copies
TEMPLATES = 40
#: games a transaction while filling
BATCH = 1000
#: accounts the archived games' seats are spread over
ACCOUNTS = 2000


def played(room_id: str, plies: int, rng: random.Random) -> Game:
    """A chess game of random moves up to ``plies``, then the side to move resigns (unless
    the game ended first), as the archive keeps it."""
    event = Room.create(room_id, "chess", None, None, f"seed-{room_id}", NOW, None, REGISTRY)
    room = Room.from_created(event)
    records = [event.to_record()]
    seat = 0
    while room.status != "over":
        if room.status == "waiting":
            events = room.take_seat(seat, f"tok-{seat}", f"p{seat}", NOW)
            seat += 1
        elif len(room.turns) < plies:
            mover = min(room.to_act())
            move = rng.choice(room.game.legal_moves(room.state, mover))
            events = room.move(mover, f"tok-{mover}", str(move), NOW + len(records))
        else:
            mover = min(room.to_act())
            events = room.resign(mover, f"tok-{mover}", NOW + len(records))
        for e in events:
            room.fold(e)
            records.append(e.to_record())
    game = game_of(room_id, records, REGISTRY, None)
    assert game is not None, "a template game did not end"
    return game


def templates(n: int = TEMPLATES, seed: int = 7) -> list[Game]:
    rng = random.Random(seed)
    return [played(f"tmpl{i:04d}", rng.randint(20, 80), rng) for i in range(n)]


def copy_of(template: Game, i: int, rng: random.Random) -> Game:
    """The template as the ``i``-th archived game: its own id, accounts and end time."""
    game_id = f"arch{i:07d}"
    created = dict(template.events[0])
    created["d"] = {**created["d"], "room": game_id}
    players = rng.sample(range(ACCOUNTS), 2)
    seats = tuple(
        dataclasses.replace(s, account=f"player{players[k]}") for k, s in enumerate(template.seats)
    )
    shift = i * 10.0  # a game every 10 s, the oldest first
    return dataclasses.replace(
        template,
        id=game_id,
        created_at=template.created_at + shift,
        ended_at=template.ended_at + shift,
        seats=seats,
        events=(created, *template.events[1:]),
    )


async def fill(url: str, n: int) -> dict[str, Any]:
    """Put ``n`` archived games in the archive at ``url``; how long it took."""
    base = templates()
    rng = random.Random(1)
    archive = open_archive(url)
    await archive.start()
    t0 = time.monotonic()
    written = 0
    try:
        for start in range(0, n, BATCH):
            batch = [
                copy_of(base[i % len(base)], i, rng) for i in range(start, min(n, start + BATCH))
            ]
            written += await archive.put_many(batch)
    finally:
        await archive.close()
    return {"archived_games": written, "fill_s": round(time.monotonic() - t0, 1)}


async def archived_reads(ws_url: str, http: str, ids: list[str]) -> dict[str, Any]:
    """Each of ``ids``' record over the WebSocket, and a page of one player's games over
    HTTP: how many answered whole, and the slowest."""
    ok, slowest = 0, 0.0
    async with await connect_admitted(ws_url) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 2, "id": 0}))
        await ws.recv()
        for n, game_id in enumerate(ids, 1):
            t0 = time.monotonic()
            await ws.send(json.dumps({"type": "record", "room": game_id, "id": n}))
            while True:
                reply = json.loads(await ws.recv())
                if reply.get("id") == n:
                    break
            slowest = max(slowest, time.monotonic() - t0)
            record = reply.get("record") or {}
            ok += record.get("outcome") is not None and record.get("room") == game_id
    body = json.dumps({"name": "player0", "password": "soak-pass-123"}).encode()
    register = urllib.request.Request(f"{http}/api/register", body, method="POST")
    register.add_header("Content-Type", "application/json")
    urllib.request.urlopen(register, timeout=30).close()  # the account of archived games
    t0 = time.monotonic()
    with urllib.request.urlopen(f"{http}/api/users/player0/games?per=20", timeout=30) as r:
        page = json.loads(r.read())
    return {
        "archived_records_read": f"{ok}/{len(ids)}",
        "archived_record_slowest_ms": round(slowest * 1000, 1),
        "player_page_games": len(page.get("games", [])),
        "player_page_total": page.get("total"),
        "player_page_ms": round((time.monotonic() - t0) * 1000, 1),
    }


def restart_archived_mode(args: argparse.Namespace) -> dict[str, Any]:
    raise_nofile()
    tmp = Path(tempfile.mkdtemp(prefix="kibitz-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    url = args.archive or f"sqlite:{tmp / 'archive.sqlite3'}"
    try:
        filled = asyncio.run(fill(url, args.archived))
        redis_url = _start_redis(tmp, procs)
        seats = _write_rooms(redis_url, args.rooms, args.moves, "restarted")
        extra = ("--archive", url, "--archive-grace", "3600")
        proc, port, figures = restart_and_play(
            redis_url, procs, seats, *extra, log=tmp / "node-r.log"
        )
        ids = [
            f"arch{i:07d}"
            for i in random.Random(2).sample(range(args.archived), min(20, args.archived))
        ]
        reads = asyncio.run(archived_reads(f"ws://{HOST}:{port}/ws", f"http://{HOST}:{port}", ids))
        return {
            "mode": "restart",
            **filled,
            "archive": "sqlite (scratch)" if args.archive is None else url.split(":")[0],
            "rooms": len(seats),
            "moves_each": args.moves,
            **figures,
            **reads,
            "server_rss_mb": round(rss_mb(proc.pid), 1),
        }
    finally:
        stop_all(procs, tmp)
