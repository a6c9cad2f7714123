"""Apocalypse (both seats move at once) analysed by its own top search: the decoupled UCT of
its strongest bot level (``server/bots/ladder.json``: ``smmcts``), each position for the same
time, on the position itself (a finished game's record shows every sealed move).

Each seat's value of a position is its best move's mean result over the search's iterations
(the decoupled tree keeps one set of statistics per seat), and each seat's move of a turn is
judged against that best as a win chance on lichess's scale (:func:`.plies.sighted`): one
ply per seat per turn, ``values`` holding each seat's value of every position.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..bots import make_bot
from ..bots.bot import Deadline
from ..bots.smmcts import DecoupledUCT, SimultaneousBot
from .judgement import MARKS, chance_score, move_accuracy
from .plies import seat_values, sighted
from .replay import replay
from .report import Json

GAMES = ("apocalypse",)


def means(game: Any, state: Any, seconds: float, rng: random.Random) -> dict[int, dict[str, float]]:
    """Each acting seat's moves' mean results in a search of ``seconds``."""
    bot = make_bot(game.name, "smmcts")
    assert isinstance(bot, SimultaneousBot)
    search = DecoupledUCT(game, bot.evaluator_for(game), **bot.options)
    root = search.run(state, Deadline(seconds / 0.8), rng)
    out: dict[int, dict[str, float]] = {}
    for seat, st in (root.stats or {}).items():
        out[seat] = {str(m): w / n for m, n, w in zip(st.moves, st.n, st.w, strict=True) if n}
    return out


def analyse(record: Mapping[str, Any], *, seconds: float) -> Json:
    """The stored analysis of a finished Apocalypse game's ``record`` (module docstring)."""
    line = replay(record)
    game = line.game
    n = int(record["n_seats"])
    seed = str(record.get("seed", ""))
    values: list[list[float | None]] = []
    plies: list[Json] = []
    marks: list[list[float]] = [[] for _ in range(n)]
    counts = [{k: 0 for k in MARKS} for _ in range(n)]
    for i, state in enumerate(line.states):
        end = game.outcome(state)
        if end is not None:
            values.append(list(end.scores))
            continue
        found = means(game, state, seconds, random.Random(f"{seed}/{i}"))
        values.append(
            [round(max(found[s].values()), 3) if found.get(s) else None for s in range(n)]
        )
        if i >= len(line.turns):
            continue
        for seat, played in sorted(line.turns[i].items()):
            sight = sighted(found.get(seat, {}), played)
            entry: Json = {"ply": i + 1, "move": played, "seat": seat, "judgement": None}
            if sight is not None:
                entry.update(judgement=sight["judgement"], best=sight["best"])
                entry["value"], entry["played"] = sight["value"], sight["played"]
                score = move_accuracy(chance_score(sight["value"]), chance_score(sight["played"]))
                marks[seat].append(score)
                entry["accuracy"] = round(score, 1)
                if sight["judgement"]:
                    counts[seat][sight["judgement"]] += 1
            plies.append(entry)
    return seat_values(game.name, "kibitz smmcts", seconds, values, plies, marks, counts)
