"""``kibitz arena``: bots play each other in-process, and the arena measures the difference.

    kibitz arena GAME BOT_A BOT_B [BOT ...] -n N [--time S] [--seats K] [--seed S] [--json]

The arena plays N games of GAME straight on the engine (no server), rotating seats (and so
colours) from game to game, every bit of chance seeded from ``--seed``. It keeps the true
state and feeds each bot exactly what a room feeds a bot seat: the history of
``game.view(state, seat)`` after every turn, the seat's legal move texts and the time budget.
Bots never see the state (the one labelled exception: a bot class with
``reads_true_state = True``, a cheating twin for benchmarks, gets ``observe_true_state(state)``
before it moves; no such bot lives in ``server/bots``).

Bot specs:

* a strength or algorithm of ``server.bots`` for the game: ``hard``, ``alphabeta``, ``greedy``;
  options after ``?``: ``alphabeta?time=1`` (seconds per move; ``--time`` sets the default),
  other keys go to the bot's constructor as numbers (``ismcts?pool=8``);
* ``uci:PATH?OPTION=VALUE&...``: a UCI engine, exactly as an engine seat plays
  (:class:`EngineBot`), e.g. ``"uci:/usr/games/stockfish?Skill Level=0&time=0.05"``;
  ``time``/``depth``/``nodes`` are the search limit, ``level=N`` an engine seat's level N
  (``"uci:/usr/games/stockfish?level=3"``: the lobby's ``stockfish:3``), every other key a
  UCI option. With ``UCI_Variant`` the engine plays that variant (Fairy-Stockfish:
  ``"uci:/usr/games/fairy-stockfish?UCI_Variant=xiangqi&Skill Level=-20&time=1"``);
* ``py:MODULE:NAME?...``: a bot class or factory from a module (benchmarks, tests).

With two seats the result is BOT_A's: wins/draws/losses, score, and the Elo difference with a
95 % interval (normal approximation of the mean score). With more seats BOT_A takes one seat
and the last bot named fills the others (``hase_und_igel maxn greedy --seats 3``: one maxn,
two greedy); each bot's mean rank and score are reported. A game still running after
``--max-plies`` turns is stopped and counted as a draw (reason ``move_cap``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from server.bots.ladder import elo
from server.engine import Game, Outcome, get_game, turn_rng

#: default turn cap per game (for games without a draw rule of their own)
MAX_PLIES: dict[str, int] = {}


# -- bots from specs --------------------------------------------------------------------------


def number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"name?a=1&b=2"`` -> ``("name", {"a": "1", "b": "2"})`` (values URL-unquoted)."""
    name, _, query = spec.partition("?")
    options: dict[str, str] = {}
    for item in query.split("&") if query else []:
        key, _, value = item.partition("=")
        options[unquote(key)] = unquote(value)
    return name, options


class EngineBot:
    """A UCI engine behind the bot interface: the engine seat's own pieces, driven in
    process — the position its views describe and its answer read back
    (:mod:`server.bots.uci`), told in the seat's command (:class:`BestMoveCommand`) through
    python-chess's ``SimpleEngine``. Chess, and with ``UCI_Variant`` (Fairy-Stockfish) any
    game :data:`server.bots.uci.VARIANTS` names; ``level=N`` takes the skill and time of
    an engine seat's level N (:data:`server.bots.uci.DEFAULT_LEVELS`)."""

    def __init__(self, path: str, options: dict[str, str]) -> None:
        import chess.engine

        from server.bots.uci import DEFAULT_LEVELS, go_command
        from server.net.services.seats.engines import EngineSettings

        self.name = f"uci:{path}"
        self.label = path.rsplit("/", 1)[-1] + (
            "?" + "&".join(f"{k}={v}" for k, v in options.items()) if options else ""
        )
        self.variant = options.pop("UCI_Variant", None)
        level = DEFAULT_LEVELS[int(options.pop("level")) - 1] if "level" in options else None
        skill = options.pop("Skill Level", None)
        self.skill = int(skill) if skill is not None else level.skill if level else None
        seconds = float(options.pop("time")) if "time" in options else None
        if seconds is None and level is not None:
            seconds = level.movetime
        depth = int(options.pop("depth")) if "depth" in options else None
        nodes = int(options.pop("nodes")) if "nodes" in options else None
        self.go = go_command(seconds, depth, nodes)
        self.think_time = seconds or 0.1
        self.told = EngineSettings()
        self.engine = chess.engine.SimpleEngine.popen_uci(path)
        self.engine.configure({k: number(v) for k, v in options.items()})

    def choose(
        self,
        game: Game[Any, Any],
        seat: int,
        views: Sequence[Any],
        legal: Sequence[str],
        budget: float,
        rng: random.Random,
    ) -> str:
        from server.bots import uci

        return self.best(game.name, uci.position(game, seat, views), legal, len(views) <= 2)

    def best(
        self, game: str, position: Any, legal: Sequence[str], new_game: bool, go: str = ""
    ) -> str:
        """The legal move the engine picks in ``position`` (a :class:`server.bots.uci.Position`;
        ``go``: another search limit than the bot's own). ``kibitz bot`` calls it too."""
        from server.bots import uci
        from server.net.services.seats.engines import BestMoveCommand

        if position.variant != (self.variant or "chess"):
            raise ValueError(f"{self.name} plays {self.variant or 'chess'}, not {game}")
        setup = self.told.setup(self.engine.options, position.variant, self.skill)
        command, go = position.command(), go or self.go
        best = self.engine.communicate(
            lambda p: BestMoveCommand(p, setup, command, go, new_game=new_game)
        )
        return uci.read_move(game, best, legal)

    def close(self) -> None:
        self.engine.quit()


