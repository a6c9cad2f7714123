"""``kibitz ladder``: rate every level of a game's difficulty ladder with arena matches.

    kibitz ladder GAME [GAME ...] [-n N] [--seed S] [--time-scale X] [--anchor SPEC] [--write]

For each game, level 2 plays level 1, level 3 plays level 2, and so on (``-n`` games each,
colours or seats rotating, all chance seeded), each level at its own think time. Level 1 is
rated 0; each level adds the Elo difference of its match with the one below, with a 95 %
interval (:mod:`server.bots.ladder`). A level that scores under 0.6 against the one below
breaks the ladder's promise and is reported. ``--anchor`` (chess) also plays the top level
against an outside engine, e.g. ``'uci:/usr/games/stockfish?Skill Level=5&time=2'``.

``--write`` stores the ratings in ``server/bots/ladder.json`` (which the lobby shows) and
the table in ``docs/BOTS.md`` between its ``<!-- ladder -->`` marks. ``--time-scale`` runs
every level at a fraction of its think time (a quick check): such ratings are stored under
the scaled times, so the lobby never shows them as the real levels'.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from server.bots import ladder
from server.engine import get_game

from .arena import GameRecord, make, play_game, progress_line, seating, summary

DOCS_FILE = Path(__file__).resolve().parents[2] / "docs" / "BOTS.md"
MARK_START, MARK_END = "<!-- ladder -->", "<!-- /ladder -->"


def match(
    game_name: str,
    specs: Sequence[str],
    budgets: Sequence[float | None],
    n: int,
    seed: str,
    label: str,
) -> dict[str, Any]:
    """``n`` games of ``specs[0]`` against ``specs[1]`` (which fills every other seat):
    bot 0's points, games and score interval (the arena's summary)."""
    game = get_game(game_name)
    made = [make(spec, game_name, b) for spec, b in zip(specs, budgets, strict=True)]
    bots = [bot for bot, _ in made]
    seconds = [budget for _, budget in made]  # a UCI engine's own limit when given None
    n_seats = game.min_seats
    records: list[GameRecord] = []
    try:
        for i in range(n):
            records.append(
                play_game(game, bots, seconds, seating(i, n_seats, 2), f"{seed}/{label}/{i}")
            )
            progress_line(i + 1, n, label)
    finally:
        for bot in bots:
            close = getattr(bot, "close", None)
            if close is not None:
                close()
    s = summary(records, list(specs))
    points = sum(r.outcome.scores[r.seats.index(0)] for r in records)
    return {
        "a": specs[0], "b": specs[1], "games": n, "points": points,
        "score": s["score"], "score_95": s["score_95"], "mean_plies": s["mean_plies"],
    }  # fmt: skip


def rate(game_name: str, n: int, seed: str, scale: float) -> dict[str, Any]:
    """The ladder of one game, measured (see the module docstring)."""
    levels = ladder.levels(game_name)
    steps = []
    for lower, upper in itertools.pairwise(levels):
        budgets = [upper.think_time * scale, lower.think_time * scale]
        label = f"{game_name} level {upper.number} vs {lower.number}"
        steps.append(match(game_name, [upper.strength, lower.strength], budgets, n, seed, label))
    ratings = ladder.chain(steps)
    out: dict[str, Any] = {
        "levels": [
            {
                "level": lv.number, "strength": lv.strength, "algorithm": lv.algorithm,
                "think_time": lv.think_time * scale, **r,
            }
            for lv, r in zip(levels, ratings, strict=True)
        ],
        "matches": steps,
        "games_per_match": n,
        "time_scale": scale,
        "seed": seed,
        "measured": datetime.date.today().isoformat(),
        "not_monotone": ladder.not_monotone(ratings),
    }  # fmt: skip
    return out


def anchor_match(game_name: str, n: int, seed: str, scale: float, anchor: str) -> dict[str, Any]:
    """The top level of ``game_name`` against the ``anchor`` bot, ``n`` games."""
    top = ladder.levels(game_name)[-1]
    label = f"{game_name} level {top.number} vs anchor"
    return match(game_name, [top.strength, anchor], [top.think_time * scale, None], n, seed, label)


def table(measured: dict[str, Any]) -> str:
    """The ladder as a Markdown table (every game measured so far)."""
    lines = [
        "| game | level | strength | algorithm, think time | Elo vs level 1 [95 %] "
        "| score vs the level below | games per match |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for game in sorted(measured):
        data = measured[game]
        for r in data["levels"]:
            below = "—" if r["score_vs_below"] is None else f"{r['score_vs_below']:.2f}"
            lines.append(
                f"| `{game}` | {r['level']} | `{r['strength']}` | `{r['algorithm']}`, "
                f"{r['think_time']:g} s | {r['elo']:+.0f} [{r['elo_95'][0]:+.0f}, "
                f"{r['elo_95'][1]:+.0f}] | {below} | {data['games_per_match']} |"
            )
    notes = []
    for game in sorted(measured):
        data = measured[game]
        if data.get("not_monotone"):
            notes.append(
                f"* `{game}`: level(s) {', '.join(map(str, data['not_monotone']))} score under "
                f"{ladder.MONOTONE_SCORE} against the level below: not monotone there."
            )
        a = data.get("anchor")
        if a:
            lo, hi = a["score_95"]
            notes.append(
                f"* `{game}`: the top level against `{a['b']}`: {a['score']:.2f} "
                f"[{lo:.2f}, {hi:.2f}] over {a['games']} games."
            )
        if data.get("time_scale", 1) != 1:
            notes.append(
                f"* `{game}`: measured at {data['time_scale']:g} times the think times "
                "(a quick check)."
            )
        notes.append(f"* `{game}`: measured {data['measured']}, seed `{data['seed']}`.")
    return "\n".join([*lines, "", *notes])


def write_docs(text: str, path: Path = DOCS_FILE) -> None:
    doc = path.read_text()
    start, end = doc.index(MARK_START), doc.index(MARK_END)
    path.write_text(doc[: start + len(MARK_START)] + "\n" + text + "\n" + doc[end:])


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kibitz ladder",
        description=(
            "Rate each level of a game's bot ladder by playing it against the level below "
            "(arena matches, seeded), chaining the Elo differences from level 1."
        ),
        epilog=(
            "Example: kibitz ladder banqi apocalypse -n 20 --write; "
            "kibitz ladder chess -n 10 --anchor "
            "'uci:/usr/games/stockfish?Skill Level=5&time=2' --write"
        ),
    )
    p.add_argument("games", nargs="+", metavar="GAME", help="games to rate")
    p.add_argument("-n", "--games-per-match", type=int, default=20, help="default 20")
    p.add_argument("--seed", default="ladder", help="seed of all chance (default 'ladder')")
    p.add_argument(
        "--time-scale", type=float, default=1.0,
        help="run every level at this fraction of its think time (default 1)",
    )  # fmt: skip
    p.add_argument("--anchor", default=None, help="also play the top level against this bot")
    p.add_argument(
        "--write", action="store_true",
        help="store the ratings (server/bots/ladder.json) and the table (docs/BOTS.md)",
    )  # fmt: skip
    p.add_argument("--ratings", type=Path, default=ladder.RATINGS_FILE, help=argparse.SUPPRESS)
    p.add_argument("--docs", type=Path, default=DOCS_FILE, help=argparse.SUPPRESS)
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    for game in args.games:
        try:
            get_game(game)
            ladder.levels(game)
        except KeyError:
            print(f"unknown game {game!r}", file=sys.stderr)
            return 2
    if args.games_per_match < 1:
        print("-n must be at least 1", file=sys.stderr)
        return 2
    results: dict[str, Any] = {}
    n, seed, scale = args.games_per_match, args.seed, args.time_scale
    for game in args.games:  # each result is stored as soon as it is known
        results[game] = rate(game, n, seed, scale)
        if args.write:
            save(results, args.ratings, args.docs)
        if args.anchor is not None:
            results[game]["anchor"] = anchor_match(game, n, seed, scale, args.anchor)
            if args.write:
                save(results, args.ratings, args.docs)
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    print(json.dumps(results, indent=1) if args.json else table(results))
    return 0


def save(results: dict[str, Any], ratings: Path, docs: Path) -> None:
    """Merge ``results`` into the ratings file and rewrite the docs' table."""
    measured = ladder.load(ratings)
    measured.update(results)
    ratings.write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n")
    write_docs(table(measured), docs)


if __name__ == "__main__":
    raise SystemExit(main())
