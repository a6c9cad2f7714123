"""The players ``kibitz bot`` runs (:mod:`server.sdk.botrunner` asks one for each move).

* :class:`EnginePlayer`: a UCI engine, ``uci:PATH[?OPTION=VALUE&...]`` — the arena's
  :class:`~server.tools.arena.EngineBot` (its options, its process, its ``position`` and
  ``go`` command), told the game's start and moves (``position startpos|fen ... moves
  ...``). Chess, and with Fairy-Stockfish XiangQi: ``UCI_Variant`` is set to the game's
  variant and our move texts are read and written by :mod:`server.bots.uci`. The time per
  move is ``time=S`` if given (or ``depth``/``nodes``), else a fortieth of the seat's clock
  (at most :data:`MOST_MOVETIME` s; :data:`UNTIMED_MOVETIME` s without a clock).
* :class:`BotPlayer`: one of Kibitz's own bots, by strength or algorithm
  (``server.bots.make_bot``, as ``kibitz arena`` names them: ``random``, ``normal``,
  ``alphabeta?time=0.5``), fed the seat's views from the stream.
* a class of your own, ``module:Class``: made once per game with no arguments, and asked
  ``move(game) -> str`` (see :mod:`server.sdk.botrunner` for what ``game`` holds).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from server.bots.uci import VARIANTS, Position, go_command, to_uci
from server.engine import REGISTRY, get_game
from server.engine.xiangqi import START_FEN as XIANGQI_START

from . import arena

#: seconds an engine thinks at most when its time comes from the clock
MOST_MOVETIME = 2.0
#: seconds an engine thinks in a game without a clock (and no ``time=`` given)
UNTIMED_MOVETIME = 0.5
#: the start positions an engine is told as ``startpos``
START_POSITIONS = {"startpos", XIANGQI_START}


class PlayerError(ValueError):
    """A player that cannot be made (the message says why)."""


class EnginePlayer:
    """A UCI engine plays one game (see the module docstring)."""

    def __init__(self, spec: str, game: str) -> None:
        name, options = arena.parse_spec(spec)
        if game not in VARIANTS.values():
            raise PlayerError(f"a UCI engine plays {' or '.join(VARIANTS.values())}, not {game}")
        variant = next(v for v, g in VARIANTS.items() if g == game)
        if variant != "chess":
            options.setdefault("UCI_Variant", variant)
        self.timed = not any(k in options for k in ("time", "depth", "nodes", "level"))
        try:
            self.engine = arena.EngineBot(name[len("uci:") :], dict(options))
        except Exception as exc:  # no such file, not UCI, an option it lacks
            raise PlayerError(f"cannot start the engine {name[4:]}: {exc}") from None
        told = self.engine.engine.options.get("UCI_Variant")
        if variant != "chess" and (told is None or variant not in (told.var or ())):
            self.engine.close()
            raise PlayerError(
                f"the engine {name[4:]} has no UCI_Variant {variant} (Fairy-Stockfish has)"
            )
        self.game = game
        self.first = True

    def move(self, game: dict[str, Any]) -> str:
        state = game["state"]
        fen = game.get("initialFen") or "startpos"
        moves = tuple(to_uci(self.game, m.replace("_", " ")) for m in state["moves"].split())
        variant = self.engine.variant or "chess"
        position = Position(variant, None if fen in START_POSITIONS else fen, moves)
        go = go_command(self.movetime(game)) if self.timed else ""
        first, self.first = self.first, False
        return self.engine.best(self.game, position, state["legalMoves"], first, go)

    def movetime(self, game: dict[str, Any]) -> float:
        """A fortieth of the seat's clock, at most :data:`MOST_MOVETIME` s."""
        state, seat = game["state"], game.get("seat") or 0
        left = state.get("wtime" if seat == 0 else "btime")
        clock = game.get("clock")
        if not clock or not isinstance(left, int | float):
            return UNTIMED_MOVETIME
        return max(0.05, min(MOST_MOVETIME, left / 1000 / 40))

    def close(self) -> None:
        self.engine.close()


class BotPlayer:
    """One of Kibitz's own bots plays one game from the seat's views."""

    def __init__(self, strength: str, game: str, seconds: float | None = None) -> None:
        try:
            self.bot, self.budget = arena.make(strength, game, seconds)
        except KeyError:
            from server.bots import strengths

            raise PlayerError(
                f"no bot {strength!r} for {game} (strengths: {', '.join(strengths(game))})"
            ) from None
        self.game = get_game(game)
        self.rng = random.Random()

    def move(self, game: dict[str, Any]) -> str:
        views = game.get("views") or []
        if not views:
            raise PlayerError("the server sent no view of the game: Kibitz's bots play from views")
        legal = game["state"]["legalMoves"]
        return str(self.bot.choose(self.game, game["seat"], views, legal, self.budget, self.rng))


def class_player(spec: str) -> Callable[[], Any]:
    """``module:Class`` as its class (:class:`PlayerError` unless it has a ``move``)."""
    module, colon, attr = spec.partition(":")
    if not colon or not module or not attr:
        raise PlayerError(f"--player {spec!r}: give module:Class, e.g. mybot:Player")
    try:
        made = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise PlayerError(f"--player {spec}: {exc}") from None
    if not callable(getattr(made, "move", None)):
        raise PlayerError(f"--player {spec}: it has no move(game) method")
    return made


def player_factory(
    kind: str, spec: str, games: frozenset[str] | None = None, seconds: float | None = None
) -> tuple[Callable[[str], Any], frozenset[str]]:
    """The runner's ``make_player`` for ``--engine``/``--bot``/``--player`` ``spec``, and
    the games it plays: ``games``, or by default every game it can (an engine: chess).
    A spec that cannot work fails here, at once, with :class:`PlayerError`: the engine is
    started once for each game (it must take the game's ``UCI_Variant``), the bot made,
    the class imported."""
    every = frozenset(g.name for g in REGISTRY)
    if kind == "engine":
        if not spec.startswith("uci:"):
            spec = f"uci:{spec}"
        for game in sorted(games or {"chess"}):
            EnginePlayer(spec, game).close()
        return (lambda game: EnginePlayer(spec, game)), games or frozenset({"chess"})
    if kind == "bot":
        from server.bots import strengths

        plays = frozenset(g for g in every if spec.partition("?")[0] in _names(g, strengths))
        if not plays:
            raise PlayerError(f"no game has a bot {spec!r} (e.g. random, easy, normal, hard)")
    else:
        made = class_player(spec)
        plays = frozenset(getattr(made, "games", None) or every)
    if games and not games <= plays:
        raise PlayerError(f"{spec} does not play {', '.join(sorted(games - plays))}")
    if kind == "bot":
        return (lambda game: BotPlayer(spec, game, seconds)), games or plays
    return (lambda game: made()), games or plays


def _names(game: str, strengths: Callable[[str], list[str]]) -> set[str]:
    from server.bots import algorithms

    return set(strengths(game)) | set(algorithms(game))


__all__ = ["BotPlayer", "EnginePlayer", "PlayerError", "class_player", "player_factory"]
