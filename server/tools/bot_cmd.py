"""``kibitz bot``: play an account's games over the Bot API (docs/BOT_API.md, "kibitz bot").

The runner is :mod:`server.sdk.botrunner` (a client of the API, nothing of the server's);
the players are :mod:`server.tools.bot_players`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Sequence

from server.engine import REGISTRY
from server.sdk.botrunner import BotRunner, RunnerError, Terms, game_name
from server.sdk.http import ApiClient, ApiError, Unreachable

from .bot_players import PlayerError, player_factory

EXAMPLES = """\
examples:
  kibitz bot --token kbt_... --engine /usr/games/stockfish
  kibitz bot --token kbt_... --engine "uci:/usr/games/fairy-stockfish?time=0.2" --game xiangqi
  kibitz bot --token kbt_... --bot normal --concurrency 4        # every game
  kibitz bot --token kbt_... --player mybot:Player --game kono    # mybot.py: class Player
  KIBITZ_TOKEN=kbt_... kibitz bot --bot random --game jungle --challenge Bea

The token is an API token of scope bot:play (your profile page, "API tokens"); --upgrade
makes its account a bot account first (once; an account that has played no game yet).
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kibitz bot",
        description="Play an account's games on a Kibitz server over its Bot API: accept "
        "the challenges it may, play them with a UCI engine, one of Kibitz's bots or a "
        "Python class, several at once, reconnecting when the connection drops.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--server", default="http://127.0.0.1:8765", help="the server (default %(default)s)"
    )
    p.add_argument("--token", help="the account's API token (default: $KIBITZ_TOKEN)")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument(
        "--engine",
        metavar="uci:PATH[?OPT=V&...]",
        help="a UCI engine; options after '?': UCI options, time=S (a move), depth=N, "
        "nodes=N (default: a fortieth of the clock)",
    )
    who.add_argument(
        "--bot",
        metavar="STRENGTH",
        help="one of Kibitz's bots: random, easy, normal, hard, "
        "or an algorithm (alphabeta?time=0.5)",
    )
    who.add_argument(
        "--player", metavar="MODULE:CLASS", help="your class: move(self, game: dict) -> str"
    )
    names = [g.name for g in REGISTRY]
    p.add_argument(
        "--game",
        action="append",
        choices=names,
        metavar="GAME",
        help="a game to accept (repeatable; default: every game the player plays; "
        "chess is lichess's 'standard')",
    )
    p.add_argument(
        "--concurrency", type=int, default=1, metavar="N", help="games at once (default 1)"
    )
    p.add_argument("--rated-only", action="store_true", help="decline casual challenges")
    p.add_argument("--casual-only", action="store_true", help="decline rated challenges")
    p.add_argument(
        "--min-base",
        type=float,
        default=0.0,
        metavar="S",
        help="decline clocks of less than S seconds (tooFast)",
    )
    p.add_argument(
        "--max-base",
        type=float,
        metavar="S",
        help="decline clocks of more than S seconds (tooSlow)",
    )
    p.add_argument("--no-unlimited", action="store_true", help="decline games without a clock")
    p.add_argument("--upgrade", action="store_true", help="make the account a bot account")
    p.add_argument(
        "--challenge", metavar="USER", help="also challenge USER once, to the first --game"
    )
    p.add_argument(
        "--clock",
        default="180+2",
        metavar="BASE+INC",
        help="--challenge's clock in seconds (default 180+2)",
    )
    p.add_argument("--time", type=float, metavar="S", help="--bot's seconds a move")
    p.add_argument("-v", "--verbose", action="store_true", help="log each move (DEBUG)")
    return p


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    logging.getLogger("chess.engine").setLevel(logging.WARNING)
    token = args.token or os.environ.get("KIBITZ_TOKEN")
    if not token:
        print("kibitz bot: give --token or set KIBITZ_TOKEN", file=sys.stderr)
        return 2
    if args.concurrency < 1:
        print("kibitz bot: --concurrency is at least 1", file=sys.stderr)
        return 2
    kind = "engine" if args.engine else "bot" if args.bot else "player"
    asked = frozenset(game_name(g) for g in args.game) if args.game else None
    try:
        api = ApiClient(args.server, token)
        spec = args.engine or args.bot or args.player
        make, games = player_factory(kind, spec, asked, args.time)
    except (ValueError, PlayerError) as exc:
        print(f"kibitz bot: {exc}", file=sys.stderr)
        return 2
    terms = Terms(
        games,
        rated=not args.casual_only,
        casual=not args.rated_only,
        min_base=args.min_base,
        max_base=args.max_base,
        unlimited=not args.no_unlimited,
    )
    runner = BotRunner(api, make, terms, concurrency=args.concurrency, upgrade=args.upgrade)
    try:
        asyncio.run(_run(runner, args))
    except RunnerError as exc:
        print(f"kibitz bot: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


async def _run(runner: BotRunner, args: argparse.Namespace) -> None:
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, task.cancel if task else lambda: None)
    try:
        await runner.login()
        if args.challenge:
            base, _, inc = args.clock.partition("+")
            game = args.game[0] if args.game else "chess"
            try:
                await runner.challenge(
                    args.challenge, game, **{"clock.limit": base, "clock.increment": inc or "0"}
                )
            except (ApiError, Unreachable) as exc:
                raise RunnerError(f"cannot challenge {args.challenge}: {exc}") from None
        await runner.run()
    except asyncio.CancelledError:
        logging.getLogger("kibitz.bot").info("stopped")


__all__ = ["main", "parser"]
