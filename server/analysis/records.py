"""A finished game's analysis from its record, by game: the one function a worker process
runs (:func:`analyse_record`).

Chess is searched by Stockfish (:mod:`.chess_analysis`), XiangQi by Fairy-Stockfish
(:mod:`.xiangqi_analysis`), at the same node budget per position; Jungle, Kamisado, Kono and
Ming Mang by their own alpha-beta (:mod:`.search_analysis`), and Dark Chess twice, the truth
and the mover's view (:mod:`.dark_analysis`), Yonin Shogi by its max^n, each seat's value
(:mod:`.many_seats`), BanQi twice as Dark Chess (:mod:`.banqi_analysis`), Apocalypse by its
decoupled UCT, each seat's value (:mod:`.simultaneous`), each position for the same time.
Hase und Igel is not analysed yet (docs/ANALYSIS.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import chess

from . import (
    banqi_analysis,
    chess_analysis,
    dark_analysis,
    many_seats,
    search_analysis,
    simultaneous,
    xiangqi_analysis,
)
from .report import Json

#: the games analysed (the service refuses the others before queueing them)
GAMES = (
    *("chess", "xiangqi", "dark_chess", "banqi"),
    *search_analysis.GAMES,
    *many_seats.GAMES,
    *simultaneous.GAMES,
)


class NotAnalysable(ValueError):
    """The game is not one :func:`analyse_record` analyses, or its record is not finished."""


@dataclass(frozen=True, slots=True)
class Tools:
    """What an analysis is run with: the engines' paths, the node budget per position of
    the outside engines and the seconds per position of our own searches (``max_depth``: a
    cap on Dark Chess's depth, for reproducible tests)."""

    stockfish: str = "/usr/games/stockfish"
    fairy_stockfish: str = "/usr/games/fairy-stockfish"
    nodes: int = chess_analysis.NODES
    seconds: float = 1.0
    max_depth: int = 32
    #: the most an outside engine may search one position (then it stops, or is killed)
    position_cap: float = 60.0


def analyse_record(record: Mapping[str, Any], tools: Tools) -> Json:
    """The stored analysis (:mod:`.report`) of a finished game's record."""
    game = record.get("game")
    if game not in GAMES:
        raise NotAnalysable(f"{game!r} games are not analysed")
    if not record.get("outcome"):
        raise NotAnalysable("only a finished game is analysed")
    if game == "xiangqi":
        return xiangqi_analysis.analyse(
            record, tools.fairy_stockfish, nodes=tools.nodes, seconds=tools.position_cap
        )
    if game == "banqi":
        return banqi_analysis.analyse(record, seconds=tools.seconds)
    if game == "dark_chess":
        return dark_analysis.analyse(record, seconds=tools.seconds, max_depth=tools.max_depth)
    if game in search_analysis.GAMES:
        return search_analysis.analyse(record, seconds=tools.seconds)
    if game in many_seats.GAMES:
        return many_seats.analyse(record, seconds=tools.seconds)
    if game in simultaneous.GAMES:
        return simultaneous.analyse(record, seconds=tools.seconds)
    start = (record.get("options") or {}).get("fen", chess.STARTING_FEN)
    moves = [str(m) for turn in record.get("moves") or [] for m in turn["moves"].values()]
    result = chess_analysis.analyse(
        start, moves, tools.stockfish, nodes=tools.nodes, seconds=tools.position_cap
    )
    return chess_analysis.stored(result)
