"""Dark Chess analysed twice: the true position, and what the mover could see.

- **What was there.** Every position of the finished game, the whole board known, searched
  by the compiled Dark Chess search (:func:`server.bots.dark_search.search`: Dark Chess's
  rules, a king in reach taken) for the same time; its best root score is the position's
  value for the side to move (a king taken: a mate). Moves are judged on lichess's scale on
  those centipawns (:mod:`.plies`).
- **What you saw.** Before each move, the mover's honest search — the ``worldsearch`` bot
  of the strongest level, given only that seat's views up to then (the worlds it samples
  from them, never the truth) — scores every legal move as a mean win chance over its
  worlds. The best of them against the one played, as winning chances (``2p - 1``), is
  judged on the same scale: the move as its player could have judged it.

The record of a finished game is public (its seed and every move), so the truth searched
here tells nothing the record does not; the seat's views are rebuilt from it with the one
view function, ``game.view(state, seat)``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import chess

from ..bots import make_bot
from ..bots.dark_search import WIN, search
from ..bots.worldsearch import WorldSearchBot
from ..engine import Game
from ..engine.dark_chess.observations import NoWorld
from .judgement import Score
from .plies import for_seat, sighted, two_views, views_rng
from .replay import replay
from .report import Json
from .xiangqi_analysis import final_score

#: the searches the analysis names
ENGINE = "kibitz dark search (the truth), worldsearch (the mover's view)"


def score_of(value: int) -> Score:
    """The search's score (side to move): a king taken in ``WIN - value`` plies is a mate."""
    if abs(value) >= WIN - 1000:
        moves = (WIN - abs(value) + 2) // 2
        return Score(mate=moves if value > 0 else -moves)
    return Score(cp=value)


def mover_view(game: Game[Any, Any], state: Any, seat: int) -> Json:
    """What ``seat`` was shown of ``state``: the one view function, as the room showed it."""
    return game.view(state, seat)


def truth(
    game: Game[Any, Any], state: Any, seat: int, seconds: float, max_depth: int = 32
) -> tuple[Score, str]:
    """The true position's value for ``seat`` (to move) and its best move."""
    texts = [str(m) for m in game.legal_moves(state, seat)]
    root = [chess.Move.from_uci(t) for t in texts]
    scores, depths, _nodes = search([state.board], root, seconds, max_depth=max_depth)
    if not depths or depths[0] <= 0:
        return Score(cp=0), texts[0]
    row = scores[0]
    i = max(range(len(row)), key=row.__getitem__)
    return score_of(row[i]), texts[i]


def seen(
    game: Game[Any, Any],
    bot: WorldSearchBot,
    views: Sequence[Json],
    seat: int,
    legal: Sequence[str],
    played: str,
    seconds: float,
    rng: random.Random,
) -> Json | None:
    """The mover's own view of its move (None: a forced move, or no world sampled: nothing
    to weigh)."""
    if len(legal) < 2:
        return None
    bot.values = {}
    try:
        bot.choose(game, seat, views, legal, seconds, rng)
    except NoWorld:  # no world fits the views within the budget: nothing to weigh
        return None
    return sighted(bot.values, played)


def analyse(record: Mapping[str, Any], *, seconds: float, max_depth: int = 32) -> Json:
    """The stored analysis (:mod:`.report`) of a finished Dark Chess game's ``record``: the
    true position's (``evals``, each ply's ``judgement``) and the mover's view (each ply's
    ``seen``, each player's ``seen`` counts); ``seconds`` per search, at most ``max_depth``
    plies deep."""
    line = replay(record)
    game = line.game
    bot = make_bot("dark_chess", "worldsearch", max_depth=max_depth)
    assert isinstance(bot, WorldSearchBot)
    evals: list[Score] = []
    best: list[str | None] = []
    views: dict[int, list[Json]] = {s: [] for s in range(2)}
    sights: list[Json | None] = []
    for i, state in enumerate(line.states):
        for s in range(2):
            views[s].append(mover_view(game, state, s))
        done = final_score(game, state)
        if done is not None:
            evals.append(done)
            best.append(None)
            continue
        seat = min(game.to_act(state))
        value, move = truth(game, state, seat, seconds, max_depth)
        evals.append(for_seat(value, seat))
        best.append(move)
        if i < len(line.turns):
            legal = [str(m) for m in game.legal_moves(state, seat)]
            played = line.turns[i][seat]
            rng = views_rng(views[seat])  # the seat's views alone decide
            sights.append(seen(game, bot, views[seat], seat, legal, played, seconds, rng))
    return two_views(game.name, ENGINE, seconds, evals, line.turns, best, sights)
