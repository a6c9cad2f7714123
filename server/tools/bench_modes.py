"""``kibitz bench --restart | --memory | --engine`` (see :mod:`server.tools.bench`)."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..engine import REGISTRY
from ..rooms.room import Event, Room
from ..store.log import pack
from .bench_common import (
    HOST,
    _start_node,
    _start_redis,
    _wait_port,
    raise_nofile,
    rss_mb,
    stop_all,
)

NOW = 1_700_000_000.0


def _played_room(room_id: str, moves: int, rng: random.Random) -> tuple[list[Event], int] | None:
    """A chess room's log: two seats (tokens ``tok-ID-SEAT``), ``moves`` random moves; the
    seat to move next — or None if the game ended first."""
    event = Room.create(room_id, "chess", None, None, f"seed-{room_id}", NOW, None, REGISTRY)
    room = Room.from_created(event)
    log = [event]
    for seat in (0, 1):
        for e in room.take_seat(seat, f"tok-{room_id}-{seat}", f"p{seat}", NOW):
            room.fold(e)
            log.append(e)
    while len(room.turns) < moves and room.status == "playing":
        seat = min(room.to_act())
        move = rng.choice(room.game.legal_moves(room.state, seat))
        for e in room.move(seat, f"tok-{room_id}-{seat}", str(move), NOW):
            room.fold(e)
            log.append(e)
    if room.status != "playing":
        return None
    return log, min(room.to_act())


def _write_rooms(redis_url: str, rooms: int, moves: int, node: str | None) -> dict[str, int]:
    """Write ``rooms`` live rooms into Redis as a node would have; return room -> seat."""
    import redis

    client: Any = redis.Redis.from_url(redis_url)
    rng = random.Random(1)
    out: dict[str, int] = {}
    pipe = client.pipeline(transaction=False)
    i = 0
    while len(out) < rooms:
        room_id = f"bench{i:06d}"
        i += 1
        played = _played_room(room_id, moves, rng)
        if played is None:
            continue
        log, seat = played
        for version, event in enumerate(log, 1):
            pipe.xadd(f"kibitz:room:{room_id}", {"e": pack(event.to_record())}, id=f"{version}-0")
        pipe.sadd("kibitz:rooms:live", room_id)
        if node:
            pipe.set(f"kibitz:lease:{room_id}", node, px=60_000)  # left by the killed node
        out[room_id] = seat
        if len(pipe) > 5000:
            pipe.execute()
    pipe.execute()
    client.close()
    return out


def restart_mode(args: argparse.Namespace) -> dict[str, Any]:
    """``--rooms`` rooms of ``--moves`` moves in Redis, leased to a node that was killed; the
    node starts again under its id: seconds to an open port, and until every room has
    answered a first move (each: ``join`` with its seat token, then a legal move)."""
    raise_nofile()
    tmp = Path(tempfile.mkdtemp(prefix="kibitz-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        redis_url = _start_redis(tmp, procs)
        seats = _write_rooms(redis_url, args.rooms, args.moves, "restarted")
        proc, _port, figures = restart_and_play(redis_url, procs, seats)
        return {
            "mode": "restart",
            "rooms": len(seats),
            "moves_each": args.moves,
            **figures,
            "server_rss_mb": round(rss_mb(proc.pid), 1),
        }
    finally:
        stop_all(procs, tmp)


def restart_and_play(
    redis_url: str,
    procs: list[subprocess.Popen[bytes]],
    seats: dict[str, int],
    *node_args: str,
    log: Path | None = None,
) -> tuple[subprocess.Popen[bytes], int, dict[str, Any]]:
    """The node ``restarted`` starts (with ``node_args``): its process, its port, and the
    figures — seconds to an open port, and until every room of ``seats`` played a first move
    (and the moves refused, and the connections answered 503 and asked for again)."""
    t0 = time.monotonic()
    proc, port = _start_node(redis_url, "restarted", procs, *node_args, log=log)
    while True:
        try:
            socket.create_connection((HOST, port), 0.05).close()
            break
        except OSError:
            time.sleep(0.005)
    port_open = time.monotonic() - t0
    refused: dict[str, int] = {}
    busy: list[int] = []
    asyncio.run(_first_moves(f"ws://{HOST}:{port}/ws", seats, refused, busy))
    playable = time.monotonic() - t0
    return (
        proc,
        port,
        {
            "port_open_s": round(port_open, 2),
            "all_played_a_first_move_s": round(playable, 2),
            "refused_first_moves": refused,
            "connections_answered_503_then_again": len(busy),
        },
    )


async def connect_admitted(url: str, busy: list[int] | None = None, within: float = 120.0) -> Any:
    """A WebSocket to ``url``, asked for again while the node answers 503 (busy: its loop
    lags past the limit, as a node recovering or just loaded is); ``busy`` gets a 1 for
    each such answer. Gives up, raising the last 503, after ``within`` seconds."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import InvalidStatus

    give_up = time.monotonic() + within
    while True:
        try:
            return await connect(url, compression=None, max_size=2**22, open_timeout=30)
        except InvalidStatus as exc:
            if exc.response.status_code != 503 or time.monotonic() > give_up:
                raise
            if busy is not None:
                busy.append(1)
            await asyncio.sleep(0.1)


