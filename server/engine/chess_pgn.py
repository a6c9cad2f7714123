"""Chess PGN: a room record written as PGN, with the tags a chess player expects.

Plain names (``White``, ``Black``), ``WhiteElo`` / ``BlackElo`` (a rated pairing's ratings
at the start) and ``WhiteRatingDiff`` / ``BlackRatingDiff`` once rated, ``TimeControl``,
``Date`` (the room's creation, UTC), ``Result`` and ``Termination`` as lichess writes them; a
variant board (Dark Chess) adds ``Variant`` and ``FEN``.
"""

from __future__ import annotations

import io
import time
from collections.abc import Mapping
from typing import Any

import chess
import chess.pgn


def to_pgn(record: Mapping[str, Any]) -> str:
    """PGN of a room record (see ``Room.record``): headers, moves and result."""
    out = io.StringIO()
    print(pgn_game(record), file=out, end="\n")
    return out.getvalue()


def pgn_game(
    record: Mapping[str, Any],
    *,
    board_cls: type[chess.Board] = chess.Board,
    game_cls: type[chess.pgn.Game] = chess.pgn.Game,
) -> chess.pgn.Game:
    """The PGN game of a room record; a variant board (``board_cls``) sets the ``Variant``
    and ``FEN`` headers."""
    options = record.get("options", {})
    start = options.get("fen", chess.STARTING_FEN)
    board = board_cls(start)
    game = game_cls()
    if start != chess.STARTING_FEN or board_cls.aliases[0] != "Standard":
        game.setup(board)
    game.headers["Event"] = f"Kibitz {record.get('game', 'chess')} room {record.get('room', '?')}"
    game.headers["Site"] = "Kibitz"
    game.headers["Round"] = "-"  # no round: a casual or rated game, not a tournament's
    if isinstance(record.get("created_at"), int | float):
        game.headers["Date"] = time.strftime("%Y.%m.%d", time.gmtime(record["created_at"]))
    players = record.get("players", [])
    game.headers["White"] = players[0] if len(players) > 0 and players[0] else "?"
    game.headers["Black"] = players[1] if len(players) > 1 and players[1] else "?"
    seats = record.get("seats", [])
    changes = (record.get("rated") or {}).get("changes") or []
    for seat, side in enumerate(("White", "Black")):
        if seat < len(seats) and seats[seat].get("rating") is not None:
            game.headers[f"{side}Elo"] = str(seats[seat]["rating"])
        if seat < len(changes) and changes[seat]:
            game.headers[f"{side}RatingDiff"] = f"{round(changes[seat]['change']):+d}"
    game.headers["TimeControl"] = time_control((record.get("policy") or {}).get("clock"))
    node: chess.pgn.GameNode = game
    for turn in record.get("moves", []):
        for text in turn["moves"].values():
            move = chess.Move.from_uci(text)
            node = node.add_variation(move)
            board.push(move)
    outcome = record.get("outcome")
    if outcome and outcome.get("reason") != "aborted":
        winner = outcome.get("winner")
        game.headers["Result"] = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner]
        game.headers["Termination"] = _TERMINATION.get(outcome.get("reason", ""), "Normal")
    else:
        game.headers["Result"] = "*"
        game.headers["Termination"] = "Abandoned" if outcome else "Unterminated"
    return game


#: PGN's ``Termination`` (its standard values, capitalised as lichess writes them); every
#: other end — checkmate, resignation, a draw by rule or agreement — is ``Normal``
_TERMINATION = {"timeout": "Time forfeit"}


def time_control(clock: Mapping[str, Any] | None) -> str:
    """PGN's ``TimeControl`` of a room's clock: ``180+2`` (Fischer: seconds + increment),
    ``1/30`` (30 s for every move), ``-`` (untimed)."""
    if not clock:
        return "-"
    if clock.get("type") == "per_move":
        return f"1/{float(clock['seconds']):g}"
    return f"{float(clock['base']):g}+{float(clock.get('increment', 0)):g}"
