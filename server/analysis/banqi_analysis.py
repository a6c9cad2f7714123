"""BanQi analysed twice, as Dark Chess is (:mod:`.dark_analysis`): the true position, and
what the mover could see.

- **What was there.** Every position, its face-down pieces known (the finished game's
  record holds the layout), searched by the game's own alpha-beta through the engine
  contract (:func:`.search_analysis.search_position`), each for the same time: a flip in
  the search turns up the piece that was there.
- **What you saw.** Before each move, the mover's honest search — the ``ismcts`` bot of the
  strongest level, given only that seat's views (the worlds it samples from them: the
  face-down pieces re-dealt) — weighs every legal move by its mean result over its
  iterations; the best against the one played is judged on lichess's scale
  (:func:`.plies.sighted`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..bots import make_bot
from ..bots.ismcts import ISMCTSBot
from .judgement import Score
from .plies import for_seat, sighted, two_views, views_rng
from .replay import replay
from .report import Json
from .search_analysis import search_position
from .xiangqi_analysis import final_score

#: the searches the analysis names
ENGINE = "kibitz alphabeta (the truth), ismcts (the mover's view)"


def weighed(bot: ISMCTSBot) -> dict[str, float]:
    """Each root move's mean result for the mover in the bot's last search."""
    root = bot.root
    if root is None:
        return {}
    return {text: child.w / child.n for text, child in root.children.items() if child.n}


def analyse(
    record: Mapping[str, Any],
    *,
    seconds: float,
    iterations: int | None = None,
    sight_seconds: float | None = None,
) -> Json:
    """The stored analysis of a finished BanQi game's ``record``: the truth (``evals``, each
    ply's ``judgement``) and the mover's view (each ply's ``seen``, each player's ``seen``
    counts); ``seconds`` per search (``sight_seconds`` for the mover's, if given, and at
    most ``iterations`` of it: a reproducible view, for tests)."""
    line = replay(record)
    game = line.game
    options = {} if iterations is None else {"max_iterations": iterations}
    bot = make_bot("banqi", "ismcts", **options)
    sight_budget = seconds if sight_seconds is None else sight_seconds
    assert isinstance(bot, ISMCTSBot)
    seed = str(record.get("seed", ""))
    evals: list[Score] = []
    best: list[str | None] = []
    views: dict[int, list[Json]] = {s: [] for s in range(2)}
    sights: list[Json | None] = []
    for i, state in enumerate(line.states):
        for s in range(2):
            views[s].append(game.view(state, s))
        done = final_score(game, state)
        if done is not None:
            evals.append(done)
            best.append(None)
            continue
        seat = min(game.to_act(state))
        value, move = search_position(game, state, seat, seconds, random.Random(f"{seed}/{i}"))
        evals.append(for_seat(value, seat))
        best.append(move)
        if i < len(line.turns):
            legal = [str(m) for m in game.legal_moves(state, seat)]
            weighed_now = None
            if len(legal) > 1:
                bot.root = None
                rng = views_rng(views[seat])  # the seat's views alone decide
                bot.choose(game, seat, views[seat], legal, sight_budget, rng)
                weighed_now = sighted(weighed(bot), line.turns[i][seat])
            sights.append(weighed_now)
    return two_views(game.name, ENGINE, seconds, evals, line.turns, best, sights)
