"""``kibitz``: run the server and the tools around it.

kibitz serve [--host H] [--port P] [--data DIR | --redis URL | --redis-cluster URL]
kibitz games
kibitz bot --token T (--engine uci:PATH | --bot STRENGTH | --player MODULE:CLASS)
kibitz perft GAME DEPTH [--fen FEN] [--seats K] [--seed S] [--divide]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib
import json
import logging
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .engine import REGISTRY, EngineError, get_game, turn_rng
from .engine.perft import joint_moves, perft

#: the subcommands with a parser of their own: name -> (module in server/tools, help)
OWN_PARSERS = {
    "arena": ("arena", "play bots against each other and rate them"),
    "ladder": ("ladder", "rate each level of the bots' difficulty ladder"),
    "bot": ("bot_cmd", "play an account's games over the Bot API: an engine, a bot, a class"),
}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kibitz",
        description="Kibitz: a multiplayer real-time board-game server "
        "(chess, Dark Chess, simultaneous and hidden-information games), kept in Redis.",
    )
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser(
        "serve",
        help="run the server",
        description="Run the server: the web client at http://HOST:PORT/, the WebSocket "
        "protocol at /ws. With no --redis, a private redis-server is started in --data "
        "(AOF on) and stopped on exit.",
    )
    s.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    s.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 = any free)")
    s.add_argument(
        "--data",
        type=Path,
        default=Path("kibitz-data"),
        help="directory of the embedded Redis (default ./kibitz-data)",
    )
    s.add_argument("--redis", metavar="URL", help="use this Redis instead (redis://host:port/0)")
    s.add_argument(
        "--redis-cluster",
        metavar="URL",
        help="use this Redis Cluster instead (any node: redis://host:port); every key of a "
        "room carries the hash tag {ROOM}, so rooms spread over the primaries",
    )
    s.add_argument(
        "--durability",
        choices=("local", "replica"),
        default="local",
        help="when a move is acknowledged: 'local', once in the primary (its AOF; default); "
        "'replica', once at least one replica has it too (WAIT), else the mover is told "
        "not_replicated",
    )
    s.add_argument(
        "--replica-wait-ms",
        type=int,
        default=1000,
        metavar="MS",
        help="with --durability replica: how long a move waits for a replica (default 1000)",
    )
    s.add_argument(
        "--fsync",
        choices=("everysec", "always"),
        default="everysec",
        help="embedded Redis appendfsync: 'always' syncs every write to disk before the "
        "ack (slower); 'everysec' may lose up to 1 s on a power cut (default)",
    )
    s.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="browser origin allowed to connect besides the server's own "
        "(repeatable; '*' allows any)",
    )
    s.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to (the Host header) besides localhost, the "
        "listening address and the --allow-origin hosts (repeatable; '*' allows any): a "
        "guard against DNS rebinding",
    )
    s.add_argument(
        "--max-per-ip",
        type=int,
        default=256,
        metavar="N",
        help="open connections per client address (default 256; HTTP 429 beyond)",
    )
    s.add_argument(
        "--msg-rate",
        type=float,
        default=20.0,
        metavar="N",
        help="messages a second one connection may send on average (default 20)",
    )
    s.add_argument(
        "--msg-burst",
        type=int,
        default=60,
        metavar="N",
        help="messages one connection may send at once (default 60)",
    )
    s.add_argument(
        "--rooms-per-minute",
        type=int,
        default=30,
        metavar="N",
        help="new rooms, challenges and tournaments a minute from one client address, and "
        "as many from one account (default 30; 'too_many', HTTP 429 beyond)",
    )
    s.add_argument(
        "--bot-games",
        type=int,
        default=10,
        metavar="N",
        help="games with a bot one player (account, else address) may have in progress at "
        "once (default 10; 'too_many', HTTP 429 beyond)",
    )
    s.add_argument(
        "--seeks-per-ip",
        type=int,
        default=20,
        metavar="N",
        help="open seeks from one client address (default 20; 'rate_limited' beyond)",
    )
    s.add_argument(
        "--lag-limit",
        type=float,
        default=0.5,
        metavar="S",
        help="event-loop lag in seconds over which new connections get HTTP 503 and new "
        "rooms 'busy' while running games go on (default 0.5)",
    )
    s.add_argument("--prefix", default="kibitz:", help="Redis key prefix (default kibitz:)")
    s.add_argument(
        "--archive",
        metavar="URL",
        help="where finished games go once their grace period is over: postgresql://... "
        "or sqlite:PATH (default: sqlite:DATA/archive.sqlite3, embedded; 'none': they stay "
        "in Redis)",
    )
    s.add_argument(
        "--archive-grace",
        type=float,
        default=3600.0,
        metavar="S",
        help="seconds a finished game stays in Redis before it is archived (rematch offers, "
        "late spectators; default 3600)",
    )
    s.add_argument(
        "--node-id",
        metavar="NAME",
        help="this node's name among several sharing one --redis (default HOST:PORT); "
        "a restarted node with the same name gets its rooms back at once",
    )
    s.add_argument(
        "--lease-ms",
        type=int,
        default=5000,
        metavar="MS",
        help="room lease time: a dead node's rooms move to another node after this (default 5000)",
    )
    s.add_argument(
        "--bot-workers",
        type=int,
        default=2,
        metavar="N",
        help="worker processes for bot searches (default 2; 0 offers no bots)",
    )
    s.add_argument(
        "--engine",
        action="append",
        default=[],
        type=_engine_arg,
        metavar="NAME=PATH[?OPTIONS]",
        help="offer a UCI engine as seats (repeatable): stockfish=/usr/games/stockfish, "
        "fsf=/usr/games/fairy-stockfish?variant=xiangqi,chess (docs/BOTS.md, Engine seats)",
    )
    s.add_argument(
        "--workers",
        default="1",
        metavar="N",
        help="node processes on this port, one per core: a number or 'auto' (default 1); "
        "they share the embedded (or --redis) Redis, and a parent restarts any that dies",
    )
    s.add_argument("--reuse-port", action="store_true", help=argparse.SUPPRESS)
    s.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    s.add_argument(
        "--access-log",
        action="store_true",
        help="log every HTTP request and WebSocket upgrade: method, path (no query), status, "
        "bytes sent, milliseconds (off: INFO tells an operator what matters, not each request)",
    )

    sub.add_parser("games", help="list the games this server offers")
    for name, (_, says) in OWN_PARSERS.items():  # each its own parser: kibitz arena --help
        sub.add_parser(name, help=f"{says} (kibitz {name} --help)", add_help=False)

    from .tools import bench

    b = sub.add_parser(
        "bench",
        help="load a local deployment and compare it with a plain websockets echo server",
        description=(bench.__doc__ or "").split("\n\n")[1],
    )
    bench.add_arguments(b)

    pf = sub.add_parser(
        "perft",
        help="count move sequences to a depth (rules check)",
        description="Count the leaves of the move tree of GAME to DEPTH. A simultaneous turn "
        "counts every joint pair of moves; chance comes from --seed.",
    )
    pf.add_argument("game", help="game name (see 'kibitz games')")
    pf.add_argument("depth", type=int, help="depth in turns")
    pf.add_argument("--fen", help="start position (chess, dark_chess, xiangqi)")
    pf.add_argument("--seats", type=int, help="number of seats (default: the game's minimum)")
    pf.add_argument("--seed", default="perft", help="seed of the room rng (default 'perft')")
    pf.add_argument("--divide", action="store_true", help="print the count under each first move")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] and argv[0] in OWN_PARSERS:  # its own parser: kibitz arena --help
        module = importlib.import_module(f".tools.{OWN_PARSERS[argv[0]][0]}", __package__)
        return int(module.main(argv[1:]))
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "games":
            return _games()
        if args.command == "perft":
            return _perft(args)
        if args.command == "bench":
            from .tools import bench

            return bench.main(args)
    except KeyboardInterrupt:
        return 130
    return 2


def _games() -> int:
    for game in REGISTRY:
        seats = (
            str(game.min_seats)
            if game.min_seats == game.max_seats
            else f"{game.min_seats}-{game.max_seats}"
        )
        opts = ", ".join(f"{k}={v.default!r}" for k, v in game.options.items()) or "-"
        print(f"{game.name:<16} {game.title:<20} seats {seats:<5} options: {opts}")
    return 0


def _perft(args: argparse.Namespace) -> int:
    try:
        game = get_game(args.game)
    except KeyError:
        names = ", ".join(g.name for g in REGISTRY)
        print(f"kibitz: unknown game {args.game!r} (games: {names})", file=sys.stderr)
        return 2
    raw: dict[str, Any] = {}
    if args.fen:
        if "fen" not in game.options:
            print(f"kibitz: {game.name} takes no --fen", file=sys.stderr)
            return 2
        raw["fen"] = args.fen
    if args.depth < 0:
        print("kibitz: depth must be >= 0", file=sys.stderr)
        return 2
    try:
        n_seats = args.seats or game.min_seats
        game.check_seats(n_seats)
        options = game.check_options(raw)
        state = game.new(options, n_seats, turn_rng(args.seed, 0))
    except EngineError as exc:
        print(f"kibitz: {exc}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    if args.depth == 0:
        total = 1
    else:
        roots = joint_moves(game, state)
        total = 0
        show = sys.stderr.isatty()
        for i, moves in enumerate(roots, 1):
            child = game.play(state, moves, turn_rng(args.seed, game.ply(state) + 1), check=False)
            n = perft(game, child, args.depth - 1, args.seed)
            total += n
            if args.divide:
                print(f"{'|'.join(str(moves[s]) for s in sorted(moves))}: {n}")
            if show:
                bar = "#" * (30 * i // len(roots))
                print(f"\r[{bar:<30}] {i}/{len(roots)} first moves", end="", file=sys.stderr)
        if show and roots:
            print("\r" + " " * 60 + "\r", end="", file=sys.stderr)
    print(total)
    print(f"({time.perf_counter() - t0:.2f} s)", file=sys.stderr)
    return 0


def _engine_arg(text: str) -> Any:
    """``--engine NAME=PATH[?OPTIONS]`` read whole (server/bots/uci.py), or argparse's error."""
    from .bots.uci import EngineSpecError, parse_engine

    try:
        return parse_engine(text)
    except EngineSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _serve(args: argparse.Namespace) -> int:
    from .net.app import Config, KibitzServer
    from .net.transport.connection import Limits
    from .net.transport.gcpolicy import GcPolicy
    from .tools.bench_common import raise_nofile

    raise_nofile()  # every connection is a file: allow as many as the system lets us
    from .net.transport.workers import serve_workers, worker_count

    if args.redis and args.redis_cluster:
        print("kibitz: give --redis or --redis-cluster, not both", file=sys.stderr)
        return 2
    if args.engine and args.bot_workers < 1:
        print("kibitz: --engine needs bots: --bot-workers 0 offers none", file=sys.stderr)
        return 2
    try:
        workers = worker_count(args.workers)
    except ValueError:
        print("kibitz: --workers is a number of at least 1, or 'auto'", file=sys.stderr)
        return 2
    from .store import RedisStartError

    if args.archive is None:  # the embedded default, beside the embedded Redis's files
        args.archive = f"sqlite:{args.data / 'archive.sqlite3'}"
    if workers > 1:
        try:
            return serve_workers(args, workers, _passthrough(args))
        except RedisStartError as exc:
            print(f"kibitz: {exc}", file=sys.stderr)
            return 1
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not args.verbose:  # websockets logs each request and connection at INFO
        logging.getLogger("websockets").setLevel(logging.WARNING)
    if not (args.access_log or args.verbose):  # ours: one line a request (botapi/wire.py)
        logging.getLogger("kibitz.access").setLevel(logging.WARNING)
    config = Config(
        host=args.host,
        port=args.port,
        data_dir=args.data,
        redis_url=args.redis,
        redis_cluster=args.redis_cluster,
        durability=args.durability,
        wait_ms=args.replica_wait_ms,
        fsync=args.fsync,
        prefix=args.prefix,
        allowed_origins=args.allow_origin,
        allowed_hosts=args.allow_host,
        max_per_ip=args.max_per_ip,
        lag_limit=args.lag_limit,
        rooms_per_minute=args.rooms_per_minute,
        bot_games=args.bot_games,
        seeks_per_ip=args.seeks_per_ip,
        limits=Limits(rate=args.msg_rate, burst=args.msg_burst),
        node_id=args.node_id,
        lease_ms=args.lease_ms,
        bot_workers=args.bot_workers,
        engines=tuple(args.engine),
        reuse_port=args.reuse_port,
        archive=None if args.archive == "none" else args.archive,
        archive_grace=args.archive_grace,
    )

    async def run() -> None:
        server = KibitzServer(config)
        collector: asyncio.Task[None] | None = None
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):
                loop.add_signal_handler(sig, stop.set)
        started = False
        try:
            await server.start()
            started = True
            # a server keeps many long-lived objects: keep them out of the collector's
            # sight as they appear (server/net/transport/gcpolicy.py), and collect the young
            # generation less often, so that no collection stalls every game
            policy = GcPolicy()
            policy.start()
            gc.set_threshold(50_000, 20, 20)
            collector = asyncio.create_task(policy.run(), name="gc-policy")
            print(json.dumps({"url": server.url, "ws": server.ws_url}), flush=True)
            await stop.wait()
        finally:
            if collector is not None:
                collector.cancel()
            await server.stop()
            if started:  # a start that failed is said by the error below, not as a stop
                logging.getLogger("kibitz").info("stopped")

    from redis.exceptions import RedisError

    from .archive import ArchiveError
    from .net.services.seats.engines import EngineConfigError

    try:
        asyncio.run(run())
    except (EngineConfigError, ArchiveError) as exc:
        print(f"kibitz: {exc}", file=sys.stderr)
        return 2
    except RedisError as exc:
        where = args.redis_cluster or args.redis or f"the embedded server in {args.data}"
        print(f"kibitz: cannot use Redis at {where}: {exc}", file=sys.stderr)
        return 1
    except RedisStartError as exc:
        print(f"kibitz: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"kibitz: cannot serve: {exc}", file=sys.stderr)
        return 1
    return 0


#: the ``serve`` options every worker gets as they were given: (flag, attribute)
PASSED_THROUGH = (
    ("--prefix", "prefix"),
    ("--max-per-ip", "max_per_ip"),
    ("--rooms-per-minute", "rooms_per_minute"),
    ("--bot-games", "bot_games"),
    ("--msg-rate", "msg_rate"),
    ("--seeks-per-ip", "seeks_per_ip"),
    ("--msg-burst", "msg_burst"),
    ("--lag-limit", "lag_limit"),
    ("--lease-ms", "lease_ms"),
    ("--bot-workers", "bot_workers"),
    ("--durability", "durability"),
    ("--replica-wait-ms", "replica_wait_ms"),
    ("--archive", "archive"),
    ("--archive-grace", "archive_grace"),
)


def _passthrough(args: argparse.Namespace) -> list[str]:
    """The ``serve`` options every worker gets as they were given."""
    out: list[str] = []
    for flag, attr in PASSED_THROUGH:
        out += [flag, str(getattr(args, attr))]
    for origin in args.allow_origin:
        out += ["--allow-origin", origin]
    for host in args.allow_host:
        out += ["--allow-host", host]
    for engine in args.engine:
        out += ["--engine", str(engine)]
    if args.verbose:
        out.append("--verbose")
    if args.access_log:
        out.append("--access-log")
    return out


if __name__ == "__main__":
    sys.exit(main())