def make(spec: str, game: str, default_time: float | None) -> tuple[Any, float]:
    """A bot and its budget per move from a spec (see the module docstring)."""
    name, options = parse_spec(spec)
    if name.startswith("uci:"):
        engine = EngineBot(name[4:], dict(options))
        return engine, engine.think_time
    seconds = float(options.pop("time")) if "time" in options else default_time
    kwargs = {k: number(v) for k, v in options.items()}
    if name.startswith("py:"):
        module, _, attr = name[3:].partition(":")
        factory = getattr(importlib.import_module(module), attr)
        bot = factory(**kwargs)
    else:
        from server.bots import make_bot

        bot = make_bot(game, name, **kwargs)
    return bot, seconds if seconds is not None else float(getattr(bot, "think_time", 1.0))


# -- playing ------------------------------------------------------------------------------------


@dataclass(slots=True)
class GameRecord:
    """One game: who sat where, the outcome, the moves and the slowest move per bot."""

    seats: list[int]  # bot index per seat
    outcome: Outcome
    plies: int
    moves: list[dict[str, str]] = field(default_factory=list)
    slowest: dict[int, float] = field(default_factory=dict)  # bot index -> max seconds/budget


class IllegalBotMove(Exception):
    pass


def play_game(
    game: Game[Any, Any],
    bots: Sequence[Any],
    budgets: Sequence[float],
    seats: Sequence[int],
    seed: str,
    *,
    options: dict[str, Any] | None = None,
    max_plies: int | None = None,
) -> GameRecord:
    """Play one game; ``seats[s]`` is the index (into ``bots``) of the bot in seat ``s``."""
    n = len(seats)
    state = game.new(game.check_options(options or {}), n, turn_rng(seed, 0))
    views: list[list[Any]] = [[game.view(state, s)] for s in range(n)]
    rngs = [random.Random(f"{seed}/bot/{s}") for s in range(n)]
    record = GameRecord(list(seats), Outcome.draw(n, "move_cap"), 0)
    ply = 0
    while game.outcome(state) is None:
        if max_plies is not None and ply >= max_plies:
            record.plies = ply
            return record
        moves = {}
        texts = {}
        for s in sorted(game.to_act(state)):
            b = seats[s]
            bot = bots[b]
            legal = [str(m) for m in game.legal_moves(state, s)]
            if getattr(bot, "reads_true_state", False):  # labelled cheating twin (bench only)
                bot.observe_true_state(state)
            started = time.perf_counter()
            text = bot.choose(game, s, views[s], legal, budgets[b], rngs[s])
            spent = time.perf_counter() - started
            if budgets[b] > 0:
                record.slowest[b] = max(record.slowest.get(b, 0.0), spent / budgets[b])
            if text not in legal:
                raise IllegalBotMove(
                    f"bot {b} ({getattr(bot, 'name', bot)}) played {text!r}, not in {legal}"
                )
            moves[s] = game.parse_move(state, s, text)
            texts[str(s)] = text
        state = game.play(state, moves, turn_rng(seed, ply + 1))
        ply += 1
        record.moves.append(texts)
        for s in range(n):
            views[s].append(game.view(state, s))
    outcome = game.outcome(state)
    assert outcome is not None
    record.outcome = outcome
    record.plies = ply
    return record