async def _first_moves(
    url: str, seats: dict[str, int], refused: dict[str, int], busy: list[int] | None = None
) -> None:
    """A first move in every room (``refused``: the moves refused, by code; ``busy`` gets a
    1 for each connection the node answered 503, still busy recovering, and that was
    asked for again)."""

    async def worker(rooms: list[str]) -> None:
        ws = await connect_admitted(url, busy)
        ids = 0

        async def ask(msg: dict[str, Any]) -> dict[str, Any]:
            nonlocal ids
            ids += 1
            await ws.send(json.dumps({**msg, "id": ids}))
            legal: list[str] = []
            while True:
                reply = json.loads(await ws.recv())
                if reply.get("type") == "update" and reply.get("legal"):
                    legal = reply["legal"]
                if reply.get("id") == ids:
                    reply["_legal"] = legal
                    return reply

        await ask({"type": "hello", "protocol": 2})
        for room in rooms:
            seat = seats[room]
            joined = await ask(
                {"type": "join", "room": room, "seat": seat, "token": f"tok-{room}-{seat}"}
            )
            if joined.get("type") == "error" or not joined["_legal"]:
                code = joined.get("code", "no_legal_moves")
                refused[code] = refused.get(code, 0) + 1
                continue
            moved = await ask({"type": "move", "room": room, "move": joined["_legal"][0]})
            if moved.get("type") == "error":
                refused[moved["code"]] = refused.get(moved["code"], 0) + 1
        await ws.close()

    ids = list(seats)
    await asyncio.gather(*(worker(ids[k::50]) for k in range(50)))


