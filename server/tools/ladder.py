"""``kibitz ladder``: rate every level of a game's difficulty ladder with arena matches.

    kibitz ladder GAME [GAME ...] [-n N] [--seed S] [--time-scale X] [--anchor SPEC]
                  [--engine NAME=PATH[?OPTIONS] ...] [--write]

For each game, level 2 plays level 1, level 3 plays level 2, and so on (``-n`` games each,
colours or seats rotating, all chance seeded), each level at its own think time. Level 1 is
rated 0; each level adds the Elo difference of its match with the one below, with a 95 %
interval (:mod:`server.bots.ladder`). A level that scores under 0.6 against the one below
breaks the ladder's promise and is reported. ``--anchor`` (chess) also plays the top level
against an outside engine, e.g. ``'uci:/usr/games/stockfish?Skill Level=5&time=2'``, and
``--engine`` (as ``kibitz serve --engine`` takes it) rates each level of an engine seat on
the game's ladder, by a match against the top level (:func:`engine_matches`).

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
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from server.bots import ladder
from server.bots.uci import EngineSpec, EngineSpecError, parse_engine
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
        "a": specs[0],
        "b": specs[1],
        "games": n,
        "points": points,
        "score": s["score"],
        "score_95": s["score_95"],
        "mean_plies": s["mean_plies"],
    }


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
                "level": lv.number,
                "strength": lv.strength,
                "algorithm": lv.algorithm,
                "think_time": lv.think_time * scale,
                **r,
            }
            for lv, r in zip(levels, ratings, strict=True)
        ],
        "matches": steps,
        "games_per_match": n,
        "time_scale": scale,
        "seed": seed,
        "measured": datetime.date.today().isoformat(),
        "not_monotone": ladder.not_monotone(ratings),
    }
    return out


def anchor_match(game_name: str, n: int, seed: str, scale: float, anchor: str) -> dict[str, Any]:
    """The top level of ``game_name`` against the ``anchor`` bot, ``n`` games."""
    top = ladder.levels(game_name)[-1]
    label = f"{game_name} level {top.number} vs anchor"
    return match(game_name, [top.strength, anchor], [top.think_time * scale, None], n, seed, label)


def engine_matches(
    game_name: str, n: int, seed: str, scale: float, spec: EngineSpec, top: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Each level of an engine seat (``--engine``, as ``kibitz serve`` takes it) against the
    game's top level, ``n`` games each: the level's rating on the game's ladder is the top
    level's (``top``: its measured entry) plus the match's difference, the standard errors
    adding in quadrature. The engine is named by its UCI ``id name``, which the lobby matches
    with the skill and time of each level (a scaled run never labels the real levels)."""
    import chess.engine

    probe = chess.engine.SimpleEngine.popen_uci(spec.path)
    try:
        engine_id = str(probe.id.get("name", spec.path))
    finally:
        probe.quit()
    variant = spec.variant_of(game_name)
    strongest = ladder.levels(game_name)[-1]
    top_se = (top["elo_95"][1] - top["elo_95"][0]) / (2 * ladder.Z95)
    out = []
    for lv in spec.levels:
        query = {**dict(spec.options), "time": f"{lv.movetime * scale:g}"}
        if lv.skill is not None:
            query["Skill Level"] = str(lv.skill)
        if variant != "chess":
            query["UCI_Variant"] = variant
        bot = f"uci:{spec.path}?" + "&".join(f"{k}={v}" for k, v in query.items())
        label = f"{game_name} {spec.strength(lv)} vs level {strongest.number}"
        budgets = [None, strongest.think_time * scale]
        m = match(game_name, [bot, strongest.strength], budgets, n, seed, label)
        diff, se = ladder.step_rating(m["points"], m["games"], *m["score_95"])
        elo, half = top["elo"] + diff, ladder.Z95 * math.hypot(se, top_se)
        out.append(
            {
                "engine": engine_id,
                "name": spec.name,
                "level": lv.number,
                "skill": lv.skill,
                "think_time": lv.movetime * scale,
                "elo": round(elo),
                "elo_95": [round(elo - half), round(elo + half)],
                "score_vs_top": round(m["points"] / m["games"], 3),
                "games": n,
            }
        )
    return out


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
        for e in data.get("engines", []):
            skill = "" if e["skill"] is None else f"skill {e['skill']}, "
            notes.append(
                f"* `{game}`: {e['engine']} at {skill}{e['think_time']:g} s a move (engine seat "
                f"level {e['level']}): {e['elo']:+.0f} [{e['elo_95'][0]:+.0f}, "
                f"{e['elo_95'][1]:+.0f}] over level 1, {e['score_vs_top']:.2f} against the top "
                f"level over {e['games']} games."
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


def _engine_arg(text: str) -> EngineSpec:
    try:
        return parse_engine(text)
    except EngineSpecError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


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
        "--time-scale",
        type=float,
        default=1.0,
        help="run every level at this fraction of its think time (default 1)",
    )
    p.add_argument("--anchor", default=None, help="also play the top level against this bot")
    p.add_argument(
        "--engine",
        action="append",
        default=[],
        type=_engine_arg,
        metavar="NAME=PATH[?OPTIONS]",
        help="also rate each level of this engine seat (as kibitz serve --engine takes it) "
        "against the top level, for the games it plays",
    )
    p.add_argument(
        "--engines-only",
        action="store_true",
        help="keep the stored levels' ratings and measure only the --engine levels",
    )
    p.add_argument(
        "--write",
        action="store_true",
        help="store the ratings (server/bots/ladder.json) and the table (docs/BOTS.md)",
    )
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
    stored = ladder.load(args.ratings)
    for game in args.games:  # each result is stored as soon as it is known
        if args.engines_only:  # the levels as stored; only the engines are measured
            if game not in stored:
                print(f"{game}: no stored ladder to rate engines against", file=sys.stderr)
                return 2
            results[game] = dict(stored[game])
        else:
            results[game] = rate(game, n, seed, scale)
        if args.write:
            save(results, args.ratings, args.docs)
        if args.anchor is not None:
            results[game]["anchor"] = anchor_match(game, n, seed, scale, args.anchor)
            if args.write:
                save(results, args.ratings, args.docs)
        top = results[game]["levels"][-1]
        for spec in args.engine:
            if game in spec.games:
                new = engine_matches(game, n, seed, scale, spec, top)
                same = {(e["engine"], e["skill"], e["think_time"]) for e in new}
                kept = [
                    e
                    for e in results[game].get("engines", [])
                    if (e["engine"], e["skill"], e["think_time"]) not in same
                ]
                results[game]["engines"] = kept + new
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
