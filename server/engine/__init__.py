"""Game rules: pure, deterministic, no I/O.

``REGISTRY`` lists every game kind the server offers; ``get_game(name)`` finds one.
Each game module registers its instance here, in the order games are listed to clients.
"""

from __future__ import annotations

from typing import Any

from .base import (
    NO_DRAWS,
    EngineError,
    Game,
    IllegalMove,
    InvalidMove,
    InvalidOptions,
    Option,
    Outcome,
    Registry,
    Seat,
    play_rng,
    turn_rng,
)

REGISTRY = Registry()


#: game modules, in listing order; each exposes ``GAMES: tuple[Game, ...]``
_MODULES = (
    "chess_game",
    "dark_chess",
    "apocalypse",
    "banqi",
    "hase_und_igel",
    "kono",
    "jungle",
    "kamisado",
    "ming_mang",
    "yonin_shogi",
    "xiangqi",
)


def _register_builtin_games() -> None:
    import importlib

    for module in _MODULES:
        for game in importlib.import_module(f"{__name__}.{module}").GAMES:
            REGISTRY.add(game)


def get_game(name: str) -> Game[Any, Any]:
    """The registered game called ``name``; ``KeyError`` if there is none."""
    return REGISTRY.get(name)


_register_builtin_games()

__all__ = [
    "NO_DRAWS",
    "REGISTRY",
    "EngineError",
    "Game",
    "IllegalMove",
    "InvalidMove",
    "InvalidOptions",
    "Option",
    "Outcome",
    "Registry",
    "Seat",
    "get_game",
    "play_rng",
    "turn_rng",
]