def memory_mode(args: argparse.Namespace) -> dict[str, Any]:
    """RSS per idle connection: a fresh node, then ``--connections`` connections that said
    hello. RSS per live room: a fresh node that loads ``--rooms`` live chess rooms (two
    seats, ``--moves`` moves each) from Redis, minus the same node with none."""
    raise_nofile()
    tmp = Path(tempfile.mkdtemp(prefix="kibitz-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        redis_url = _start_redis(tmp, procs)
        proc, port = _start_node(redis_url, "memory", procs)
        _wait_port(port)
        time.sleep(1)
        base = rss_mb(proc.pid)
        asyncio.run(_idle_connections(f"ws://{HOST}:{port}/ws", args.connections, proc.pid))
        with_conns = _last_rss.pop()
        proc.terminate()
        proc.wait(20)
        _write_rooms(redis_url, args.rooms, args.moves, None)
        proc, port = _start_node(redis_url, "memory", procs)
        _wait_port(port)
        time.sleep(3 + args.rooms / 500)  # the rooms load in the background
        with_rooms = rss_mb(proc.pid)
        return {
            "mode": "memory",
            "method": "VmRSS of the node process (/proc/PID/status), after minus before",
            "rss_mb_fresh": round(base, 1),
            "idle_connections": args.connections,
            "kb_per_idle_connection": round((with_conns - base) * 1024 / args.connections, 1),
            "live_rooms": args.rooms,
            "moves_per_room": args.moves,
            "kb_per_live_room": round((with_rooms - base) * 1024 / args.rooms, 1),
        }
    finally:
        stop_all(procs, tmp)


_last_rss: list[float] = []


async def _idle_connections(url: str, n: int, pid: int) -> None:
    from websockets.asyncio.client import connect

    conns = []
    gate = asyncio.Semaphore(100)

    async def one() -> Any:
        async with gate:
            ws = await connect(url, compression=None, open_timeout=30)
            await ws.send(json.dumps({"type": "hello", "protocol": 2}))
            await ws.recv()
            return ws

    conns = await asyncio.gather(*(one() for _ in range(n)))
    await asyncio.sleep(1)
    _last_rss.append(rss_mb(pid))
    for ws in conns:
        await ws.close()


def compiled_parts() -> dict[str, bool]:
    """Which compiled parts this run uses (the nodes a bench starts run the same install
    and environment: ``KIBITZ_PURE_PYTHON=1`` switches them off for both)."""
    from ..engine.compiled import COMPILED
    from ..rooms.delta import COMPILED as DELTA

    return {"chess_core": COMPILED, "delta": DELTA}


def engine_mode(quick: bool = False) -> dict[str, Any]:
    """The engine figures; ``quick`` (the suite's short form) measures every part on smaller
    samples (0.3 s of playouts a game, 20 moves, a depth-4 search): the shape, not figures."""
    from .bench_rooms import compiled_vs_python
    from .bench_rooms import run as rooms_cost

    samples = 20 if quick else 100
    out: dict[str, Any] = {"mode": "engine", "compiled": compiled_parts(), "quick": quick}
    out["plies_per_s"] = _engine_plies(0.3 if quick else 2.0)
    out["rooms_api_move_cost"] = rooms_cost(samples=samples)
    out["rooms_api_compiled_vs_python"] = compiled_vs_python(samples=2 * samples)
    out["chess_search"] = _search_speed(4 if quick else 5)
    return out


#: positions for the search's speed (an Italian, kiwipete, a Queen's Gambit, a rook ending)
SEARCH_FENS = (
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
    "8/5pk1/6p1/8/3R4/6P1/5PKP/3r4 w - - 0 40",
)


def compiled_search_round(depth: int) -> tuple[int, float]:
    """The chess bot's search (compiled, :mod:`server.bots.compiled`; the Python reference it
    is held to, ``tests/bots/chess_reference.py``, visits the same nodes to a few) to
    ``depth`` on :data:`SEARCH_FENS`: nodes and CPU seconds (``time.process_time``: other
    processes do not count)."""
    import chess

    from ..bots import compiled
    from ..engine.chess_moves import code_of

    nodes, seconds = 0, 0.0
    for fen in SEARCH_FENS:
        board = chess.Board(fen)
        game = compiled.game_of(fen, board.move_stack)
        assert game is not None
        root = [code_of(m) for m in board.legal_moves]
        t0 = time.process_time()
        nodes += compiled.search(game, root, budget=600, max_depth=depth)[3]
        seconds += time.process_time() - t0
    return nodes, seconds


def _search_speed(depth: int = 5) -> dict[str, Any]:
    """Nodes a CPU second of the chess bot's compiled search to ``depth`` and (a fraction of
    a second) two deeper (its speed against the Python reference: ``scripts/search_speed.py``);
    empty but for the depth without the compiled search."""
    from ..bots import compiled

    out: dict[str, Any] = {"depth": depth}
    if compiled.SEARCH is None:
        return out
    compiled_search_round(depth)  # the first call allocates the table
    for label, deep in (("compiled", depth), ("compiled_deeper", depth + 2)):
        nodes, seconds = compiled_search_round(deep)
        out[label] = {
            "depth": deep,
            "nodes": nodes,
            "seconds": round(seconds, 3),
            "nodes_per_s": round(nodes / seconds),
        }
    return out


def _engine_plies(seconds: float) -> dict[str, Any]:
    """Seeded random playouts per game through the engine contract, as a room uses it each
    ply (to_act, legal moves of each acting seat, play, outcome), next to python-chess's own
    loop and, when installed, OpenSpiel's dark chess."""
    import chess

    from ..engine import play_rng, turn_rng

    out: dict[str, Any] = {}
    for game in REGISTRY:
        seats = game.min_seats if game.name != "hase_und_igel" else 3
        rng = random.Random(0)
        plies, games = 0, 0
        deadline = time.perf_counter() + seconds
        t0 = time.perf_counter()
        while time.perf_counter() < deadline:
            state = game.new(game.check_options({}), seats, turn_rng(str(games), 0))
            games += 1
            while time.perf_counter() < deadline:
                acting = game.to_act(state)
                if not acting:
                    break
                moves = {s: rng.choice(game.legal_moves(state, s)) for s in acting}
                turn = play_rng(game, str(games), plies)  # as a room plays it
                state = game.play(state, moves, turn, check=False)
                game.outcome(state)
                plies += 1
        out[game.name] = round(plies / (time.perf_counter() - t0))
    rng = random.Random(0)
    plies = 0
    board = chess.Board()
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        legal = list(board.legal_moves)
        board.push(rng.choice(legal))
        plies += 1
        if board.is_game_over():
            board = chess.Board()
    out["python-chess"] = round(plies / (time.perf_counter() - t0))
    out["chess_over_python_chess"] = round(out["chess"] / out["python-chess"], 2)
    try:
        import pyspiel

        spiel = pyspiel.load_game("dark_chess")
        plies = 0
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            s = spiel.new_initial_state()
            while not s.is_terminal() and time.perf_counter() - t0 < seconds:
                s.apply_action(rng.choice(s.legal_actions()))
                plies += 1
        out["openspiel_dark_chess"] = round(plies / (time.perf_counter() - t0))
        out["dark_chess_over_openspiel"] = round(out["dark_chess"] / out["openspiel_dark_chess"], 3)
    except ImportError:
        out["openspiel_dark_chess"] = None
    return out


if __name__ == "__main__":
    print(json.dumps(engine_mode(), indent=2))
    sys.exit(0)
