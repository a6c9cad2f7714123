"""Dark Chess PGN: written with a ``Variant "Dark Chess"`` tag and read back with the variant's
board (plain ``chess.pgn.read_game`` would reject moves into check)."""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping
from typing import Any

import chess
import chess.pgn

from ..chess_pgn import pgn_game
from .rules import DarkBoard


class DarkHeaders(chess.pgn.Headers):
    """PGN headers that know the ``Variant "Dark Chess"`` tag."""

    def variant(self) -> type[chess.Board]:
        if self.get("Variant", "").lower() in (a.lower() for a in DarkBoard.aliases):
            return DarkBoard
        return super().variant()


class DarkPgnGame(chess.pgn.Game):
    """A PGN game whose ``Variant "Dark Chess"`` header gives a :class:`DarkBoard`."""

    def __init__(self, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(headers)
        self.headers = DarkHeaders(self.headers)


def to_pgn(record: Mapping[str, Any]) -> str:
    """PGN of a finished room record, tagged ``[Variant "Dark Chess"]`` and always with a
    ``FEN`` tag; the SAN is disambiguated against dark-chess moves (:func:`read_pgn`)."""
    game = pgn_game(record, board_cls=DarkBoard, game_cls=DarkPgnGame)
    visibility = record.get("options", {}).get("visibility")
    if visibility:
        game.headers["Visibility"] = visibility
    out = io.StringIO()
    print(game, file=out, end="\n")
    return out.getvalue()


def read_pgn(text: str) -> chess.pgn.Game | None:
    """Parse a PGN written by :func:`to_pgn` (plain ``chess.pgn.read_game`` does not know the
    variant and would reject moves into check)."""
    builder = functools.partial(chess.pgn.GameBuilder, Game=DarkPgnGame)
    return chess.pgn.read_game(io.StringIO(text), Visitor=builder)