def seating(index: int, n_seats: int, n_bots: int) -> list[int]:
    """Bot index per seat for game ``index``: bot 0 moves one seat on every game; with two
    seats and two bots the colours simply alternate. Extra seats get the last bot."""
    bots = list(range(n_bots)) + [n_bots - 1] * max(0, n_seats - n_bots)
    bots = bots[:n_seats]
    shift = index % n_seats
    return bots[-shift:] + bots[:-shift] if shift else bots


# -- statistics ----------------------------------------------------------------------------------


def interval(scores: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """A 95 % interval of the mean score: Wilson's score interval with the games' own
    variance (draws count half), which stays sensible at 0 % and 100 %, unlike the normal
    approximation."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / n
    denom = 1 + z * z / n
    center = (mean + z * z / (2 * n)) / denom
    half = z * math.sqrt(var / n + z * z / (4 * n * n)) / denom
    return max(0.0, center - half), min(1.0, center + half)


def summary(records: Sequence[GameRecord], labels: Sequence[str]) -> dict[str, Any]:
    """W/D/L, score and Elo (95 %) for bot 0 with two seats; mean rank/score per bot."""
    n_seats = len(records[0].seats) if records else 2
    out: dict[str, Any] = {"games": len(records), "seats": n_seats, "bots": list(labels)}
    per_bot: dict[int, dict[str, list[float]]] = {}
    for r in records:
        for seat, b in enumerate(r.seats):
            d = per_bot.setdefault(b, {"score": [], "rank": []})
            d["score"].append(r.outcome.scores[seat])
            d["rank"].append(r.outcome.ranks[seat])
    out["per_bot"] = [
        {
            "bot": labels[b],
            "seat_games": len(d["score"]),
            "mean_score": sum(d["score"]) / len(d["score"]),
            "mean_rank": sum(d["rank"]) / len(d["rank"]),
            "firsts": sum(1 for x in d["rank"] if x == 1),
        }
        for b, d in sorted(per_bot.items())
    ]
    scores = []
    wins = draws = losses = 0
    for r in records:
        seat = r.seats.index(0)
        s = r.outcome.scores[seat]
        scores.append(s)
        if n_seats == 2:
            if s > 0.5:
                wins += 1
            elif s < 0.5:
                losses += 1
            else:
                draws += 1
    if scores:
        mean = sum(scores) / len(scores)
        out["score"] = mean
        out["score_95"] = list(interval(scores))
        out["elo"] = elo(mean)
        out["elo_95"] = [elo(out["score_95"][0]), elo(out["score_95"][1])]
    if n_seats == 2:
        out.update(wins=wins, draws=draws, losses=losses)
    out["reasons"] = {}
    for r in records:
        out["reasons"][r.outcome.reason] = out["reasons"].get(r.outcome.reason, 0) + 1
    out["mean_plies"] = sum(r.plies for r in records) / len(records) if records else 0
    out["slowest_move_vs_budget"] = {
        labels[b]: max((r.slowest.get(b, 0.0) for r in records), default=0.0)
        for b in range(len(labels))
    }
    return out


def format_summary(s: dict[str, Any]) -> str:
    lines = [f"{s['games']} games, {s['seats']} seats: " + " vs ".join(s["bots"])]
    if s["seats"] == 2 and "score" in s:
        lines.append(
            f"{s['bots'][0]}: +{s['wins']} ={s['draws']} -{s['losses']}  "
            f"score {s['score']:.3f} [{s['score_95'][0]:.3f}, {s['score_95'][1]:.3f}]  "
            f"Elo {s['elo']:+.0f} [{s['elo_95'][0]:+.0f}, {s['elo_95'][1]:+.0f}] (95 %)"
        )
    else:
        for row in s["per_bot"]:
            lines.append(
                f"{row['bot']}: mean rank {row['mean_rank']:.2f}, "
                f"mean score {row['mean_score']:.3f}, "
                f"firsts {row['firsts']}/{row['seat_games']} seat-games"
            )
        if "score" in s:
            lo, hi = s["score_95"]
            lines.append(f"{s['bots'][0]} score {s['score']:.3f} [{lo:.3f}, {hi:.3f}] (95 %)")
    lines.append(
        f"ends: {', '.join(f'{k} {v}' for k, v in sorted(s['reasons'].items()))}; "
        f"mean length {s['mean_plies']:.0f} turns"
    )
    lines.append(
        "slowest move / budget: "
        + ", ".join(f"{k} {v:.2f}" for k, v in s["slowest_move_vs_budget"].items())
    )
    return "\n".join(lines)


# -- command line ---------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kibitz arena",
        description="Play bots against each other in-process and measure the difference.",
        epilog=(
            "BOT: a strength or algorithm of the game (hard, alphabeta, greedy ...) with "
            "options after '?': 'alphabeta?time=1'; a UCI engine (chess): "
            "'uci:/usr/games/stockfish?Skill Level=0&time=0.05' (time/depth/nodes = limit, "
            "other keys = UCI options); or 'py:module:Factory?key=value'. "
            "Example: kibitz arena chess 'alphabeta?time=1' "
            "'uci:/usr/games/stockfish?Skill Level=0&time=0.05' -n 20"
        ),
    )
    p.add_argument("game", help="game name (`kibitz games` lists them)")
    p.add_argument("bots", nargs="+", metavar="BOT", help="BOT_A BOT_B [BOT ...]")
    p.add_argument("-n", "--games", type=int, default=10, help="games to play (default 10)")
    p.add_argument("--time", type=float, default=None, help="seconds per move (default: the bot's)")
    p.add_argument(
        "--seats", type=int, default=None, help="seats per game (default: the game's minimum)"
    )
    p.add_argument("--seed", default="arena", help="seed of all chance (default 'arena')")
    p.add_argument("--options", default="{}", help="game options as JSON")
    p.add_argument("--max-plies", type=int, default=None, help="turn cap; a capped game is a draw")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--games-out", default=None, help="write every game's moves as JSON lines here")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        game = get_game(args.game)
    except KeyError:
        print(f"unknown game {args.game!r}", file=sys.stderr)
        return 2
    if len(args.bots) < 2:
        print("name at least two bots", file=sys.stderr)
        return 2
    n_seats = args.seats or game.min_seats
    game.check_seats(n_seats)
    options = json.loads(args.options)
    bots, budgets = [], []
    try:
        for spec in args.bots:
            bot, budget = make(spec, game.name, args.time)
            bots.append(bot)
            budgets.append(budget)
    except KeyError as exc:
        print(f"unknown bot {exc} for {game.name}", file=sys.stderr)
        return 2
    labels = [
        f"{spec}" if "?" in spec or args.time is None else f"{spec}?time={args.time}"
        for spec in args.bots
    ]
    max_plies = args.max_plies if args.max_plies is not None else MAX_PLIES.get(game.name)
    records: list[GameRecord] = []
    out_file = open(args.games_out, "w") if args.games_out else None  # noqa: SIM115
    try:
        for i in range(args.games):
            seats = seating(i, n_seats, len(bots))
            record = play_game(
                game, bots, budgets, seats, f"{args.seed}/{i}", options=options, max_plies=max_plies
            )
            records.append(record)
            if out_file is not None:
                out_file.write(
                    json.dumps(
                        {
                            "game": i,
                            "seats": [labels[b] for b in record.seats],
                            "outcome": record.outcome.to_json(),
                            "moves": record.moves,
                        }
                    )
                    + "\n"
                )
                out_file.flush()
            _progress(records, args.games, labels)
    finally:
        if out_file is not None:
            out_file.close()
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    s = summary(records, labels)
    print(json.dumps(s, indent=2) if args.json else format_summary(s))
    return 0


def _progress(records: Sequence[GameRecord], total: int, labels: Sequence[str]) -> None:
    if not sys.stderr.isatty():
        return
    s = summary(records, labels)
    tail = (
        f"+{s['wins']} ={s['draws']} -{s['losses']}"
        if s["seats"] == 2
        else f"score {s['score']:.2f}"
    )
    progress_line(len(records), total, f"{labels[0]}: {tail}")


def progress_line(done: int, total: int, text: str) -> None:
    """``[####......] done/total text`` on stderr, in place (a terminal only)."""
    if not sys.stderr.isatty():
        return
    width = 30
    bar = "#" * (width * done // total) + "." * (width - width * done // total)
    sys.stderr.write(f"\r[{bar}] {done}/{total} {text}   ")
    sys.stderr.flush()


if __name__ == "__main__":
    raise SystemExit(main())
